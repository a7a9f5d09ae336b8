#include <bankgate/kernels/transpose.cuh>

#include <bankgate/kernels/device_buffer.hpp>

// File-local kernels at global scope so that their demangled names are bare (see rect_tile.cu).
//
// Block (bx, by) of 32x8 threads handles the 32x32 tile whose top-left input element is (32*by, 32*bx). In
// four steps j = 0, 8, 16, 24 each warp (fixed threadIdx.y = y, lanes x = 0..31) first copies input row
// 32*by+y+j, columns 32*bx+x, into tile row y+j; after a barrier it writes output row 32*bx+y+j, columns
// 32*by+x, from tile column y+j. Per tile: 32 warp-level store requests and 32 load requests (8 warps x 4
// steps), each touching 32 words.
//
// As in padded_copy.cu, every thread stores and loads its tile words whether or not it lies inside the
// matrix (outside it stores 0), and the loads are volatile so that they cannot move under the guard of the
// global store: every request comes from a full warp, so the per-request figures do not depend on the shape
// (1080 rows leave a partial tile row).

namespace {

constexpr int tile_dim = bankgate::kernels::transpose_tile;
constexpr int block_rows = bankgate::kernels::transpose_block_rows;

// Where the logical tile element (r, c) lives in the shared array.
struct Plain {
  static constexpr int pitch = tile_dim;
  __device__ static int column(int, int c) { return c; }
};
struct Padded {
  static constexpr int pitch = tile_dim + 1;
  __device__ static int column(int, int c) { return c; }
};
struct Swizzled {
  static constexpr int pitch = tile_dim;
  __device__ static int column(int r, int c) { return c ^ r; }  // a permutation of 0..31 within each row
};

template <typename Layout>
__device__ void transpose_through_tile(const float* in, float* out, int rows, int cols) {
  __shared__ float tile[tile_dim][Layout::pitch];
  const int tx = static_cast<int>(threadIdx.x);
  const int ty = static_cast<int>(threadIdx.y);
  const int in_col = static_cast<int>(blockIdx.x) * tile_dim + tx;
  const int in_row = static_cast<int>(blockIdx.y) * tile_dim + ty;
  for (int j = 0; j < tile_dim; j += block_rows) {
    const bool inside = in_col < cols && in_row + j < rows;
    tile[ty + j][Layout::column(ty + j, tx)] = inside ? in[(in_row + j) * cols + in_col] : 0.0f;
  }
  __syncthreads();
  const int out_col = static_cast<int>(blockIdx.y) * tile_dim + tx;  // an input row
  const int out_row = static_cast<int>(blockIdx.x) * tile_dim + ty;  // an input column
  for (int j = 0; j < tile_dim; j += block_rows) {
    float value = static_cast<volatile float&>(tile[tx][Layout::column(tx, ty + j)]);
#ifdef BANKGATE_PLANTED_REGRESSION
    // Planted for the gate's own demonstration (cmake -DBANKGATE_PLANTED_REGRESSION=ON, tools/gpu-round.sh
    // planted): the first warp of the first block also reads tile column 0, all 32 lanes in one bank, and adds
    // nothing to the result. 4 requests and up to 128 wavefronts in a kernel of over 130000.
    if (blockIdx.x == 0 && blockIdx.y == 0 && ty == 0) value += 0.0f * static_cast<volatile float&>(tile[tx][0]);
#endif
    if (out_col < rows && out_row + j < cols) out[(out_row + j) * rows + out_col] = value;
  }
}

}  // namespace

// Global memory only, the same 32x8 blocks and 32x32 tiles: reads are coalesced rows, writes are strided by
// `rows` floats. No shared memory: no shared request of either kind, so both figures are 0 (the collector
// reports 0 for a kernel without requests).
static __global__ void transposeNaive(const float* in, float* out, int rows, int cols) {
  const int col = static_cast<int>(blockIdx.x) * tile_dim + static_cast<int>(threadIdx.x);
  const int row = static_cast<int>(blockIdx.y) * tile_dim + static_cast<int>(threadIdx.y);
  for (int j = 0; j < tile_dim; j += block_rows)
    if (col < cols && row + j < rows) out[col * rows + row + j] = in[(row + j) * cols + col];
}

// tile[32][32]. Store tile[y+j][x]: 32 consecutive words of one row, one per bank: 1 per request. Load
// tile[x][y+j]: lane x reads word 32x+y+j, all in bank (y+j)%32: 32 words in one bank, 32 per request.
static __global__ void transposeTiled(const float* in, float* out, int rows, int cols) {
  transpose_through_tile<Plain>(in, out, rows, cols);
}

// tile[32][33]. Store: word 33(y+j)+x, bank (y+j+x)%32, one per lane: 1 per request. Load: word 33x+y+j, bank
// (x+y+j)%32, one per lane: 1 per request.
static __global__ void transposePadded(const float* in, float* out, int rows, int cols) {
  transpose_through_tile<Padded>(in, out, rows, cols);
}

// tile[32][32] with element (r, c) at column c^r. Store (r = y+j, c = x): bank x^(y+j), a permutation of the
// 32 banks over the lanes: 1 per request. Load (r = x, c = y+j): word 32x + ((y+j)^x), bank (y+j)^x, again one
// per lane: 1 per request, without the padding's extra 128 bytes.
static __global__ void transposeSwizzled(const float* in, float* out, int rows, int cols) {
  transpose_through_tile<Swizzled>(in, out, rows, cols);
}

