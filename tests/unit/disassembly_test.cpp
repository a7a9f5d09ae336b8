// Opcodes from nvdisasm's listing, by function and offset (the tool itself is not needed).

#include <gtest/gtest.h>

#include "disassembly.hpp"

namespace {

TEST(Disassembly, OpcodesAreFoundByFunctionAndOffsetWithPredicatesSkipped) {
  const std::string listing = R"(	.section	.text._Z17transposeSwizzledPKfPfii,"ax",@progbits
        .text._Z17transposeSwizzledPKfPfii:
        /*0000*/                   LDC R1, c[0x0][0x28] ;
        /*0180*/                   STS [R7], R0 ;
        /*0290*/              @!P0 LDS.U.128 R4, [R2+0x10] ;
        /*02a0*/                   @!PT LDS RZ, [RZ] ;
	.section	.text._Z4copyPi,"ax",@progbits
        .text._Z4copyPi:
        /*0010*/                   LDGSTS.E.BYPASS.LTC128B.128 [R3], desc[UR4][R4.64] ;
)";
  const auto opcodes = bankgate::detail::parse_nvdisasm_listing(listing);
  ASSERT_EQ(opcodes.size(), 2u);
  const auto& swizzled = opcodes.at("_Z17transposeSwizzledPKfPfii");
  EXPECT_EQ(swizzled.at(0x180).opcode, "STS");
  EXPECT_EQ(swizzled.at(0x290).opcode, "LDS.U.128");
  EXPECT_EQ(swizzled.at(0x2a0).opcode, "LDS");
  EXPECT_EQ(opcodes.at("_Z4copyPi").at(0x10).opcode, "LDGSTS.E.BYPASS.LTC128B.128");
  EXPECT_TRUE(bankgate::detail::parse_nvdisasm_listing("").empty());
}

// nvdisasm -gi, as it printed asyncCopy<int4> (sm_90, CUDA 13.0): the LDGSTS comes from
// __pipeline_memcpy_async, inlined twice into the kernel's line 62; the instruction after a one-line block
// is the kernel's own.
TEST(Disassembly, InlinedInstructionsCarryTheKernelsCallingLine) {
  const std::string listing = R"(        .text._Z9asyncCopyI4int4EvPKT_PS1_:
	//## File "/cuda/include/cuda_pipeline_helpers.h", line 292 inlined at "/cuda/include/cuda_pipeline_primitives.h", line 69
	//## File "/cuda/include/cuda_pipeline_primitives.h", line 69 inlined at "/src/kernels/async_copy.cu", line 62
	//## File "/src/kernels/async_copy.cu", line 62
        /*02f0*/              @!PT LDS RZ, [RZ] ;
        /*0320*/                   LDGSTS.E.BYPASS.128 [R24], desc[UR4][R16.64] ;
	//## File "/src/kernels/async_copy.cu", line 62
        /*0330*/                   LEA R22, P2, R10, UR6, 0x4 ;
)";
  const auto opcodes = bankgate::detail::parse_nvdisasm_listing(listing);
  const auto& kernel = opcodes.at("_Z9asyncCopyI4int4EvPKT_PS1_");
  EXPECT_EQ(kernel.at(0x320).opcode, "LDGSTS.E.BYPASS.128");
  using Frames = std::vector<std::pair<std::string, std::uint32_t>>;
  EXPECT_EQ(kernel.at(0x320).inlined_at,
            (Frames{{"/cuda/include/cuda_pipeline_primitives.h", 69}, {"/src/kernels/async_copy.cu", 62}}));
  EXPECT_EQ(kernel.at(0x2f0).inlined_at, kernel.at(0x320).inlined_at) << "the block applies until the next one";
  EXPECT_TRUE(kernel.at(0x330).inlined_at.empty()) << "a one-line block is the kernel's own code";
}

}  // namespace
