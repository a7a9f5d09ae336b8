#pragma once
// Seed 001: a bounds-checked copy of a matrix whose sides are not multiples of the block, staged through a
// 32x32 shared tile that each warp writes and reads column-wise, without and with one padding column.

#include <cuda_runtime_api.h>

#include <array>
#include <string_view>
#include <vector>

#include <bankgate/kernels/expectation.hpp>

namespace bankgate::kernels {

inline constexpr int padded_copy_block = 32;   // 32x32 threads per block, one tile
inline constexpr int padded_copy_cols = 1000;  // 31 full tiles and one of 8 columns
inline constexpr int padded_copy_rows = 700;   // 21 full tiles and one of 28 rows
inline constexpr int padded_copy_elements = padded_copy_cols * padded_copy_rows;

enum class PaddedCopy {
  col_tile,      // tile[32][32]
  col_tile_pad,  // tile[32][33]
};

inline constexpr std::array<PaddedCopy, 2> all_padded_copy_kernels{PaddedCopy::col_tile, PaddedCopy::col_tile_pad};

std::string_view kernel_name(PaddedCopy kernel);  // "copyColTile", "copyColTilePad"
AccessExpectation expected_access(PaddedCopy kernel);

// Copies the padded_copy_rows x padded_copy_cols int matrix `in` to `out` (row-major, no row padding).
void launch_padded_copy(PaddedCopy kernel, const int* in, int* out, cudaStream_t stream = nullptr);

// The copy's expected output: the input.
std::vector<int> padded_copy_reference(const std::vector<int>& in);

}  // namespace bankgate::kernels
