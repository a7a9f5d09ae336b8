#pragma once
// Words for people: failure messages and the commands they give. Pure functions of the findings. The console's
// tables are table.hpp's.

#include <filesystem>
#include <string>
#include <vector>

#include <bankgate/gate/rules/comparison.hpp>
#include <bankgate/gate/text/number_format.hpp>  // format_number, format_change: part of every report's words
#include <bankgate/gate/text/text.hpp>

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
// review: "<bankgate> refresh --build <build> --filter 'Suite.test'". Each word shell-quoted (text.hpp), the
// name as filter_literal gives it: one line of printable text, whatever the name holds.
std::string refresh_command(const RefreshContext& how, const std::string& suite, const std::string& test);

// "SquareTile.setRowReadColIpad: shared load transactions rose 1024 -> 32768 (+3100%) ..." with the metric,
// measured and baseline values, the change, the tolerance, the baseline file and the refresh command. Of a test
// of several kernels, the figures of the kernel the finding names.
std::string format_failure(const TestLocation& where, const Finding& finding, const TestRecord& measured,
                           const TestRecord& baseline);

}  // namespace bankgate::gate
