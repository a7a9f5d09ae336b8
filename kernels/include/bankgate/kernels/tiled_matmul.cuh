#pragma once
// Seed 004: tiled matrix multiplication C = A * B in float through two Tile x Tile shared tiles per block
// (Tile = 16 or 32), once without bounds checks on sizes that are multiples of the tile and once with the
// seed's boundary checks on sizes that are not. Row-major: A is m x k, B is k x n, C is m x n.

#include <cuda_runtime_api.h>

#include <array>
#include <string_view>
#include <vector>

#include <bankgate/kernels/expectation.hpp>

namespace bankgate::kernels {

struct MatmulShape {
  int m;  // rows of A and C
  int n;  // columns of B and C
  int k;  // columns of A, rows of B
};

inline constexpr MatmulShape matmul_square_shape{512, 512, 512};  // a multiple of both tiles
inline constexpr MatmulShape matmul_ragged_shape{500, 300, 700};  // a multiple of neither, in any dimension

enum class TiledMatmul {
  tile16,          // tiledMatmul<16>: sizes must be multiples of 16
  tile32,          // tiledMatmul<32>: sizes must be multiples of 32
  tile16_bounded,  // tiledMatmulBounded<16>: any size
  tile32_bounded,  // tiledMatmulBounded<32>: any size
};

inline constexpr std::array<TiledMatmul, 4> all_tiled_matmul_kernels{
    TiledMatmul::tile16, TiledMatmul::tile32, TiledMatmul::tile16_bounded, TiledMatmul::tile32_bounded};

std::string_view kernel_name(TiledMatmul kernel);  // e.g. "tiledMatmul<16>", "tiledMatmulBounded<32>"
// The global figures depend on the shape (rows of an odd width straddle sectors, partial tiles leave warps
// narrower): derived in tiled_matmul.cu for the catalogue's pairs (an unbounded kernel on matmul_square_shape, a
// bounded one on matmul_ragged_shape); for any other pair only the shape-independent ratios are stated.
AccessExpectation expected_access(TiledMatmul kernel, MatmulShape shape);

// C = A * B. Throws std::invalid_argument for an unbounded kernel on a shape that is not a multiple of its tile.
void launch_tiled_matmul(TiledMatmul kernel, const float* a, const float* b, float* c, MatmulShape shape,
                         cudaStream_t stream = nullptr);

// The product computed in double on the CPU.
std::vector<double> tiled_matmul_reference(const std::vector<float>& a, const std::vector<float>& b, MatmulShape shape);

}  // namespace bankgate::kernels
