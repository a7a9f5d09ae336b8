#pragma once
// Seed 000: a 32x32 int tile in shared memory, written and read row-wise or column-wise, declared statically
// or dynamically, with and without one padding column. One block of 32x32 threads; each thread stores its
// linear index into the tile and reads one element back into out[] (1024 ints).

#include <cuda_runtime_api.h>

#include <array>
#include <string_view>
#include <vector>

#include <bankgate/kernels/expectation.hpp>

namespace bankgate::kernels {

inline constexpr int square_tile_dim = 32;
inline constexpr int square_tile_elements = square_tile_dim * square_tile_dim;

enum class SquareTile {
  set_row_read_row,
  set_col_read_col,
  set_row_read_col,
  set_col_read_row,
  set_row_read_col_dyn,
  set_row_read_col_ipad,
  set_row_read_col_dyn_ipad,
};

inline constexpr std::array<SquareTile, 7> all_square_tile_kernels{
    SquareTile::set_row_read_row,      SquareTile::set_col_read_col,     SquareTile::set_row_read_col,
    SquareTile::set_col_read_row,      SquareTile::set_row_read_col_dyn, SquareTile::set_row_read_col_ipad,
    SquareTile::set_row_read_col_dyn_ipad};

std::string_view kernel_name(SquareTile kernel);  // the CUDA function name, e.g. "setRowReadRow"
AccessExpectation expected_access(SquareTile kernel);

// Launches one 32x32 block on `stream`; `out` holds square_tile_elements ints.
void launch_square_tile(SquareTile kernel, int* out, cudaStream_t stream = nullptr);

// What out[] must hold afterwards, computed on the CPU from the access pattern.
std::vector<int> square_tile_reference(SquareTile kernel);

}  // namespace bankgate::kernels
