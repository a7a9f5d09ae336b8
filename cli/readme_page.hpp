#pragma once
// `bankgate readme-table`: the README's table of what each kernel should show (expected shared
// transactions per request, from the kernel's source) against what it showed (measured, from the committed
// baselines), so that the table is generated from the files and never typed by hand.
//
//   bankgate readme-table [--baselines DIR] [--gpu ARCH/MODEL]               prints the table
//   bankgate readme-table [--baselines DIR] [--gpu ARCH/MODEL] --readme FILE  rewrites it in FILE
//   bankgate readme-table [--baselines DIR] [--gpu ARCH/MODEL] --readme FILE --check
//
// Exit codes (commands.hpp): 0 done (--check: the table is up to date); 1 --check: the table differs; 2 bad
// input or FILE lacks the markers (nothing written); 4 a baseline file has another schema version than this
// reader (regenerate the baselines first).
//
// Part of the command, not of bankgate::gate: it is one subcommand's rendering of a README, which neither the
// rules nor a suite needs.

#include <filesystem>
#include <iosfwd>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include <bankgate/gate/rules/baseline.hpp>

namespace bankgate::cli {

inline constexpr const char* kernel_table_begin = "<!-- bankgate:kernel-table:begin -->";
inline constexpr const char* kernel_table_end = "<!-- bankgate:kernel-table:end -->";

// The generated text that goes between the markers (without them), ending in a newline. Rows are ordered by
// suite and then test name, numbers inside names compared by value (Async4 before Async16). Text from the
// baselines (names, reasons) never holds "<!--" or "-->" there (written as entities), so a baseline cannot put
// a marker into the README.
std::string render_kernel_table(const std::map<std::string, gate::SuiteFile>& suites, const gate::GpuKey& gpu);

// The README's lines or marker placement are unusable; `what()` says which and where.
struct MarkerError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// `readme` with the text between the begin and end markers replaced by `table`. Each marker must appear once,
// on a line of its own, begin before end, and never in `table`. `origin` names the file in errors.
std::string replace_kernel_table(const std::string& readme, const std::string& table, const std::string& origin);

struct ReadmeTableRequest {
  std::filesystem::path baselines = "baselines";
  std::string gpu;                   // ARCH/MODEL; empty: the only GPU folder under `baselines`
  std::filesystem::path readme;      // empty: print the table
  bool check = false;                // compare FILE's table with the baselines instead of rewriting it
  std::string program = "bankgate";  // how the command was invoked, for the regenerate hint
};

// `bankgate readme-table`; returns the exit code above.
int run_readme_table(const ReadmeTableRequest& request, std::ostream& out, std::ostream& err);

}  // namespace bankgate::cli
