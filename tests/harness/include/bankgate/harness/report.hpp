#pragma once
// Words and tables for people: failure messages and result tables. Pure functions of the findings.

#include <filesystem>
#include <string>
#include <vector>

#include <bankgate/harness/comparison.hpp>

namespace bankgate::harness {

struct TestLocation {
  std::string suite;
  std::string test;
  std::filesystem::path baseline_file;
};

// The command that re-measures this one test and promotes it into the baselines after review.
std::string refresh_command(const std::string& suite, const std::string& test);

// "SquareTile.setRowReadColIpad: shared load transactions rose 1024 -> 32768 (+3100%) ..." with the metric,
// measured and baseline values, the change, the tolerance, the baseline file and the refresh command.
std::string format_failure(const TestLocation& where, const Finding& finding, const TestRecord& measured,
                           const TestRecord& baseline);

std::string format_change(double measured, double baseline);  // "+31744 (+3100.0%)"

// A fixed-width text table; the first row is the header.
std::string format_table(const std::vector<std::vector<std::string>>& rows);

std::string format_number(double value);  // integers without fraction, others with up to 3 decimals

}  // namespace bankgate::harness
