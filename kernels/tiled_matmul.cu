#include <bankgate/kernels/tiled_matmul.cuh>

#include <stdexcept>

#include <bankgate/kernels/device_buffer.hpp>

// File-local kernels at global scope so that their demangled names are bare, e.g. "tiledMatmul<16>" (see
// rect_tile.cu).
//
// Shared accesses per phase (one Tile-wide slice of k), for a block of Tile x Tile threads:
//  - stores as[ty][tx] and bs[ty][tx]: a warp covers 32 consecutive words (Tile 32: one tile row; Tile 16: two
//    rows of 16), one per bank: 1 transaction per request;
//  - loads bs[i][tx]: Tile 32: 32 consecutive words; Tile 16: 16 consecutive words, each wanted by two lanes
//    (the warp's two rows), which is a multicast, not a conflict: 1 transaction per request;
//  - loads as[ty][i]: Tile 32: one word for the whole warp (broadcast); Tile 16: two words, one per row, 16
//    banks apart: 1 transaction per request.
// So 1 and 1 if every shared load were 32-bit. They are not: once the i loop is unrolled, as[ty][i..i+3] are
// four consecutive words of one thread at a place ptxas knows, and it fuses them into one LDS.128 (nvcc 13.0,
// sm_90; ci/sass-report.sh shows Tile/4 LDS.128 and Tile LDS per phase). A 128-bit load returns 512 bytes per
// warp; with every lane of a row on one address the H200 delivers it in 2 wavefronts (not the 4 of 512
// distinct bytes). Per phase and warp: Tile/4 A loads of 2 wavefronts and Tile B loads of 1, so
// (2 * Tile/4 + Tile) / (Tile/4 + Tile) = 1.5 / 1.25 = 1.2 load transactions per request for both tiles.
// Measured on the H200: 6293751 wavefronts / 5242880 requests (Tile 16, 512^3), 1.2004 with contention.

// The seed's kernel: no bounds checks, every size a multiple of Tile (the launcher checks).
template <int Tile>
static __global__ void tiledMatmul(const float* a, const float* b, float* c, int /*m: the grid covers it*/, int n,
                                   int k) {
  __shared__ float as[Tile][Tile];
  __shared__ float bs[Tile][Tile];
  const int tx = static_cast<int>(threadIdx.x);
  const int ty = static_cast<int>(threadIdx.y);
  const int row = static_cast<int>(blockIdx.y) * Tile + ty;
  const int col = static_cast<int>(blockIdx.x) * Tile + tx;
  float acc = 0.0f;
  for (int phase = 0; phase < k; phase += Tile) {
    as[ty][tx] = a[row * k + phase + tx];
    bs[ty][tx] = b[(phase + ty) * n + col];
    __syncthreads();  // the tiles are complete before anyone reads them
    for (int i = 0; i < Tile; ++i) acc += as[ty][i] * bs[i][tx];
    __syncthreads();  // everyone is done reading before the next phase overwrites them
  }
  c[row * n + col] = acc;
}

// The seed's boundary checks: elements outside A or B enter the tiles as zeros, so they add nothing, and only
// threads inside C write. Every thread still stores and loads its tile words, so the shared figures are
// those of tiledMatmul: every request comes from a full warp.
template <int Tile>
static __global__ void tiledMatmulBounded(const float* a, const float* b, float* c, int m, int n, int k) {
  __shared__ float as[Tile][Tile];
  __shared__ float bs[Tile][Tile];
  const int tx = static_cast<int>(threadIdx.x);
  const int ty = static_cast<int>(threadIdx.y);
  const int row = static_cast<int>(blockIdx.y) * Tile + ty;
  const int col = static_cast<int>(blockIdx.x) * Tile + tx;
  float acc = 0.0f;
  for (int phase = 0; phase < k; phase += Tile) {
    as[ty][tx] = row < m && phase + tx < k ? a[row * k + phase + tx] : 0.0f;
    bs[ty][tx] = phase + ty < k && col < n ? b[(phase + ty) * n + col] : 0.0f;
    __syncthreads();
    for (int i = 0; i < Tile; ++i) acc += as[ty][i] * bs[i][tx];
    __syncthreads();
  }
  if (row < m && col < n) c[row * n + col] = acc;
}

