#include <bankgate/kernels/rect_tile.cuh>

#include <bankgate/kernels/device_buffer.hpp>

// The kernels are file-local (static) at global scope, not in a namespace: the collector names a launch by its
// demangled name with namespaces kept, and "(anonymous namespace)" in it would not survive the cut at the
// first '('. A static kernel demangles to its bare name, which is what kernel_name() returns.
//
// Bank arithmetic below: 32 banks of 4 bytes, word w in bank w % 32; a warp is one row of the block
// (threadIdx.x = 0..31 at fixed threadIdx.y); a request costs as many transactions as the largest number of
// distinct words any one bank must deliver.

namespace {

constexpr int width = bankgate::kernels::rect_tile_width;    // 32
constexpr int height = bankgate::kernels::rect_tile_height;  // 16

}  // namespace

// Row-major write and read of tile[16][32]: a warp touches words 32y..32y+31, one per bank. Expect 1
// transaction per request for stores and loads.
static __global__ void setRowReadRowRect(int* out) {
  __shared__ int tile[height][width];
  const unsigned idx = threadIdx.y * blockDim.x + threadIdx.x;
  tile[threadIdx.y][threadIdx.x] = static_cast<int>(idx);
  __syncthreads();
  out[idx] = tile[threadIdx.y][threadIdx.x];
}

// Column-major write and read of tile[32][16]: thread x touches word 16x+y, bank (16x+y)%32 = y+16(x%2). The
// warp lands in two banks, 16 distinct words in each: expect 16 transactions per request for stores and
// loads (half the square tile's 32, because a 16-word row puts two rows in one 32-bank line).
static __global__ void setColReadColRect(int* out) {
  __shared__ int tile[width][height];
  const unsigned idx = threadIdx.y * blockDim.x + threadIdx.x;
  tile[threadIdx.x][threadIdx.y] = static_cast<int>(idx);
  __syncthreads();
  out[idx] = tile[threadIdx.x][threadIdx.y];
}

// Row-major write (1 per request), transposed read through the linear index: idx=32y+x, icol=idx%16=x%16,
// irow=idx/16=2y+x/16, so the load touches word 32*(x%16)+2y+x/16, bank 2y+x/16: two banks, 16 distinct
// words each. Expect 16 load transactions per request (the seed's figure), 1 per store request.
static __global__ void setRowReadColRect(int* out) {
  __shared__ int tile[height][width];
  const unsigned idx = threadIdx.y * blockDim.x + threadIdx.x;
  const unsigned icol = idx % blockDim.y;
  const unsigned irow = idx / blockDim.y;
  tile[threadIdx.y][threadIdx.x] = static_cast<int>(idx);
  __syncthreads();
  out[idx] = tile[icol][irow];
}

// setRowReadColRect on a dynamic tile with hand-computed offsets: the same words, so the same 1 (store) and
// 16 (load) transactions per request.
static __global__ void setRowReadColRectDyn(int* out) {
  extern __shared__ int tile[];
  const unsigned idx = threadIdx.y * blockDim.x + threadIdx.x;
  const unsigned icol = idx % blockDim.y;
  const unsigned irow = idx / blockDim.y;
  const unsigned col_idx = icol * blockDim.x + irow;
  tile[idx] = static_cast<int>(idx);
  __syncthreads();
  out[idx] = tile[col_idx];
}

// One padding column, tile[16][33]. Store: word 33y+x, bank (y+x)%32, 32 banks: 1 per request. Load: word
// 33*(x%16)+2y+x/16, bank (2y+x%16+x/16)%32: lanes 0-15 cover banks 2y..2y+15, lanes 16-31 banks 2y+1..2y+16,
// so banks 2y+1..2y+15 each deliver two distinct words. Expect 2 load transactions per request (the seed's
// "two-way conflict").
static __global__ void setRowReadColRectPad1(int* out) {
  __shared__ int tile[height][width + 1];
  const unsigned idx = threadIdx.y * blockDim.x + threadIdx.x;
  const unsigned icol = idx % blockDim.y;
  const unsigned irow = idx / blockDim.y;
  tile[threadIdx.y][threadIdx.x] = static_cast<int>(idx);
  __syncthreads();
  out[idx] = tile[icol][irow];
}

// Two padding columns, tile[16][34]. Store: word 34y+x, bank (2y+x)%32, 32 banks: 1 per request. Load: word
// 34*(x%16)+2y+x/16, bank (2*(x%16)+2y+x/16)%32: lanes 0-15 take the 16 even banks, lanes 16-31 the 16 odd
// ones. Expect 1 load transaction per request: no conflict, as the seed found.
static __global__ void setRowReadColRectPad2(int* out) {
  __shared__ int tile[height][width + 2];
  const unsigned idx = threadIdx.y * blockDim.x + threadIdx.x;
  const unsigned icol = idx % blockDim.y;
  const unsigned irow = idx / blockDim.y;
  tile[threadIdx.y][threadIdx.x] = static_cast<int>(idx);
  __syncthreads();
  out[idx] = tile[icol][irow];
}

