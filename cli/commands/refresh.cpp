// refresh: record, then promote: re-measure tests after a deliberate change and write them into the baselines.

#include <iostream>
#include <memory>

#include <bankgate/gate/text/text.hpp>

#include "../commands.hpp"
#include "../history_append.hpp"
#include "../options.hpp"
#include "../subcommand_table.hpp"

namespace bankgate::cli {
namespace {

struct RefreshOptions {
  SuiteRun run;
  std::filesystem::path baselines;
  // Two: the fewest that show whether a kernel's speed depends on its process (process_spread.hpp).
  int processes = 2;
  bool dry_run = false, new_gpu = false, force = false;
  std::string history;
};

int refresh(const RefreshOptions& o, std::ostream& out) {
  refuse_in_ci(o.force, o.dry_run);  // before minutes of building and measuring
  const RecordResult recorded = record({o.run, o.baselines, o.processes, o.history, "refresh"}, out);
  PromoteOptions p;
  p.build = recorded.build;
  p.baselines = o.baselines;
  p.filter = o.run.filter;
  p.dry_run = o.dry_run;
  p.new_gpu = o.new_gpu;
  p.force = o.force;
  std::vector<gate::CommandWord> invocation{"bankgate", "refresh"};
  if (!o.run.filter.empty()) invocation.insert(invocation.end(), {"--filter", gate::quoted_name(o.run.filter)});
  if (o.processes != RefreshOptions{}.processes)
    invocation.insert(invocation.end(), {"--processes", std::to_string(o.processes)});
  p.invocation = gate::command_line(invocation);
  out << "\n";
  promote(p, out);
  out << gate::render_measured(recorded.measured, "bankgate refresh");
  return gate::measured_exit_code(recorded.measured);
}

}  // namespace

Runner define_refresh(CLI::App& command) {
  const auto o = std::make_shared<RefreshOptions>();
  add_suite_run_options(command, o->run);
  add_processes_option(command, o->processes);
  command.add_option("--baselines", o->baselines, "baselines folder (default: each suite's own)");
  command.add_flag("--dry-run", o->dry_run, "measure and show the table, write nothing");
  command.add_flag("--new-gpu", o->new_gpu, "create baselines for a GPU that has none");
  command.add_flag("--force", o->force, "refresh even where CI is set");
  add_history_option(command, o->history);
  command.footer(exit_codes_of({exit_code::unreadable, exit_code::refused}));
  return [o] { return refresh(*o, std::cout); };
}

}  // namespace bankgate::cli
