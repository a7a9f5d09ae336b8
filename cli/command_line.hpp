#pragma once
// The `bankgate` command line, made from the subcommand table (subcommand_table.hpp): every subcommand and option,
// defined once (CLI11). main.cpp parses and runs; the fuzz target tests/fuzz/command_line_fuzz.cpp parses without
// running.

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "subcommand_table.hpp"

namespace bankgate::cli {

// What the command line asked for, bound to the options as they are parsed.
struct CommandLine {
  // --quiet and --color, taken before the subcommand or after it (console.hpp).
  bool quiet = false;
  std::string colour = "auto";
  // Each subcommand of the table, with its place in the parsed command line and what runs it.
  struct Defined {
    const Subcommand* entry;
    const CLI::App* command;
    Runner run;
  };
  std::vector<Defined> subcommands;

  // The subcommand the command line named; nullptr before parsing.
  const Defined* chosen() const;
};

// Adds every subcommand of the table and its options to `app`, bound to `line`, which must outlive the parse and
// the run.
void define_command_line(CLI::App& app, CommandLine& line);

}  // namespace bankgate::cli
