#pragma once
// Words and tables for people: failure messages and result tables. Pure functions of the findings.

#include <filesystem>
#include <string>
#include <vector>

#include <bankgate/gate/comparison.hpp>
#include <bankgate/gate/number_format.hpp>  // format_number, format_change: part of every report's words
#include <bankgate/gate/text.hpp>

namespace bankgate::gate {

// How a project refreshes its baselines: the `bankgate` command and the build folder its suites were built in
// (both as the project's build knows them; an empty build folder leaves --build out).
struct RefreshContext {
  std::string command = "bankgate";
  std::string build_dir;
};

struct TestLocation {
  std::string suite;
  std::string test;
  std::filesystem::path baseline_file;
  RefreshContext refresh;
};

// The command that re-measures this one test in the user's project and promotes it into its baselines after
// review: "<bankgate> refresh --build <build> --filter 'Suite.test'".
std::string refresh_command(const RefreshContext& how, const std::string& suite, const std::string& test);
std::string shell_quote(const std::string& word);  // 'word', with embedded quotes escaped for sh

// "SquareTile.setRowReadColIpad: shared load transactions rose 1024 -> 32768 (+3100%) ..." with the metric,
// measured and baseline values, the change, the tolerance, the baseline file and the refresh command.
std::string format_failure(const TestLocation& where, const Finding& finding, const TestRecord& measured,
                           const TestRecord& baseline);

// A fixed-width text table; the first row is the header.
std::string format_table(const std::vector<std::vector<std::string>>& rows);

}  // namespace bankgate::gate
