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
// So 1 and 1, as long as every shared load is 32-bit. That is not certain: once the i loop is unrolled,
// as[ty][i..i+3] are consecutive words of one thread, and although nvcc 13.0 keeps them as 32-bit loads in
// the PTX, ptxas knows where the tile lands and may fuse them into 64- or 128-bit loads. A 128-bit load
// returns 16 bytes per lane, 512 bytes per warp, so 4 wavefronts of 128 bytes even when every lane reads the
// same address, or 2 where the hardware packs uniform addresses (NVIDIA describes that for CC 7.x). The load
// figure would then be (8W+32)/40 for Tile 32 and (4W+16)/20 for Tile 16 with W = 2 or 4: 1.2 or 1.6 (with
// 64-bit loads, W = 1 or 2 of 48 and 24 requests: 1 or 1.33). The store figure (1) does not depend on it. Hence shared_access_certain() is false: the GPU run settles it.

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
    return {1, 1, "unverified for loads: tile rows of 16 words, a warp spans two rows 16 banks apart; "
                  "1.2 or 1.6 if ptxas fuses the A-row reads into 128-bit loads"};
  return {1, 1, "unverified for loads: stores and B reads are 32 consecutive words, A reads one broadcast word; "
                "1.2 or 1.6 if ptxas fuses the A-row reads into 128-bit loads"};
}

bool shared_access_certain(TiledMatmul) { return false; }

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
