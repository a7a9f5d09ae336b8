// run-suite (plumbing): one GPU suite as one process, a result file per test (suite_process.cpp), as the measuring
// test bankgate_add_gpu_suite() registers runs it.

#include <memory>

#include "../commands.hpp"
#include "../options.hpp"
#include "../subcommand_table.hpp"

namespace bankgate::cli {

Runner define_run_suite(CLI::App& command) {
  const auto o = std::make_shared<RunSuiteOptions>();
  command.add_option("--binary", o->binary, "the suite program")->required();
  command.add_option("--results", o->results, "folder of the per-test result files")->required();
  command.add_option("--shards", o->shards, "the suite's measuring runs (bankgate_add_gpu_suite SHARDS)")
      ->check(whole_number(1, 1024));
  command.add_option("--shard", o->shard, "which of them this is, from 0")->check(whole_number(0));
  command.add_option("--driver-stub", o->driver_stub, driver_stub_help);
  command
      .add_option("--timeout", o->timeout,
                  "the measuring test's ctest TIMEOUT in seconds: run-suite stops a little before it, writing "
                  "the record of each test it did not finish")
      ->check(whole_number(0));
  command.add_option("--test-timeout", o->test_timeout, "seconds one test may run before it is taken to hang")
      ->capture_default_str()
      ->check(whole_number(1));
  command.footer(exit_codes_of({exit_code::unreadable, exit_code::refused}));
  return [o] { return run_suite(*o); };
}

}  // namespace bankgate::cli
