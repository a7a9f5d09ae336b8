#include "command_line.hpp"

#include "options.hpp"

namespace bankgate::cli {

const CommandLine::Defined* CommandLine::chosen() const {
  for (const Defined& d : subcommands)
    if (*d.command) return &d;
  return nullptr;
}

void define_command_line(CLI::App& app, CommandLine& line) {
  app.footer(all_exit_codes());
  app.require_subcommand(1);
  add_console_options(app, line.quiet, line.colour);
  for (const Subcommand& entry : subcommand_table()) {
    CLI::App* command = app.add_subcommand(entry.name, entry.description);
    // What ctest and scripts run, listed apart from what people type.
    if (entry.plumbing) command->group("Plumbing (run by ctest, CMake and scripts)");
    Runner run = entry.define(*command);
    // After the subcommand's own options, as --help has always listed them.
    if (entry.speaks) add_console_options(*command, line.quiet, line.colour);
    line.subcommands.push_back({&entry, command, std::move(run)});
  }
}

}  // namespace bankgate::cli
