#pragma once
// A KernelCase checked before anything of it runs (gate() calls these first): each missing function and each kernel
// name the program does not hold is named with what to write instead; and what a case launched against what it
// names, once it has run. Pure functions of the case and the program's kernels, so that they are tested without a GPU.

#include <optional>
#include <string>
#include <vector>

#include <bankgate/gtest/kernel_case.hpp>

namespace bankgate::gtest {

// The kernels a case names, in launch order: `kernel_names`, or `kernel_name` alone.
std::vector<std::string> named_kernels(const KernelCase& kc);

// What is wrong with `kc`, one message per problem; empty where nothing is. `program` holds the kernels of this
// program (kernels_in_this_program()); a name it lacks is a problem only where all its device code was read.
std::vector<std::string> case_problems(const KernelCase& kc, const ProgramKernels& program);

// What is wrong with the kernels a case launched (their names in launch order, as results give them) against those
// it names: a count or a name that differs. Empty where they agree.
std::string launch_mismatch(const KernelCase& kc, const std::vector<std::string>& launched);

}  // namespace bankgate::gtest
