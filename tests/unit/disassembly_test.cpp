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
  EXPECT_EQ(swizzled.at(0x180), "STS");
  EXPECT_EQ(swizzled.at(0x290), "LDS.U.128");
  EXPECT_EQ(swizzled.at(0x2a0), "LDS");
  EXPECT_EQ(opcodes.at("_Z4copyPi").at(0x10), "LDGSTS.E.BYPASS.LTC128B.128");
  EXPECT_TRUE(bankgate::detail::parse_nvdisasm_listing("").empty());
}

}  // namespace
