// A KernelCase checked before anything runs (gtest/src/case_check.cpp), in a program that holds kernels of its own
// (case_check_kernels.cu): each missing field named with what to write, a kernel name checked against the program's
// own device code, and what a case launched against what it names. No GPU: nothing here runs a kernel.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <bankgate/gtest/kernel_case.hpp>

#include "case_check.hpp"

namespace {

using bankgate::ProgramKernels;
using bankgate::gtest::KernelCase;

KernelCase complete_case(std::string kernel) {
  return KernelCase{.kernel_name = std::move(kernel),
                    .launch = [] {},
                    .poison_output = [] {},
                    .check_output = [] { return ::testing::AssertionSuccess(); }};
}

std::string all(const std::vector<std::string>& problems) {
  std::string text;
  for (const std::string& p : problems) text += p + "\n";
  return text;
}

const ProgramKernels& this_program() {
  static const ProgramKernels kernels = bankgate::kernels_in_this_program();
  return kernels;
}

TEST(CaseCheck, TheProgramsOwnKernelsAreReadWithoutAGpu) {
  const ProgramKernels& program = this_program();
  EXPECT_TRUE(program.unread.empty()) << all(program.unread);
  for (const char* kernel : {"caseCheckScale", "caseCheckTile<16>", "reduceBlocks"})
    EXPECT_TRUE(program.names.count(kernel)) << kernel;
}

TEST(CaseCheck, ACompleteCaseNamingAKernelOfTheProgramPasses) {
  EXPECT_EQ(all(bankgate::gtest::case_problems(complete_case("caseCheckScale"), this_program())), "");
  EXPECT_EQ(all(bankgate::gtest::case_problems(complete_case("caseCheckTile<16>"), this_program())), "");
  EXPECT_EQ(all(bankgate::gtest::case_problems(complete_case("caseCheckTile"), this_program())),
            "");  // without its arguments
}

TEST(CaseCheck, AnEmptyPlacementIsNamedByItsIndex) {
  KernelCase kc = complete_case("caseCheckScale");
  kc.more_placements = {[] {}, nullptr};
  const std::vector<std::string> problems = bankgate::gtest::case_problems(kc, this_program());
  ASSERT_EQ(problems.size(), 1u) << all(problems);
  EXPECT_NE(problems[0].find("KernelCase::more_placements[1] is empty"), std::string::npos) << problems[0];
  kc.more_placements.pop_back();
  EXPECT_EQ(all(bankgate::gtest::case_problems(kc, this_program())), "");
}

TEST(CaseCheck, AComparisonFloorNeedsItsReasonAndStaysWithinItsBound) {
  KernelCase kc = complete_case("caseCheckScale");
  kc.timing_tolerance.compare_floor = 0.015;
  std::vector<std::string> problems = bankgate::gtest::case_problems(kc, this_program());
  ASSERT_EQ(problems.size(), 1u) << all(problems);
  EXPECT_NE(problems[0].find("give .timing_tolerance.reason"), std::string::npos) << problems[0];
  kc.timing_tolerance.reason = "rounds differ by 1%";
  EXPECT_EQ(all(bankgate::gtest::case_problems(kc, this_program())), "");
  for (const double wrong : {0.2, -0.01, std::nan("")}) {
    kc.timing_tolerance.compare_floor = wrong;
    problems = bankgate::gtest::case_problems(kc, this_program());
    ASSERT_EQ(problems.size(), 1u) << wrong << ": " << all(problems);
    EXPECT_NE(problems[0].find("compare_floor must lie between 0"), std::string::npos) << problems[0];
  }
}

TEST(CaseCheck, EachMissingFunctionIsNamedWithWhatToWrite) {
  KernelCase kc = complete_case("caseCheckScale");
  kc.poison_output = nullptr;
  kc.check_output = nullptr;
  const std::vector<std::string> problems = bankgate::gtest::case_problems(kc, this_program());
  ASSERT_EQ(problems.size(), 2u) << all(problems);
  EXPECT_NE(
      problems[0].find("KernelCase::poison_output is missing: give a function that fills the case's outputs with a "
                       "pattern no kernel writes"),
      std::string::npos)
      << problems[0];
  EXPECT_NE(problems[0].find(".poison_output = [&] { cudaMemset(out, 0xff, bytes); }"), std::string::npos)
      << problems[0];
  EXPECT_NE(problems[1].find("KernelCase::check_output is missing"), std::string::npos) << problems[1];
  EXPECT_NE(problems[1].find("returns ::testing::AssertionResult"), std::string::npos) << problems[1];
  kc = complete_case("caseCheckScale");
  kc.launch = nullptr;
  EXPECT_NE(all(bankgate::gtest::case_problems(kc, this_program())).find("KernelCase::launch is missing"),
            std::string::npos);
}

TEST(CaseCheck, AKernelNameIsRequiredOnceOnly) {
  KernelCase kc = complete_case("");
  EXPECT_NE(all(bankgate::gtest::case_problems(kc, this_program()))
                .find("KernelCase::kernel_name is missing: name the CUDA "
                      "function the case launches"),
            std::string::npos);
  kc = complete_case("caseCheckScale");
  kc.kernel_names = {"caseCheckScale", "reduceBlocks"};
  EXPECT_NE(all(bankgate::gtest::case_problems(kc, this_program())).find("gives both kernel_name and kernel_names"),
            std::string::npos);
}

TEST(CaseCheck, ANameTheProgramDoesNotHoldIsToldBeforeAnyGpuWorkWithTheNearestNames) {
  const std::vector<std::string> problems =
      bankgate::gtest::case_problems(complete_case("caseCheckScal"), this_program());
  ASSERT_EQ(problems.size(), 1u) << all(problems);
  EXPECT_NE(problems[0].find("this program holds no kernel named 'caseCheckScal'"), std::string::npos) << problems[0];
  EXPECT_NE(problems[0].find("nearest to that name: caseCheckScale"), std::string::npos) << problems[0];
  KernelCase several = complete_case("");
  several.kernel_names = {"reduceBlocks", "caseCheckTyle<16>"};
  EXPECT_NE(all(bankgate::gtest::case_problems(several, this_program())).find("no kernel named 'caseCheckTyle<16>'"),
            std::string::npos);
}

TEST(CaseCheck, WhereSomeDeviceCodeCannotBeReadAMissingNameIsNoProblem) {
  ProgramKernels partly = this_program();
  partly.unread.push_back("libcublasLt.so.13 holds more device code than is read here");
  EXPECT_EQ(all(bankgate::gtest::case_problems(complete_case("cublasLtKernel"), partly)), "");
}

TEST(CaseCheck, WhatACaseLaunchedIsCheckedAgainstWhatItNames) {
  EXPECT_EQ(bankgate::gtest::launch_mismatch(complete_case("caseCheckTile"), {"caseCheckTile<16>"}), "");
  EXPECT_EQ(
      bankgate::gtest::launch_mismatch(complete_case("caseCheckScale"), {"caseCheckScale", "reduceBlocks"}),
      "the case launched 2 kernel(s) (caseCheckScale, reduceBlocks) but names 1 (caseCheckScale); a case that launches "
      "several kernels names each, in launch order: .kernel_names = {...}");
  KernelCase several = complete_case("");
  several.kernel_names = {"reduceBlocks", "reduceBlocks"};
  EXPECT_EQ(bankgate::gtest::launch_mismatch(several, {"reduceBlocks", "reduceBlocks"}), "");
  EXPECT_EQ(bankgate::gtest::launch_mismatch(several, {"reduceBlocks", "caseCheckScale"}),
            "the case launched 2 kernel(s) (reduceBlocks, caseCheckScale), its kernel 2 is caseCheckScale, not "
            "reduceBlocks as "
            "the case names it");
}

TEST(CaseCheck, AnExpectationBelongsToACaseOfOneKernel) {
  KernelCase several = complete_case("");
  several.kernel_names = {"reduceBlocks", "caseCheckScale"};
  several.expected = bankgate::AccessExpectation{{{bankgate::ratio::shared_load, 1.0}}, "one wavefront per request"};
  EXPECT_NE(all(bankgate::gtest::case_problems(several, this_program()))
                .find("KernelCase::expected states one kernel's ratios"),
            std::string::npos);
  several.expected.reset();
  several.expected_of = {
      {"reduceBlocks", bankgate::AccessExpectation{{{bankgate::ratio::shared_load, 1.0}}, "one per request"}},
      {"caseCheckScal", bankgate::AccessExpectation{{{bankgate::ratio::shared_load, 1.0}}, "one per request"}}};
  const std::vector<std::string> problems = bankgate::gtest::case_problems(several, this_program());
  ASSERT_EQ(problems.size(), 1u) << all(problems);
  EXPECT_EQ(problems[0], "KernelCase::expected_of names 'caseCheckScal', which is not in .kernel_names");
}

}  // namespace
