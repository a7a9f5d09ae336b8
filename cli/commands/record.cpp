// record: build, run the GPU suites and keep what they measured as candidates, shown against the baselines; writes
// no baseline. A function of its options and the stream its table goes to (commands.hpp): refresh calls it too.

#include <iostream>
#include <memory>

#include <bankgate/gate/rules/shard_plan.hpp>
#include <bankgate/gate/text/text.hpp>

#include "../commands.hpp"
#include "../console.hpp"
#include "../options.hpp"
#include "../subcommand_table.hpp"
#include "../suite_run.hpp"

namespace bankgate::cli {

namespace fs = std::filesystem;
namespace g = bankgate::gate;
namespace protocol = bankgate::gate::protocol;

RecordResult record(const RecordOptions& o, std::ostream& out) {
  const fs::path build = absolute_build(o.run.build);
  const fs::path results = protocol::record_run(build);
  const fs::path candidates = protocol::run_candidates(results);
  // Tests may fail here (that is why a refresh is wanted); their measurements are still written.
  const auto shard = run_suites(o.run, build, results, /*strict=*/false, /*attribute=*/true, o.baselines);
  if (shard && shard->suites.empty()) throw std::runtime_error(g::empty_part_problem(shard->index, shard->count, shard->catalogue.size()));
  if (!has_candidates(candidates))
    throw std::runtime_error("nothing was measured (no GPU, no counter permission, or no GPU test matches the filter '" +
                             o.run.filter + "'); the test output " +
                             (console().quiet ? "in " + protocol::ctest_log(results).string() : std::string("above")) + " says why");
  progress("");  // apart from ctest's output
  ReviewOptions review_options;
  review_options.candidates = candidates;
  review_options.build = build;  // the project its candidates' baselines folders must lie in
  review_options.baselines = o.baselines;
  review(review_options, out);  // a table with changes is the point of recording, not a failure
  out << "candidates in " << g::terminal_line(candidates.string()) << "; promote them after review with: "
      << g::terminal_line(g::shell_quote(this_command()) + " promote --build " + g::shell_quote(build.string())) << "\n";
  return {build, candidates};
}

Runner define_record(CLI::App& command) {
  const auto o = std::make_shared<RecordOptions>();
  add_suite_run_options(command, o->run);
  add_shard_options(command, o->run);
  command.add_option("--baselines", o->baselines, "baselines folder to compare with (default: each suite's own)");
  command.footer(exit_codes_of({exit_code::unreadable, exit_code::refused}));  // changes are what recording shows, not a failure
  return [o] {
    record(*o, std::cout);
    return exit_ok;
  };
}

}  // namespace bankgate::cli
