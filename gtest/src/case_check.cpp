#include "case_check.hpp"

#include <algorithm>

namespace bankgate::gtest {
namespace {

// How far apart two names are: the edits (insert, delete, replace a character) that make one the other.
std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

// The program's kernels nearest to `wanted`, a few, nearest first.
std::string nearest_kernels(const std::string& wanted, const ProgramKernels& program) {
  std::vector<std::pair<std::size_t, std::string>> by_distance;
  for (const std::string& name : program.names) by_distance.emplace_back(edit_distance(wanted, name), name);
  std::sort(by_distance.begin(), by_distance.end());
  std::string listed;
  for (std::size_t i = 0; i < by_distance.size() && i < 5; ++i) listed += (i ? ", " : "") + by_distance[i].second;
  return listed;
}

std::string missing_function(const char* field, const char* what, const char* example) {
  return std::string("KernelCase::") + field + " is missing: give a function that " + what + ", e.g. ." + field +
         " = " + example;
}

std::string joined(const std::vector<std::string>& names) {
  std::string text;
  for (const std::string& n : names) text += (text.empty() ? "" : ", ") + n;
  return text.empty() ? "none" : text;
}

}  // namespace

std::vector<std::string> named_kernels(const KernelCase& kc) {
  if (!kc.kernel_names.empty()) return kc.kernel_names;
  if (!kc.kernel_name.empty()) return {kc.kernel_name};
  return {};
}

std::vector<std::string> case_problems(const KernelCase& kc, const ProgramKernels& program) {
  std::vector<std::string> problems;
  if (kc.kernel_name.empty() && kc.kernel_names.empty())
    problems.push_back(
        "KernelCase::kernel_name is missing: name the CUDA function the case launches, e.g. .kernel_name = "
        "\"transposePadded\" (without namespace, return type or parameters), or list them in launch order "
        "with .kernel_names = {\"first\", \"second\"} for a case that launches several");
  if (!kc.kernel_name.empty() && !kc.kernel_names.empty())
    problems.push_back(
        "KernelCase gives both kernel_name and kernel_names: give .kernel_name for a case of one kernel, "
        ".kernel_names for one of several");
  if (!kc.launch)
    problems.push_back(missing_function("launch", "launches the case's kernel once on prepared inputs",
                                        "[&] { my_kernel<<<grid, block>>>(out, in); }"));
  for (std::size_t i = 0; i < kc.more_placements.size(); ++i)
    if (!kc.more_placements[i])
      problems.push_back("KernelCase::more_placements[" + std::to_string(i) +
                         "] is empty: each launches the case's kernel(s) on buffers of its own");
  if (!kc.poison_output)
    problems.push_back(missing_function("poison_output",
                                        "fills the case's outputs with a pattern no kernel writes, so that a "
                                        "kernel that writes nothing fails check_output",
                                        "[&] { cudaMemset(out, 0xff, bytes); }"));
  if (!kc.check_output)
    problems.push_back(missing_function("check_output",
                                        "compares the outputs with a CPU reference and returns "
                                        "::testing::AssertionResult",
                                        "[&] { return bankgate::gtest::equal_elements(copy_of_out, reference); }"));
  if (kc.expected && kc.kernel_names.size() > 1)
    problems.push_back(
        "KernelCase::expected states one kernel's ratios: give each kernel's with .expected_of = "
        "{{\"kernel\", expectation}, ...} in a case of several kernels");
  for (const auto& [kernel, unused] : kc.expected_of)
    if (std::find(kc.kernel_names.begin(), kc.kernel_names.end(), kernel) == kc.kernel_names.end())
      problems.push_back("KernelCase::expected_of names '" + kernel + "', which is not in .kernel_names" +
                         (kc.kernel_names.empty() ? ": a case of one kernel states its ratios with .expected" : ""));
  for (const std::string& name : kc.kernel_names)
    if (name.empty())
      problems.push_back("KernelCase::kernel_names holds an empty name: name each kernel the case launches");
  const gate::CompareFloorProblem floor = gate::compare_floor_problem(kc.timing_tolerance);
  if (floor == gate::CompareFloorProblem::out_of_bounds)
    problems.push_back(
        "KernelCase::timing_tolerance.compare_floor must lie between 0 (the comparison's own floor) "
        "and 0.1 (10%)");
  else if (floor == gate::CompareFloorProblem::without_reason)
    problems.push_back(
        "KernelCase::timing_tolerance.compare_floor loosens bankgate compare for this test: give "
        ".timing_tolerance.reason saying why smaller changes of it are not decided");
  if (!program.unread.empty() || program.names.empty()) return problems;  // the program's kernels are not all known
  for (const std::string& wanted : named_kernels(kc)) {
    const bool held = std::any_of(program.names.begin(), program.names.end(),
                                  [&](const std::string& name) { return kernel_name_matches(wanted, name); });
    if (!held && !wanted.empty())
      problems.push_back("this program holds no kernel named '" + wanted +
                         "' (a case names a kernel without namespace, "
                         "return type or parameters); its kernels nearest to that name: " +
                         nearest_kernels(wanted, program));
  }
  return problems;
}

std::string launch_mismatch(const KernelCase& kc, const std::vector<std::string>& launched) {
  const std::vector<std::string> named = named_kernels(kc);
  const std::string says =
      "the case launched " + std::to_string(launched.size()) + " kernel(s) (" + joined(launched) + ")";
  if (launched.size() != named.size()) {
    const std::string remedy =
        named.size() == 1 && launched.size() > 1
            ? "; a case that launches several kernels names each, in launch order: .kernel_names = {...}"
            : "";
    return says + " but names " + std::to_string(named.size()) + " (" + joined(named) + ")" + remedy;
  }
  for (std::size_t i = 0; i < named.size(); ++i)
    if (!kernel_name_matches(named[i], launched[i]))
      return says + ", its kernel " + std::to_string(i + 1) + " is " + launched[i] + ", not " + named[i] +
             " as the case names it";
  return "";
}

}  // namespace bankgate::gtest
