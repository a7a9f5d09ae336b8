#pragma once
// The bulk copy engine (TMA) moving tiles from global to shared memory, Hopper's replacement for per-thread
// loads and cp.async:
//  - tmaBulkCopy: one cp.async.bulk of 4 KiB per block (SASS UBLKCP), completing on an mbarrier, read back
//    with LDS.128 and written out doubled;
//  - tmaTileLdmatrix / tmaTileLdmatrixSwizzled: one cp.async.bulk.tensor.2d of a 64-row tile of 128-byte rows
//    per block (SASS UTMALDG), laid out by the tensor map as it is (no swizzle) or with the 128-byte swizzle,
//    read with ldmatrix.x4 at the matching addresses: the same fragments, 8-way conflicts or none.
// Output is a fixed function of the input and is checked exactly.

#include <cuda_runtime_api.h>

#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

#include <bankgate/kernels/expectation.hpp>

namespace bankgate::kernels {

inline constexpr int tma_threads = 128;              // per block: 4 warps
inline constexpr int tma_bulk_blocks = 64;
inline constexpr int tma_bulk_block_floats = 1024;   // 4 KiB per block
inline constexpr int tma_bulk_floats = tma_bulk_blocks * tma_bulk_block_floats;
inline constexpr int tma_tile_blocks = 128;
inline constexpr int tma_tile_rows = 64;             // per block
inline constexpr int tma_tile_row_words = 32;        // 128 bytes
inline constexpr int tma_tile_words = tma_tile_rows * tma_tile_row_words;  // 2048 (8 KiB)
inline constexpr int tma_tile_total_words = tma_tile_blocks * tma_tile_words;

enum class TmaTile {
  bulk_copy,             // tmaBulkCopy
  ldmatrix_plain,        // tmaTileLdmatrix: no swizzle
  ldmatrix_swizzled,     // tmaTileLdmatrixSwizzled: CU_TENSOR_MAP_SWIZZLE_128B
};

inline constexpr std::array<TmaTile, 3> all_tma_tile_kernels{TmaTile::bulk_copy, TmaTile::ldmatrix_plain,
                                                             TmaTile::ldmatrix_swizzled};

std::string_view kernel_name(TmaTile kernel);
AccessExpectation expected_access(TmaTile kernel);

// bulk_copy: `in` and `out` hold tma_bulk_floats floats. The ldmatrix kernels: tma_tile_total_words words each.
void launch_tma_tile(TmaTile kernel, const void* in, void* out, cudaStream_t stream = nullptr);

std::vector<float> tma_bulk_copy_reference(const std::vector<float>& in);
std::vector<std::uint32_t> tma_tile_ldmatrix_reference(const std::vector<std::uint32_t>& in);

}  // namespace bankgate::kernels
