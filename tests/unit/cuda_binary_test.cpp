// Device code read from its bytes, on real code the toolkit's compilers make for this test (no GPU needed): cubins for
// sm_80, sm_90 and sm_90a, PTX, the cubin the driver's JIT makes from sm_80 PTX for an sm_90 GPU (ptxas does the
// same), fatbinaries and a program that embeds one. A suite built without CMAKE_CUDA_ARCHITECTURES runs such JIT
// code on an H100; foreign_code_reason() is what tells.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "cuda_binary.hpp"

namespace {

namespace fs = std::filesystem;
using bankgate::detail::DeviceCode;

const std::vector<std::string> mangled_kernels{"_Z11alphaKernelPi", "_Z10betaKernelILi4EEvPf",
                                               "_ZN2ns11gammaKernelEPii"};

// The code tests/unit/fixtures/cuda_binary/kernels.cu compiles to, made by the build (tests/unit/CMakeLists.txt).
class CudaBinary : public ::testing::Test {
 protected:
  static inline const fs::path work_ = BANKGATE_CUDA_BINARY_DIR;

  static std::string bytes(const std::string& name) {
    std::ifstream in(work_ / name, std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
  }
  static DeviceCode cubin(const std::string& name) {
    const auto code = bankgate::detail::read_cubin(bytes(name));
    if (!code) throw std::runtime_error(name + " does not read as a cubin");
    return *code;
  }
  static std::vector<DeviceCode> fatbin(const std::string& name) {
    const auto fatbins = bankgate::detail::read_fatbins(bytes(name));
    if (fatbins.size() != 1) throw std::runtime_error(name + " does not read as one fatbinary");
    return fatbins.front();
  }
};

::testing::AssertionResult holds_kernels(const DeviceCode& code) {
  std::vector<std::string> found = code.kernels;
  std::sort(found.begin(), found.end());
  std::vector<std::string> wanted = mangled_kernels;
  std::sort(wanted.begin(), wanted.end());
  if (found == wanted) return ::testing::AssertionSuccess();
  std::string listed;
  for (const std::string& k : found) listed += " " + k;
  return ::testing::AssertionFailure() << "kernels:" << listed;
}

TEST_F(CudaBinary, ACubinSaysItsArchitectureAndKernels) {
  const DeviceCode sm80 = cubin("sm80.cubin");
  EXPECT_EQ(sm80.sm, 80);
  EXPECT_EQ(sm80.virtual_sm, 80);
  EXPECT_TRUE(holds_kernels(sm80));
  const DeviceCode sm90 = cubin("sm90.cubin");
  EXPECT_EQ(sm90.sm, 90);
  EXPECT_EQ(sm90.virtual_sm, 90);
  EXPECT_TRUE(holds_kernels(sm90));
  const DeviceCode sm90a = cubin("sm90a.cubin");  // the architecture-specific variant runs only on 9.0: the same sm
  EXPECT_EQ(sm90a.sm, 90);
  EXPECT_EQ(sm90a.virtual_sm, 90);
}

TEST_F(CudaBinary, CodeBuiltForTheGpuIsItsOwn) {
  EXPECT_EQ(bankgate::detail::foreign_code_reason({cubin("sm90.cubin")}, 9, 0), "");
  EXPECT_EQ(bankgate::detail::foreign_code_reason({cubin("sm90a.cubin")}, 9, 0), "");
  EXPECT_EQ(bankgate::detail::foreign_code_reason({cubin("sm80.cubin")}, 8, 6), "");  // 8.6 runs sm_80 code unchanged
  EXPECT_EQ(bankgate::detail::foreign_code_reason(fatbin("sm90.fatbin"), 9, 0), "");
}

TEST_F(CudaBinary, TheCubinTheDriverCompilesFromOtherPtxIsToldByItsVirtualArchitecture) {
  const DeviceCode jit = cubin("jit90.cubin");
  EXPECT_EQ(jit.sm, 90);
  EXPECT_EQ(jit.virtual_sm, 80);
  EXPECT_TRUE(holds_kernels(jit));
  EXPECT_EQ(bankgate::detail::foreign_code_reason({jit}, 9, 0),
            "built for sm_80, this GPU is sm_90: the driver JIT-compiled PTX; set CMAKE_CUDA_ARCHITECTURES=90 (90a for "
            "wgmma)");
}

TEST_F(CudaBinary, AFatbinaryWithoutCodeForTheGpuLeavesItToTheJit) {
  const std::vector<DeviceCode> entries = fatbin("sm80.fatbin");
  ASSERT_FALSE(entries.empty());
  EXPECT_TRUE(
      std::any_of(entries.begin(), entries.end(), [](const DeviceCode& c) { return c.sm == 80 && c.readable; }));
  EXPECT_TRUE(
      std::any_of(entries.begin(), entries.end(), [](const DeviceCode& c) { return c.sm == 0 && c.virtual_sm == 80; }));
  EXPECT_EQ(bankgate::detail::foreign_code_reason(entries, 9, 0),
            "built for sm_80, this GPU is sm_90: the driver JIT-compiled PTX; set CMAKE_CUDA_ARCHITECTURES=90 (90a for "
            "wgmma)");
  EXPECT_EQ(bankgate::detail::foreign_code_reason(entries, 8, 0), "");
}

TEST_F(CudaBinary, PtxSaysItsTargetAndEntries) {
  const auto ptx = bankgate::detail::read_ptx(bytes("compute80.ptx"));
  ASSERT_TRUE(ptx.has_value());
  EXPECT_EQ(ptx->sm, 0);
  EXPECT_EQ(ptx->virtual_sm, 80);
  EXPECT_TRUE(holds_kernels(*ptx));
  EXPECT_NE(bankgate::detail::foreign_code_reason({*ptx}, 9, 0).find("built for sm_80, this GPU is sm_90"),
            std::string::npos);
  EXPECT_EQ(bankgate::detail::read_module_image(bytes("compute80.ptx")).size(), 1u);
}

TEST_F(CudaBinary, AProgramsEmbeddedDeviceCodeIsFoundInItsSection) {
  bool too_large = false;
  const auto section = bankgate::detail::read_elf_section(work_ / "program80", ".nv_fatbin", 64 << 20, too_large);
  ASSERT_TRUE(section.has_value());
  bool found = false;
  for (const auto& entries : bankgate::detail::read_fatbins(*section))
    for (const DeviceCode& code : entries) found = found || (code.sm == 80 && holds_kernels(code));
  EXPECT_TRUE(found);
  EXPECT_FALSE(bankgate::detail::read_elf_section(work_ / "program80", ".nv_fatbin", 16, too_large).has_value());
  EXPECT_TRUE(too_large);
  EXPECT_FALSE(
      bankgate::detail::read_elf_section(work_ / "compute80.ptx", ".nv_fatbin", 64 << 20, too_large).has_value());
}

TEST_F(CudaBinary, WhatIsNoDeviceCodeReadsAsNone) {
  EXPECT_FALSE(bankgate::detail::read_cubin("").has_value());
  EXPECT_FALSE(bankgate::detail::read_cubin(bytes("compute80.ptx")).has_value());
  std::string cut = bytes("sm90.cubin");
  cut.resize(100);
  const auto cut_short = bankgate::detail::read_cubin(cut);  // the header alone: its architecture, no kernels
  ASSERT_TRUE(cut_short.has_value());
  EXPECT_TRUE(cut_short->kernels.empty());
  EXPECT_TRUE(bankgate::detail::read_fatbins(bytes("compute80.ptx")).empty());
  EXPECT_TRUE(bankgate::detail::read_module_image("").empty());
}

}  // namespace
