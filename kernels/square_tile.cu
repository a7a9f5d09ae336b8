#include <bankgate/kernels/square_tile.cuh>

#include <bankgate/kernels/device_buffer.hpp>

namespace bankgate::kernels {
namespace {

constexpr int dim = square_tile_dim;
// One int of padding per row shifts each row by one bank, so a column's 32 elements fall in 32 banks.
#ifdef BANKGATE_PLANTED_REGRESSION
// Planted (cmake -DBANKGATE_PLANTED_REGRESSION=ON): no padding, so the padded kernels' column reads turn 32-way.
constexpr int padding = 0;
#else
constexpr int padding = 1;
#endif

// Row-major write, row-major read: a warp is one row (threadIdx.x varies fastest), 32 consecutive words in
// 32 banks. Expect 1 transaction per request for stores and loads.
__global__ void setRowReadRow(int* out) {
#ifdef BANKGATE_PLANTED_REGRESSION
  __nanosleep(1000);  // planted (cmake -DBANKGATE_PLANTED_REGRESSION=ON): about 1 us slower, no memory traffic
#endif
  __shared__ int tile[dim][dim];
  const unsigned idx = threadIdx.y * blockDim.x + threadIdx.x;
  tile[threadIdx.y][threadIdx.x] = static_cast<int>(idx);
  __syncthreads();
  out[idx] = tile[threadIdx.y][threadIdx.x];
}

// Column-major write and read: a warp touches one column, 32 words 32 words apart, all in one bank.
// Expect 32 transactions per request (32-way conflict) for stores and loads.
__global__ void setColReadCol(int* out) {
  __shared__ int tile[dim][dim];
  const unsigned idx = threadIdx.y * blockDim.x + threadIdx.x;
  tile[threadIdx.x][threadIdx.y] = static_cast<int>(idx);
  __syncthreads();
  out[idx] = tile[threadIdx.x][threadIdx.y];
}

// Row-major write (1 per request), column-major read (32 per request): the tile is read transposed.
__global__ void setRowReadCol(int* out) {
  __shared__ int tile[dim][dim];
  const unsigned idx = threadIdx.y * blockDim.x + threadIdx.x;
  tile[threadIdx.y][threadIdx.x] = static_cast<int>(idx);
  __syncthreads();
  out[idx] = tile[threadIdx.x][threadIdx.y];
}

// Column-major write (32 per request), row-major read (1 per request).
__global__ void setColReadRow(int* out) {
  __shared__ int tile[dim][dim];
  const unsigned idx = threadIdx.y * blockDim.x + threadIdx.x;
  tile[threadIdx.x][threadIdx.y] = static_cast<int>(idx);
  __syncthreads();
  out[idx] = tile[threadIdx.y][threadIdx.x];
}

// setRowReadCol on a dynamically sized tile with hand-computed indices: the same banks, so the same
// 1 (store) and 32 (load) transactions per request.
__global__ void setRowReadColDyn(int* out) {
  extern __shared__ int tile[];
  const unsigned row_idx = threadIdx.y * blockDim.x + threadIdx.x;
  const unsigned col_idx = threadIdx.x * blockDim.y + threadIdx.y;
  tile[row_idx] = static_cast<int>(row_idx);
  __syncthreads();
  out[row_idx] = tile[col_idx];
}

// setRowReadCol with one padding column: element (r, c) sits at word r*33+c, bank (r+c)%32, so a column read
// hits 32 different banks. Expect 1 transaction per request for stores and loads.
__global__ void setRowReadColIpad(int* out) {
  __shared__ int tile[dim][dim + padding];
  const unsigned idx = threadIdx.y * blockDim.x + threadIdx.x;
  tile[threadIdx.y][threadIdx.x] = static_cast<int>(idx);
  __syncthreads();
  out[idx] = tile[threadIdx.x][threadIdx.y];
}

// The padded layout on a dynamic tile: 1 transaction per request for stores and loads. The output index is
// the unpadded one (the seed wrote out[row_idx], which runs past the 1024-int output by the padding).
__global__ void setRowReadColDynIpad(int* out) {
  extern __shared__ int tile[];
  const unsigned row_idx = threadIdx.y * (blockDim.x + padding) + threadIdx.x;
  const unsigned col_idx = threadIdx.x * (blockDim.x + padding) + threadIdx.y;
  const unsigned idx = threadIdx.y * blockDim.x + threadIdx.x;
  tile[row_idx] = static_cast<int>(idx);
  __syncthreads();
  out[idx] = tile[col_idx];
}

bool reads_transposed(SquareTile kernel) {
  return kernel != SquareTile::set_row_read_row && kernel != SquareTile::set_col_read_col;
}

}  // namespace

std::string_view kernel_name(SquareTile kernel) {
  switch (kernel) {
    case SquareTile::set_row_read_row: return "setRowReadRow";
    case SquareTile::set_col_read_col: return "setColReadCol";
    case SquareTile::set_row_read_col: return "setRowReadCol";
    case SquareTile::set_col_read_row: return "setColReadRow";
    case SquareTile::set_row_read_col_dyn: return "setRowReadColDyn";
    case SquareTile::set_row_read_col_ipad: return "setRowReadColIpad";
    case SquareTile::set_row_read_col_dyn_ipad: return "setRowReadColDynIpad";
  }
  return "unknown";
}

// Global side, every kernel alike: no global load (0: no request), and each of the 32 warps stores out[idx],
// idx = 32y+x: 32 consecutive ints, 128 bytes from a 128-byte boundary (cudaMalloc aligns to 256): 4 sectors per
// request.
AccessExpectation expected_access(SquareTile kernel) {
  const auto shared = [](double load, double store, std::string_view why) {
    return shared_access_expectation(load, store, why, {{key::global_load_sectors, 0}, {key::global_store_sectors, 4}});
  };
  switch (kernel) {
    case SquareTile::set_row_read_row:
      return shared(1, 1, "a warp writes and reads one row: 32 consecutive words in 32 banks; out[idx] is 128 aligned "
                          "bytes, 4 sectors");
    case SquareTile::set_col_read_col:
      return shared(32, 32, "a warp writes and reads one column: 32 words 128 bytes apart, all in one bank (32-way); "
                            "out[idx] is 128 aligned bytes, 4 sectors");
    case SquareTile::set_row_read_col:
      return shared(32, 1, "row-wise store hits 32 banks; column-wise load puts the warp in one bank (32-way); "
                           "out[idx] is 128 aligned bytes, 4 sectors");
    case SquareTile::set_col_read_row:
      return shared(1, 32, "column-wise store puts the warp in one bank (32-way); row-wise load hits 32 banks; "
                           "out[idx] is 128 aligned bytes, 4 sectors");
    case SquareTile::set_row_read_col_dyn:
      return shared(32, 1, "as setRowReadCol: dynamic declaration does not change the bank mapping; out[idx] is 128 "
                           "aligned bytes, 4 sectors");
    case SquareTile::set_row_read_col_ipad:
      return shared(1, 1, "one padding word per row: element (r,c) in bank (r+c)%32, a column spans 32 banks; "
                          "out[idx] is 128 aligned bytes, 4 sectors");
    case SquareTile::set_row_read_col_dyn_ipad:
      return shared(1, 1, "as setRowReadColIpad with the padded row pitch computed by hand; out[idx] is 128 aligned "
                          "bytes, 4 sectors");
  }
  return {};
}

void launch_square_tile(SquareTile kernel, int* out, cudaStream_t stream) {
  const dim3 block(dim, dim);
  constexpr std::size_t plain_bytes = dim * dim * sizeof(int);
  constexpr std::size_t padded_bytes = (dim + padding) * dim * sizeof(int);
  switch (kernel) {
    case SquareTile::set_row_read_row: setRowReadRow<<<1, block, 0, stream>>>(out); break;
    case SquareTile::set_col_read_col: setColReadCol<<<1, block, 0, stream>>>(out); break;
    case SquareTile::set_row_read_col: setRowReadCol<<<1, block, 0, stream>>>(out); break;
    case SquareTile::set_col_read_row: setColReadRow<<<1, block, 0, stream>>>(out); break;
    case SquareTile::set_row_read_col_dyn: setRowReadColDyn<<<1, block, plain_bytes, stream>>>(out); break;
    case SquareTile::set_row_read_col_ipad: setRowReadColIpad<<<1, block, 0, stream>>>(out); break;
    case SquareTile::set_row_read_col_dyn_ipad: setRowReadColDynIpad<<<1, block, padded_bytes, stream>>>(out); break;
  }
  check_cuda(cudaGetLastError(), "kernel launch");
}

std::vector<int> square_tile_reference(SquareTile kernel) {
  std::vector<int> out(square_tile_elements);
  for (int y = 0; y < dim; ++y)
    for (int x = 0; x < dim; ++x)
      // The thread at (x, y) reads what the thread at (y, x) stored when the read is transposed.
      out[y * dim + x] = reads_transposed(kernel) ? x * dim + y : y * dim + x;
  return out;
}

}  // namespace bankgate::kernels
