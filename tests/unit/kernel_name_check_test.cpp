// The kernel names a suite's sources give, checked at build time against the program's own device code
// (gtest/src/kernel_name_check.hpp), in a program holding kernels of its own (case_check_kernels.cu).

#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "kernel_name_check.hpp"

namespace {

using namespace bankgate::gtest;
namespace fs = std::filesystem;

TEST(KernelNameCheck, ReadsEveryLiteralNameWithItsLine) {
  const std::string text =
      "gate(KernelCase{\n  .kernel_name = \"caseCheckScale\",\n});\n"
      "gate(KernelCase{.kernel_names = {\"reduceBlocks\",\n \"caseCheckTile\"}});\nkernel_name = name;  // not a "
      "literal\n";
  const std::vector<NamedKernel> names = kernel_names_in("suite.cpp", text);
  ASSERT_EQ(names.size(), 3u);
  EXPECT_EQ(names[0].name, "caseCheckScale");
  EXPECT_EQ(names[0].line, 2u);
  EXPECT_EQ(names[1].name, "reduceBlocks");
  EXPECT_EQ(names[1].line, 4u);
  EXPECT_EQ(names[2].name, "caseCheckTile");
  EXPECT_EQ(names[2].line, 5u);
}

class SourceFile : public ::testing::Test {
 protected:
  fs::path write(const std::string& text) {
    std::ofstream(path_) << text;
    return path_;
  }
  void TearDown() override { fs::remove(path_); }
  fs::path path_ = fs::temp_directory_path() / ("bankgate-kernel-names-" + std::to_string(::getpid()) + ".cpp");
};

TEST_F(SourceFile, AMisspeltNameFailsTheCheckNamingItsLineAndTheProgramsKernels) {
  const fs::path source = write("KernelCase{\n  .kernel_name = \"caseCheckScal\",\n}\n");
  std::ostringstream out;
  EXPECT_EQ(report_unknown_kernel_names({source}, {"caseCheckScale", "reduceBlocks"}, "suite", out), 1u);
  EXPECT_EQ(out.str(),
            source.string() +
                ":2: error: kernel name \"caseCheckScal\" matches no kernel of suite (its kernels: "
                "caseCheckScale, reduceBlocks); the test would fail on every GPU, and be skipped without one\n");
}

TEST_F(SourceFile, ThisProgramsOwnKernelsPassTheCheckAndAMisspeltOneFailsIt) {
  const fs::path good = write("KernelCase{.kernel_names = {\"caseCheckScale\", \"reduceBlocks\"}}\n");
  EXPECT_EQ(check_kernel_names_of_this_program(good.string(), "case_check_unit_tests"), 0);
  write("KernelCase{.kernel_name = \"reduceBlock\"}\n");
  EXPECT_EQ(check_kernel_names_of_this_program(good.string(), "case_check_unit_tests"), 1);
}

}  // namespace
