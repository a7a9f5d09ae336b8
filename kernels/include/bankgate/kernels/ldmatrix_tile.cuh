#pragma once
// ldmatrix (seed 002's bank rules applied to the tensor-core load path): each block stages a 32-row tile of
// 128-byte rows (64 16-bit elements a row) in shared memory and reads it back with
// ldmatrix.sync.aligned.m8n8.x4.shared.b16, once from the plain row-major tile (rows 128 bytes apart: the 8
// rows of every 8x16-byte matrix fall in the same 4 banks) and once from a tile whose 16-byte chunks are
// XOR-swizzled by the row (chunk c of row r stored at chunk c ^ (r % 8): conflict-free). Each warp writes the
// fragments it loaded to global memory in fragment order, so the output is a fixed permutation of the input
// and can be checked exactly.
//
// Elements are handled as 32-bit words (two 16-bit elements each): ldmatrix moves bits, so no half-precision
// arithmetic is involved and equality is exact.

#include <cuda_runtime_api.h>

#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

#include <bankgate/kernels/expectation.hpp>

namespace bankgate::kernels {

inline constexpr int ldmatrix_threads = 128;         // per block: 4 warps
inline constexpr int ldmatrix_tile_rows = 32;        // per block
inline constexpr int ldmatrix_row_words = 32;        // 128 bytes: 8 chunks of 16 bytes
inline constexpr int ldmatrix_blocks = 256;
inline constexpr int ldmatrix_tile_words = ldmatrix_tile_rows * ldmatrix_row_words;  // 1024 (4 KiB)
inline constexpr int ldmatrix_words = ldmatrix_blocks * ldmatrix_tile_words;         // input and output

enum class LdmatrixTile {
  plain,     // ldmatrixTile: row pitch 128 bytes, no swizzle
  swizzled,  // ldmatrixTileSwizzled: chunk c of row r at chunk c ^ (r % 8)
};

inline constexpr std::array<LdmatrixTile, 2> all_ldmatrix_tile_kernels{LdmatrixTile::plain, LdmatrixTile::swizzled};

std::string_view kernel_name(LdmatrixTile kernel);  // "ldmatrixTile", "ldmatrixTileSwizzled"
AccessExpectation expected_access(LdmatrixTile kernel);

// `in` and `out` hold ldmatrix_words words.
void launch_ldmatrix_tile(LdmatrixTile kernel, const std::uint32_t* in, std::uint32_t* out,
                          cudaStream_t stream = nullptr);

// What out[] must hold: the same for both kernels (the swizzle changes where a word sits in shared memory,
// not what ldmatrix returns).
std::vector<std::uint32_t> ldmatrix_tile_reference(const std::vector<std::uint32_t>& in);

}  // namespace bankgate::kernels
