#pragma once
// Seed 000's rectangle: a 32x16 int tile (block 32 wide, 16 tall), written row-wise and read row-wise,
// column-wise or transposed through index arithmetic, declared statically or dynamically, with zero, one or
// two padding columns. One block of 32x16 threads; each thread stores its linear index into the tile and
// reads one element back into out[] (512 ints).

#include <cuda_runtime_api.h>

#include <array>
#include <string_view>
#include <vector>

#include <bankgate/kernels/expectation.hpp>

namespace bankgate::kernels {

inline constexpr int rect_tile_width = 32;   // blockDim.x: one warp spans one row of the block
inline constexpr int rect_tile_height = 16;  // blockDim.y: 16 warps
inline constexpr int rect_tile_elements = rect_tile_width * rect_tile_height;

enum class RectTile {
  set_row_read_row,
  set_col_read_col,
  set_row_read_col,
  set_row_read_col_dyn,
  set_row_read_col_pad1,
  set_row_read_col_pad2,
  set_row_read_col_dyn_pad,
};

inline constexpr std::array<RectTile, 7> all_rect_tile_kernels{
    RectTile::set_row_read_row,      RectTile::set_col_read_col,      RectTile::set_row_read_col,
    RectTile::set_row_read_col_dyn,  RectTile::set_row_read_col_pad1, RectTile::set_row_read_col_pad2,
    RectTile::set_row_read_col_dyn_pad};

std::string_view kernel_name(RectTile kernel);  // the CUDA function name, e.g. "setRowReadColRect"
AccessExpectation expected_access(RectTile kernel);

// Launches one 32x16 block on `stream`; `out` holds rect_tile_elements ints.
void launch_rect_tile(RectTile kernel, int* out, cudaStream_t stream = nullptr);

// What out[] must hold afterwards, computed on the CPU from the access pattern.
std::vector<int> rect_tile_reference(RectTile kernel);

}  // namespace bankgate::kernels