// The one-column padded layout on a dynamic tile with a row pitch of blockDim.x+1 words: the same words as
// setRowReadColRectPad1, so 1 (store) and 2 (load) transactions per request.
static __global__ void setRowReadColRectDynPad(int* out) {
  extern __shared__ int tile[];
  const unsigned pitch = blockDim.x + 1;
  const unsigned idx = threadIdx.y * blockDim.x + threadIdx.x;
  const unsigned icol = idx % blockDim.y;
  const unsigned irow = idx / blockDim.y;
  tile[threadIdx.y * pitch + threadIdx.x] = static_cast<int>(idx);
  __syncthreads();
  out[idx] = tile[icol * pitch + irow];
}

namespace bankgate::kernels {

std::string_view kernel_name(RectTile kernel) {
  switch (kernel) {
    case RectTile::set_row_read_row: return "setRowReadRowRect";
    case RectTile::set_col_read_col: return "setColReadColRect";
    case RectTile::set_row_read_col: return "setRowReadColRect";
    case RectTile::set_row_read_col_dyn: return "setRowReadColRectDyn";
    case RectTile::set_row_read_col_pad1: return "setRowReadColRectPad1";
    case RectTile::set_row_read_col_pad2: return "setRowReadColRectPad2";
    case RectTile::set_row_read_col_dyn_pad: return "setRowReadColRectDynPad";
  }
  return "unknown";
}

// Global side, every kernel alike: no global load (0: no request), and each of the 16 warps stores out[idx],
// idx = 32y+x: 32 consecutive ints from a 128-byte boundary: 4 sectors per request.
AccessExpectation expected_access(RectTile kernel) {
  const auto shared = [](double load, double store, std::string_view why) {
    return shared_access_expectation(load, store, why, {{key::global_load_sectors, 0}, {key::global_store_sectors, 4}});
  };
  switch (kernel) {
    case RectTile::set_row_read_row:
      return shared(1, 1, "a warp writes and reads one 32-word row: one word per bank; out[idx]: 4 sectors");
    case RectTile::set_col_read_col:
      return shared(16, 16, "tile[32][16] by column: word 16x+y sits in bank y or y+16, 16 distinct words per bank; "
                            "out[idx]: 4 sectors");
    case RectTile::set_row_read_col:
      return shared(16, 1, "row store hits 32 banks; the transposed load lands in banks 2y and 2y+1, 16 words each; "
                           "out[idx]: 4 sectors");
    case RectTile::set_row_read_col_dyn:
      return shared(16, 1, "as setRowReadColRect: a dynamic declaration does not change the words touched; out[idx]: "
                           "4 sectors");
    case RectTile::set_row_read_col_pad1:
      return shared(2, 1, "pitch 33: the two 16-lane halves of the transposed load overlap in banks 2y+1..2y+15; "
                          "out[idx]: 4 sectors");
    case RectTile::set_row_read_col_pad2:
      return shared(1, 1, "pitch 34: the transposed load's halves take the even and the odd banks; out[idx]: 4 "
                          "sectors");
    case RectTile::set_row_read_col_dyn_pad:
      return shared(2, 1, "as setRowReadColRectPad1 with the pitch blockDim.x+1 computed by hand; out[idx]: 4 sectors");
  }
  return {};
}

void launch_rect_tile(RectTile kernel, int* out, cudaStream_t stream) {
  const dim3 block(width, height);
  constexpr std::size_t plain_bytes = width * height * sizeof(int);
  constexpr std::size_t padded_bytes = (width + 1) * height * sizeof(int);
  switch (kernel) {
    case RectTile::set_row_read_row: setRowReadRowRect<<<1, block, 0, stream>>>(out); break;
    case RectTile::set_col_read_col: setColReadColRect<<<1, block, 0, stream>>>(out); break;
    case RectTile::set_row_read_col: setRowReadColRect<<<1, block, 0, stream>>>(out); break;
    case RectTile::set_row_read_col_dyn: setRowReadColRectDyn<<<1, block, plain_bytes, stream>>>(out); break;
    case RectTile::set_row_read_col_pad1: setRowReadColRectPad1<<<1, block, 0, stream>>>(out); break;
    case RectTile::set_row_read_col_pad2: setRowReadColRectPad2<<<1, block, 0, stream>>>(out); break;
    case RectTile::set_row_read_col_dyn_pad: setRowReadColRectDynPad<<<1, block, padded_bytes, stream>>>(out); break;
  }
  check_cuda(cudaGetLastError(), "kernel launch");
}

std::vector<int> rect_tile_reference(RectTile kernel) {
  const bool transposed = kernel != RectTile::set_row_read_row && kernel != RectTile::set_col_read_col;
  std::vector<int> out(rect_tile_elements);
  for (int idx = 0; idx < rect_tile_elements; ++idx) {
    // A transposed read at idx fetches tile row idx%16, column idx/16: what thread (x=idx/16, y=idx%16) stored.
    const int icol = idx % height;
    const int irow = idx / height;
    out[idx] = transposed ? icol * width + irow : idx;
  }
  return out;
}

}  // namespace bankgate::kernels
