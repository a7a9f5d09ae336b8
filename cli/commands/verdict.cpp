// verdict (plumbing): one test's result from its suite's run (suite_process.cpp), as each per-test ctest entry
// that discover writes runs it.

#include <memory>

#include "../commands.hpp"
#include "../options.hpp"
#include "../subcommand_table.hpp"

namespace bankgate::cli {

Runner define_verdict(CLI::App& command) {
  const auto o = std::make_shared<VerdictOptions>();
  command.add_option("--results", o->results, "folder of the per-test result files")->required();
  command.add_option("--test", o->test, "Suite.test")->required();
  command.footer(exit_codes_of({{exit_regression, "the test failed, or left no readable result"}}));
  return [o] { return verdict(*o); };
}

}  // namespace bankgate::cli