namespace bankgate::kernels {

std::string_view kernel_name(Transpose kernel) {
  switch (kernel) {
    case Transpose::naive: return "transposeNaive";
    case Transpose::tiled: return "transposeTiled";
    case Transpose::padded: return "transposePadded";
    case Transpose::swizzled: return "transposeSwizzled";
  }
  return "unknown";
}

// Global side. Every warp access below is a predicated LDG/STG per step j (the loop is unrolled); a warp whose
// lanes are all outside the matrix issues nothing, and a request's sectors are those its active lanes touch.
// cudaMalloc aligns both buffers to 256 bytes.
//  - transposeNaive loads in[(row+j)*cols + col]: 32 consecutive floats of one input row. cols (2048 or 1920)
//    is a multiple of 32, so every executed warp has all 32 lanes inside, and the row pitch (8192 or 7680
//    bytes) is a multiple of 128: 4 sectors per request. It stores out[col*rows + row+j]: lane x at column
//    col = 32bx+x, 4*rows bytes (8192 or 4320) apart, so 32 lanes in 32 sectors: 32 per request. Both shapes.
//  - The tiled kernels load like the naive one: 4 per request, both shapes (1080 = 33*32 + 24: in block row 33
//    only the 24 warp steps with in_row+j < 1080 execute, each with all 32 lanes).
//    They store out[(out_row+j)*rows + out_col], out_col = 32by+x: one output row per warp step, and
//    out_row+j < cols always holds (cols is a multiple of 32), so every warp step stores.
//    2048x2048: 32 floats from a 128-byte boundary (8192-byte pitch): 4 per request.
//    1080x1920: the output pitch 4320 bytes = 135*32 keeps rows on sectors; block rows 0..32 store 32 floats,
//    4 sectors; block row 33 stores out_col 1056..1079, 24 floats = 96 bytes from byte 4224 = 132*32 of the
//    row: 3 sectors. Per block column 33*4 + 3 = 135 sectors in 34 requests for each (warp, step): 135/34 =
//    259200 / 65280 (60 x 34 blocks x 8 warps x 4 steps requests).
AccessExpectation expected_access(Transpose kernel, TransposeShape shape) {
  const bool square = shape.rows == transpose_square_shape.rows && shape.cols == transpose_square_shape.cols;
  const bool hd = shape.rows == transpose_hd_shape.rows && shape.cols == transpose_hd_shape.cols;
  std::vector<ExpectedRatio> tiled_global;  // another shape: only the shared figures, which hold for any shape
  if (square) tiled_global = {{key::global_load_sectors, 4}, {key::global_store_sectors, 4}};
  if (hd) tiled_global = {{key::global_load_sectors, 4}, {key::global_store_sectors, 259200.0 / 65280.0}};
  switch (kernel) {
    case Transpose::naive: {
      std::vector<ExpectedRatio> naive_global;
      if (square || hd) naive_global = {{key::global_load_sectors, 4}, {key::global_store_sectors, 32}};
      return shared_access_expectation(0, 0, "no shared memory: no requests, reported as 0; loads are coalesced input "
                                             "rows (4 sectors), stores walk an output column (32 sectors)",
                                       naive_global);
    }
    case Transpose::tiled:
      return shared_access_expectation(32, 1, "row store hits 32 banks; the column load reads 32 words of one bank "
                                              "(32-way); global rows of 32 floats, 4 sectors (1080 rows: the "
                                              "24-float edge rows cost 3: 135/34)",
                                       tiled_global);
    case Transpose::padded:
      return shared_access_expectation(1, 1, "pitch 33: row and column of the tile both spread over the 32 banks; "
                                             "global as transposeTiled",
                                       tiled_global);
    case Transpose::swizzled:
      return shared_access_expectation(1, 1, "column c^r: within a row and within a column the 32 elements take 32 "
                                             "different banks; global as transposeTiled",
                                       tiled_global);
  }
  return {};
}

void launch_transpose(Transpose kernel, const float* in, float* out, TransposeShape shape, cudaStream_t stream) {
  const dim3 block(tile_dim, block_rows);
  const dim3 grid(static_cast<unsigned>((shape.cols + tile_dim - 1) / tile_dim),
                  static_cast<unsigned>((shape.rows + tile_dim - 1) / tile_dim));
  switch (kernel) {
    case Transpose::naive: transposeNaive<<<grid, block, 0, stream>>>(in, out, shape.rows, shape.cols); break;
    case Transpose::tiled: transposeTiled<<<grid, block, 0, stream>>>(in, out, shape.rows, shape.cols); break;
    case Transpose::padded: transposePadded<<<grid, block, 0, stream>>>(in, out, shape.rows, shape.cols); break;
    case Transpose::swizzled: transposeSwizzled<<<grid, block, 0, stream>>>(in, out, shape.rows, shape.cols); break;
  }
  check_cuda(cudaGetLastError(), "kernel launch");
}

std::vector<float> transpose_reference(const std::vector<float>& in, TransposeShape shape) {
  const std::size_t rows = static_cast<std::size_t>(shape.rows);
  const std::size_t cols = static_cast<std::size_t>(shape.cols);
  std::vector<float> out(rows * cols);
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < cols; ++c) out[c * rows + r] = in[r * cols + c];
  return out;
}

}  // namespace bankgate::kernels
