#pragma once
// Words and tables for people: failure messages and result tables. Pure functions of the findings.

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include <bankgate/gate/reports/colour.hpp>
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

// The console tables keep within 100 columns: a CI log viewer's width, or half a wide terminal.
inline constexpr std::size_t console_width = 100;

// How a table is laid out and coloured on the console. The default is the plain table of any width.
struct TableStyle {
  // The most columns a line may take, 0 for no limit. Only the last column gives way: a cell too long for it
  // goes on over continuation lines, broken between words, rather than being cut (it holds a reason or a
  // detail, which is read whole). Other columns wider than the limit leave the last at least 24 columns.
  std::size_t width = 0;
  Palette palette;               // off by default
  std::size_t toned_column = 0;  // the column whose cells take their row's tone
  std::vector<Tone> tones;       // one per row after the header; none: nothing is coloured
};

// A fixed-width text table; the first row is the header. Cells are made terminal-safe lines (terminal_line) and measured
// in characters, so that an escaped or non-ASCII cell keeps its column aligned.
std::string format_table(const std::vector<std::vector<std::string>>& rows, const TableStyle& style = {});

// A line of text over lines of at most `width` characters, broken between words (a word longer than a line is
// cut); a line that fits is returned as it is, its spacing kept.
std::vector<std::string> wrap_line(std::string_view text, std::size_t width);

}  // namespace bankgate::gate
