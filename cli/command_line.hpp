#pragma once
// The `bankgate` command line: every subcommand and option, defined once (CLI11). main.cpp parses and
// dispatches; the fuzz target tests/fuzz/command_line_fuzz.cpp parses without dispatching.

#include <filesystem>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "readme_table.hpp"

#include "commands.hpp"
#include "compare_commits.hpp"

namespace bankgate::cli {

// What the command line asked for: each subcommand's options, and which subcommand was given.
struct Invocation {
  GateOptions gate;
  RecordOptions record;
  ReviewOptions review;
  PromoteOptions promote;
  RefreshOptions refresh;
  CompareOptions compare;
  CompareCommitsOptions compare_commits;
  SummaryOptions summary;
  bool metrics_json = false;
  bool metrics_markdown = false;
  std::string metrics_set = "sass";
  std::filesystem::path check_root = "baselines";
  BaseOptions check_base;
  std::filesystem::path recover_root;
  std::vector<std::string> kernel_names;
  ReadmeTableRequest table;
  RunSuiteOptions run_suite;
  VerdictOptions verdict;
  DiscoverOptions discover;
  ProtocolOptions protocol;
  // --quiet and --color, taken before the subcommand or after it (console.hpp).
  bool quiet = false;
  std::string colour = "auto";
  CLI::App *gate_cmd = nullptr, *record_cmd = nullptr, *review_cmd = nullptr, *promote_cmd = nullptr,
           *refresh_cmd = nullptr, *compare_cmd = nullptr, *summary_cmd = nullptr, *metrics_cmd = nullptr,
           *check_cmd = nullptr, *recover_cmd = nullptr, *names_cmd = nullptr, *table_cmd = nullptr, *run_suite_cmd = nullptr,
           *verdict_cmd = nullptr, *discover_cmd = nullptr, *protocol_cmd = nullptr;
  CLI::App* compare_commits_cmd = nullptr;
};

// Adds every subcommand and option to `app`, bound to `in`.
void define_command_line(CLI::App& app, Invocation& in);

}  // namespace bankgate::cli
