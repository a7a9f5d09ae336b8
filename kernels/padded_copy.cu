#include <bankgate/kernels/padded_copy.cuh>

#include <bankgate/kernels/device_buffer.hpp>

// File-local kernels at global scope so that their demangled names are bare (see rect_tile.cu).
//
// Every thread of every block takes part in both shared accesses, in range or not: a thread outside the
// matrix stores 0 and reads its word back, and only the global accesses are guarded. The seed put the shared
// accesses (and __syncthreads) inside the bounds check; then the edge warps would issue requests with fewer
// active lanes, the per-request figure would depend on the matrix size, and a barrier in divergent code is
// undefined. The read goes through a volatile reference so that the compiler cannot move it under the guard
// of the global store that consumes it.
//
// A warp is one row of the block (threadIdx.x = 0..31 at fixed threadIdx.y) and accesses tile[x][y]: the
// column y of the tile.

namespace {

constexpr int block_dim = bankgate::kernels::padded_copy_block;

template <int Pitch>
__device__ void copy_through_col_tile(const int* in, int* out, int rows, int cols) {
  __shared__ int tile[block_dim][Pitch];
  const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  const int y = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
  const bool inside = x < cols && y < rows;
  const int index = y * cols + x;
  tile[threadIdx.x][threadIdx.y] = inside ? in[index] : 0;
  __syncthreads();
  const int value = static_cast<volatile int&>(tile[threadIdx.x][threadIdx.y]);
  if (inside) out[index] = value;
}

}  // namespace

// Column-wise store and load on tile[32][32]: lane x touches word 32x+y, all 32 lanes in bank y with 32
// distinct words. Expect 32 transactions per request for stores and loads.
static __global__ void copyColTile(const int* in, int* out, int rows, int cols) {
  copy_through_col_tile<block_dim>(in, out, rows, cols);
}

// The same on tile[32][33]: lane x touches word 33x+y, bank (x+y)%32, a different bank per lane. Expect 1
// transaction per request for stores and loads.
static __global__ void copyColTilePad(const int* in, int* out, int rows, int cols) {
  copy_through_col_tile<block_dim + 1>(in, out, rows, cols);
}

namespace bankgate::kernels {

std::string_view kernel_name(PaddedCopy kernel) {
  switch (kernel) {
    case PaddedCopy::col_tile: return "copyColTile";
    case PaddedCopy::col_tile_pad: return "copyColTilePad";
  }
  return "unknown";
}

// Global side, both kernels alike (the guarded load `inside ? in[index] : 0` is a predicated LDG, the guarded
// store a predicated STG; a warp with no lane inside issues neither). A warp is 32 consecutive columns of one
// row y, at byte 4*(1000y + 32bx): 4000 = 125*32, so every row starts on a sector and so does every warp.
// Grid 32 x 22 blocks; the warps of rows 700..703 (block row 21 holds rows 672..699 and 4 empty ones) issue
// nothing, leaving 700 rows x 32 block columns = 22400 requests of each kind. Block columns 0..30: 32 ints,
// 4 sectors; block column 31: columns 992..999, 8 ints = 32 aligned bytes, 1 sector. Sectors: 700 x (31*4 + 1)
// = 87500; 87500 / 22400 = 125/32 = 3.90625 sectors per request for loads and stores.
AccessExpectation expected_access(PaddedCopy kernel) {
  static_assert(padded_copy_cols == 1000 && padded_copy_rows == 700, "the global figures are derived for 1000x700");
  const std::vector<ExpectedRatio> global{{key::global_load_sectors, 87500.0 / 22400.0},
                                          {key::global_store_sectors, 87500.0 / 22400.0}};
  switch (kernel) {
    case PaddedCopy::col_tile:
      return shared_access_expectation(32, 32, "every warp writes and reads a tile column: 32 words 128 bytes apart, "
                                               "one bank (32-way); global rows are sector-aligned, the 8-column edge "
                                               "warps cost 1 sector: 700*(31*4+1) / (700*32)", global);
    case PaddedCopy::col_tile_pad:
      return shared_access_expectation(1, 1, "pitch 33: the column's word 33x+y sits in bank (x+y)%32, one per lane; "
                                             "global as copyColTile: 700*(31*4+1) / (700*32)", global);
  }
  return {};
}

void launch_padded_copy(PaddedCopy kernel, const int* in, int* out, cudaStream_t stream) {
  const dim3 block(block_dim, block_dim);
  const dim3 grid((padded_copy_cols + block_dim - 1) / block_dim, (padded_copy_rows + block_dim - 1) / block_dim);
  switch (kernel) {
    case PaddedCopy::col_tile:
      copyColTile<<<grid, block, 0, stream>>>(in, out, padded_copy_rows, padded_copy_cols);
      break;
    case PaddedCopy::col_tile_pad:
      copyColTilePad<<<grid, block, 0, stream>>>(in, out, padded_copy_rows, padded_copy_cols);
      break;
  }
  check_cuda(cudaGetLastError(), "kernel launch");
}

std::vector<int> padded_copy_reference(const std::vector<int>& in) { return in; }

}  // namespace bankgate::kernels
