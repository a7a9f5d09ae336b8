#pragma once
// `bankgate-baselines readme-table`: the README's table of what each kernel should show (expected shared
// transactions per request, from the kernel's source) against what it showed (measured, from the committed
// baselines), so that the table is generated from the files and never typed by hand.
//
//   bankgate-baselines readme-table [--baselines DIR] [--gpu ARCH/MODEL]               prints the table
//   bankgate-baselines readme-table [--baselines DIR] [--gpu ARCH/MODEL] --readme FILE  rewrites it in FILE
//   bankgate-baselines readme-table [--baselines DIR] [--gpu ARCH/MODEL] --readme FILE --check
//
// Exit codes: 0 done (--check: the table is up to date); 1 --check: the table differs; 2 bad input, usage,
// or FILE lacks the markers (nothing written); 4 a baseline file has another schema version than this reader
// (regenerate the baselines first; CTest counts this as Skipped).

#include <iosfwd>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include <bankgate/harness/baseline.hpp>

namespace bankgate::tools {

inline constexpr const char* kernel_table_begin = "<!-- bankgate:kernel-table:begin -->";
inline constexpr const char* kernel_table_end = "<!-- bankgate:kernel-table:end -->";

// The generated text that goes between the markers (without them), ending in a newline. Rows are ordered by
// suite and then test name, numbers inside names compared by value (Async4 before Async16).
std::string render_kernel_table(const std::map<std::string, harness::SuiteFile>& suites, const harness::GpuKey& gpu);

// The README's lines or marker placement are unusable; `what()` says which and where.
struct MarkerError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// `readme` with the text between the begin and end markers replaced by `table`. Each marker must appear once,
// on a line of its own, begin before end. `origin` names the file in errors.
std::string replace_kernel_table(const std::string& readme, const std::string& table, const std::string& origin);

// Runs the subcommand on the arguments after "readme-table"; returns the exit code above. `program` is how
// the tool was invoked, for the command a stale README's message gives.
int readme_table_main(const std::string& program, const std::vector<std::string>& args, std::ostream& out,
                      std::ostream& err);

}  // namespace bankgate::tools