namespace bankgate::kernels {
namespace {

int tile_of(TiledMatmul kernel) {
  return kernel == TiledMatmul::tile16 || kernel == TiledMatmul::tile16_bounded ? 16 : 32;
}

dim3 grid_for(MatmulShape shape, int tile) {
  return dim3(static_cast<unsigned>((shape.n + tile - 1) / tile), static_cast<unsigned>((shape.m + tile - 1) / tile));
}

}  // namespace

std::string_view kernel_name(TiledMatmul kernel) {
  switch (kernel) {
    case TiledMatmul::tile16: return "tiledMatmul<16>";
    case TiledMatmul::tile32: return "tiledMatmul<32>";
    case TiledMatmul::tile16_bounded: return "tiledMatmulBounded<16>";
    case TiledMatmul::tile32_bounded: return "tiledMatmulBounded<32>";
  }
  return "unknown";
}

SharedAccessExpectation expected_shared_access(TiledMatmul kernel) {
  if (tile_of(kernel) == 16)
    return {1.2, 1, "per phase 4 A-row LDS.128 (two rows, uniform per row: 2 wavefronts) and 16 B-row LDS of 16 words "
                    "(1): 24/20; stores are two 16-word rows, 1"};
  return {1.2, 1, "per phase 8 A-row LDS.128 (one broadcast address: 2 wavefronts) and 32 B-row LDS of 32 words (1): "
                  "48/40; stores are one 32-word row, 1"};
}

void launch_tiled_matmul(TiledMatmul kernel, const float* a, const float* b, float* c, MatmulShape shape,
                         cudaStream_t stream) {
  const int tile = tile_of(kernel);
  const bool bounded = kernel == TiledMatmul::tile16_bounded || kernel == TiledMatmul::tile32_bounded;
  if (!bounded && (shape.m % tile != 0 || shape.n % tile != 0 || shape.k % tile != 0))
    throw std::invalid_argument("tiledMatmul needs every dimension to be a multiple of its tile; use the bounded "
                                "kernel");
  const dim3 block(static_cast<unsigned>(tile), static_cast<unsigned>(tile));
  const dim3 grid = grid_for(shape, tile);
  switch (kernel) {
    case TiledMatmul::tile16: tiledMatmul<16><<<grid, block, 0, stream>>>(a, b, c, shape.m, shape.n, shape.k); break;
    case TiledMatmul::tile32: tiledMatmul<32><<<grid, block, 0, stream>>>(a, b, c, shape.m, shape.n, shape.k); break;
    case TiledMatmul::tile16_bounded:
      tiledMatmulBounded<16><<<grid, block, 0, stream>>>(a, b, c, shape.m, shape.n, shape.k);
      break;
    case TiledMatmul::tile32_bounded:
      tiledMatmulBounded<32><<<grid, block, 0, stream>>>(a, b, c, shape.m, shape.n, shape.k);
      break;
  }
  check_cuda(cudaGetLastError(), "kernel launch");
}

std::vector<double> tiled_matmul_reference(const std::vector<float>& a, const std::vector<float>& b,
                                           MatmulShape shape) {
  const std::size_t m = static_cast<std::size_t>(shape.m);
  const std::size_t n = static_cast<std::size_t>(shape.n);
  const std::size_t k = static_cast<std::size_t>(shape.k);
  std::vector<double> c(m * n, 0.0);
  // i-p-j order: the inner loop walks rows of B and C contiguously.
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t p = 0; p < k; ++p) {
      const double aip = a[i * k + p];
      for (std::size_t j = 0; j < n; ++j) c[i * n + j] += aip * static_cast<double>(b[p * n + j]);
    }
  return c;
}

}  // namespace bankgate::kernels
