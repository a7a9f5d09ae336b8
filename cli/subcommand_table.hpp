#pragma once
// The subcommands of `bankgate`, in one table that the command line is made from (command_line.cpp): each its
// name, its line in --help, whether it is plumbing, and the function of commands/<name>.cpp that adds its options
// and returns what runs it. A new subcommand is a file in commands/ and a row here; nothing else lists them.

#include <functional>
#include <span>

#include <CLI/CLI.hpp>

namespace bankgate::cli {

// What runs a parsed subcommand, with the options it was given: the exit code.
using Runner = std::function<int()>;

// Adds a subcommand's options, checks, aliases and --help footer to `command` (made with its name and
// description), bound to values the returned runner holds.
using Define = Runner (*)(CLI::App& command);

struct Subcommand {
  const char* name;
  const char* description;  // the line --help shows
  // Run by ctest, CMake and scripts rather than typed by people: listed apart in --help.
  bool plumbing;
  // Prints progress or verdicts: takes --quiet and --color after its name too.
  bool speaks;
  Define define;
  // Said after an error that escapes the subcommand, only where a failure leaves nothing written for certain.
  // The others write as they go (build results, reports, logs), so an error may come after some of it: they
  // claim nothing either way (summary names each report it could not write).
  const char* after_failure;
};

// Every subcommand, in the order --help lists them.
std::span<const Subcommand> subcommand_table();

// The subcommands' definitions, one a file in commands/.
Runner define_gate(CLI::App& command);
Runner define_record(CLI::App& command);
Runner define_review(CLI::App& command);
Runner define_promote(CLI::App& command);
Runner define_refresh(CLI::App& command);
Runner define_compare(CLI::App& command);
Runner define_compare_commits(CLI::App& command);
Runner define_summary(CLI::App& command);
Runner define_metrics(CLI::App& command);
Runner define_check_baselines(CLI::App& command);
Runner define_recover(CLI::App& command);
Runner define_run_suite(CLI::App& command);
Runner define_verdict(CLI::App& command);
Runner define_discover(CLI::App& command);
Runner define_protocol(CLI::App& command);
Runner define_kernel_name(CLI::App& command);
Runner define_readme_table(CLI::App& command);
Runner define_history(CLI::App& command);
Runner define_bisect(CLI::App& command);

}  // namespace bankgate::cli
