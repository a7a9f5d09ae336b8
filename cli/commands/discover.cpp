// discover (plumbing): the ctest entries of a suite's tests, one a test (suite_process.cpp), as
// bankgate_add_gpu_suite() runs it after a build.

#include <memory>

#include "../commands.hpp"
#include "../options.hpp"
#include "../subcommand_table.hpp"

namespace bankgate::cli {

Runner define_discover(CLI::App& command) {
  const auto o = std::make_shared<DiscoverOptions>();
  command.add_option("--binary", o->binary, "the suite program")->required();
  command.add_option("--results", o->results, "folder of the per-test result files")->required();
  command.add_option("--out", o->out, "the ctest file to write")->required();
  command.add_option("--fixture", o->fixture, "the ctest fixture of the suite's measuring test")->required();
  command.add_option("--candidates", o->candidates, "the suite's candidates folder, for each test's verdict");
  command.add_option("--baselines", o->baselines, "the suite's baselines folder, for each test's verdict");
  command.add_option("--labels", o->labels, "labels of every test")->delimiter(';');
  command.add_option("--driver-stub", o->driver_stub, driver_stub_help);
  command.add_option("--sources", o->sources,
                     "the suite's sources, whose kernel names are checked against its device code first");
  command.footer(exit_codes_of({exit_code::unreadable, exit_code::refused}));
  return [o] { return discover(*o); };
}

}  // namespace bankgate::cli
