#pragma once
// The kernel names a suite's sources give their cases, checked against the kernels its program holds, at build
// time and without a GPU: a misspelt `kernel_name` would otherwise build, be skipped on every machine without a
// GPU (ctest: "100% passed") and fail only on the GPU runner.

#include <filesystem>
#include <ostream>
#include <set>
#include <string>
#include <vector>

namespace bankgate::gtest {

// A name a source gives a case as a literal: `kernel_name = "..."` or within `kernel_names = {...}`.
struct NamedKernel {
  std::filesystem::path file;
  std::size_t line = 0;
  std::string name;
};
std::vector<NamedKernel> kernel_names_in(const std::filesystem::path& file, const std::string& text);

// The names of `sources` that match no kernel of `kernels` (kernel_base_name's names), each printed on `out` as
// "file:line: ..." with the program's kernels; the number of them. Names built at run time are not seen here; the
// fixture checks those when the test runs.
std::size_t report_unknown_kernel_names(const std::vector<std::filesystem::path>& sources,
                                        const std::set<std::string>& kernels, const std::string& program,
                                        std::ostream& out);

// What the suite's main() does for `--bankgate-check-kernel-names=SOURCE;SOURCE...`: the check against this
// program's own device code. Returns its exit code (1 where a name matches no kernel).
int check_kernel_names_of_this_program(const std::string& sources, const std::string& program);

}  // namespace bankgate::gtest
