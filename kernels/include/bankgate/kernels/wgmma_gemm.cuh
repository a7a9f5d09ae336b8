#pragma once
// A Hopper GEMM tile loop: C = A * B^T with A (M x K) and B (N x K) in bf16, both K-contiguous, C in fp32.
// Each block computes a 64 x 64 tile of C: tensor-map copies (TMA) bring 64 x 64 tiles of A and B into a
// three-stage ring of shared memory with the 128-byte swizzle, one warpgroup multiplies them with
// wgmma.mma_async (both operands read from shared memory through descriptors), and the tile leaves through
// shared memory and a TMA tensor store. Two ways to keep the ring full:
//  - wgmmaGemm: the warpgroup's first thread refills a stage after the whole block has finished with it;
//  - wgmmaGemmWarpSpecialized: a producer warpgroup's first thread loads, the consumer warpgroup computes,
//    and they hand stages over through "full" and "empty" mbarriers (the producer spins on "empty").
// Inputs are small integers, so the fp32 sums are exact and the output is checked for equality.

#include <cuda_runtime_api.h>

#include <array>
#include <string_view>
#include <vector>

#include <bankgate/kernels/expectation.hpp>

namespace bankgate::kernels {

inline constexpr int gemm_m = 1024;
inline constexpr int gemm_n = 1024;
inline constexpr int gemm_k = 512;
inline constexpr int gemm_tile = 64;  // M, N and K of a block's tile step

enum class WgmmaGemm {
  tile_loop,         // wgmmaGemm
  warp_specialized,  // wgmmaGemmWarpSpecialized
};

inline constexpr std::array<WgmmaGemm, 2> all_wgmma_gemm_kernels{WgmmaGemm::tile_loop, WgmmaGemm::warp_specialized};

std::string_view kernel_name(WgmmaGemm kernel);
AccessExpectation expected_access(WgmmaGemm kernel);

// a: gemm_m x gemm_k, b: gemm_n x gemm_k (bf16 bit patterns), c: gemm_m x gemm_n floats.
void launch_wgmma_gemm(WgmmaGemm kernel, const unsigned short* a, const unsigned short* b, float* c,
                       cudaStream_t stream = nullptr);

// Inputs as bf16 bit patterns of small integers, and the exact product.
std::vector<unsigned short> gemm_input(int rows, int columns, int seed);
std::vector<float> wgmma_gemm_reference(const std::vector<unsigned short>& a, const std::vector<unsigned short>& b);

}  // namespace bankgate::kernels
