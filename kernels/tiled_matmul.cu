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
// sm_90; tools/sass-report.sh shows Tile/4 LDS.128 and Tile LDS per phase). A 128-bit load returns 512 bytes per
// warp; with every lane of a row on one address the H200 delivers it in 2 wavefronts (not the 4 of 512
// distinct bytes). Per phase and warp: Tile/4 A loads of 2 wavefronts and Tile B loads of 1, so
// (2 * Tile/4 + Tile) / (Tile/4 + Tile) = 1.5 / 1.25 = 1.2 load transactions per request for both tiles
// (as measured: docs/measurement.md, "Measurements behind the code").

#ifdef BANKGATE_PLANTED_REGRESSION
// Planted (cmake -DBANKGATE_PLANTED_REGRESSION=ON): register spills in tiledMatmul<16> and tiledMatmul<32>.
// The bounds cap the registers at 65536 / 2048 resident threads = 32 per thread, and the phase below loads
// its Tile A values and Tile B values into registers before the second barrier and uses them after it, so
// 2*Tile values (32 or 64) must stay live across a barrier that no load may cross: ptxas spills them to local
// memory (nvcc --resource-usage: "bytes spill stores" > 0; 0 without the plant). The sums are the same FFMAs in
// the same order, so C is bit for bit unchanged. Should fail TiledMatmul.Tile16Square and Tile32Square: local
// load/store sectors per request (expected 0: no local request) and the local and launch counters of the
// baselines (launch__registers_per_thread, local sectors).
#define BANKGATE_MATMUL_BOUNDS(tile) __launch_bounds__((tile) * (tile), 2048 / ((tile) * (tile)))
#else
#define BANKGATE_MATMUL_BOUNDS(tile)
#endif

// The seed's kernel: no bounds checks, every size a multiple of Tile (the launcher checks).
template <int Tile>
static __global__ void BANKGATE_MATMUL_BOUNDS(Tile)
    tiledMatmul(const float* a, const float* b, float* c, int /*m: the grid covers it*/, int n, int k) {
  __shared__ float as[Tile][Tile];
  __shared__ float bs[Tile][Tile];
  const int tx = static_cast<int>(threadIdx.x);
  const int ty = static_cast<int>(threadIdx.y);
  const int row = static_cast<int>(blockIdx.y) * Tile + ty;
  const int col = static_cast<int>(blockIdx.x) * Tile + tx;
  float acc = 0.0f;  if (BANKGATE_PLANTED_SLEEP_NS > 0) __nanosleep(BANKGATE_PLANTED_SLEEP_NS);  // kernels/CMakeLists.txt
  for (int phase = 0; phase < k; phase += Tile) {
    as[ty][tx] = a[row * k + phase + tx];
    bs[ty][tx] = b[(phase + ty) * n + col];
    __syncthreads();  // the tiles are complete before anyone reads them
#ifdef BANKGATE_PLANTED_REGRESSION
    float a_row[Tile];  // the planted spill (see BANKGATE_MATMUL_BOUNDS above)
    float b_col[Tile];
    for (int i = 0; i < Tile; ++i) {
      a_row[i] = as[ty][i];
      b_col[i] = bs[i][tx];
    }
    // Everyone is done reading before the next phase overwrites them. The barrier also returns a count (0: k is
    // positive) that the compiler cannot know, on which the sum of the phase then depends: without it ptxas would
    // compute the FFMAs before the barrier and keep only acc live.
    const int none = __syncthreads_count(k < 0);
    float sum = none == 0 ? acc : 0.0f;
    for (int i = 0; i < Tile; ++i) sum += a_row[i] * b_col[i];
    acc = sum;
#else
    for (int i = 0; i < Tile; ++i) acc += as[ty][i] * bs[i][tx];
    __syncthreads();  // everyone is done reading before the next phase overwrites them
#endif
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

// Global side. Each phase a warp issues one LDG for A and one for B (predicated per lane in the bounded
// kernels; a warp with no lane inside issues nothing), and at the end one STG for C. Tile 16: a warp is two
// rows ty, ty+1 of 16 lanes; Tile 32: one row of 32. Buffers are 256-byte aligned (cudaMalloc).
//
// 512^3, unbounded kernels: every row pitch is 2048 bytes and every Tile-float slice starts at a multiple of
// 4*Tile bytes, so a warp touches two 64-byte pieces (Tile 16) or one 128-byte piece (Tile 32): 4 sectors per
// request for A, B and C alike.
//
// 500x300x700 (m x n x k), bounded kernels. The pitches of A (700 floats = 2800 bytes) and of B and C (300
// floats = 1200 bytes) are 16 mod 32: even rows start on a sector, odd rows 16 bytes into one. A slice of w
// floats (4w bytes) starting at byte offset 64p (Tile 16) or 128p (Tile 32) of a row therefore costs 4w/32
// sectors on an even row and one more on an odd row, except that the short edge slices (12 floats of C/B's last
// 12 columns, 28 or 12 floats of A's last columns) fit the same count either way. Per slice, even + odd row:
//   Tile 32 (grid 10 x 16, 22 phases; edge: columns 288..299 = 12 floats, k 672..699 = 28 floats):
//     C: 500 rows x 10 block columns = 5000 requests; a row costs 9 x (4|5) + 2 = 38 (even) | 47 (odd):
//        250 x (38 + 47) = 21250 sectors: 21250 / 5000 = 4.25.
//     A: 500 rows x 22 phases x 10 block columns = 110000 requests; per row and block column
//        21 x (4|5) + 4 = 88 | 109: 10 x 250 x 197 = 492500 sectors.
//     B: 700 rows x 10 block columns x 16 block rows = 112000 requests; per B row 9 x (4|5) + 2 = 38 | 47:
//        16 x 350 x 85 = 476000 sectors.
//     loads: (492500 + 476000) / (110000 + 112000) = 968500 / 222000.
//   Tile 16 (grid 19 x 32, 44 phases; edge: columns 288..299 = 12 floats, k 688..699 = 12 floats; a warp
//   holds one even and one odd row, rows 2w and 2w+1, and the 4 warps of block row 31 beyond row 499 - rows
//   504..511 - issue nothing: 250 row pairs):
//     C: 250 pairs x 19 = 4750 requests; a pair costs 18 x (2+3) + (2+2) = 94: 250 x 94 = 23500 sectors:
//        23500 / 4750 = 94/19.
//     A: 250 pairs x 19 x 44 = 209000 requests; per pair and block column 43 x 5 + 4 = 219:
//        250 x 19 x 219 = 1040250 sectors.
//     B: 350 pairs x 19 x 32 = 212800 requests; per pair 18 x 5 + 4 = 94: 32 x 350 x 94 = 1052800 sectors.
//     loads: (1040250 + 1052800) / (209000 + 212800) = 2093050 / 421800.
// (Checked by enumerating every warp and phase.) No local memory: local loads and stores are 0 (no request);
// the planted regression above breaks that.
AccessExpectation expected_access(TiledMatmul kernel, MatmulShape shape) {
  const auto same = [](MatmulShape x, MatmulShape y) { return x.m == y.m && x.n == y.n && x.k == y.k; };
  const int tile = tile_of(kernel);
  const bool bounded = kernel == TiledMatmul::tile16_bounded || kernel == TiledMatmul::tile32_bounded;
  std::vector<ExpectedRatio> more{{key::local_load_sectors, 0}, {key::local_store_sectors, 0}};
  if (same(shape, matmul_square_shape)) {
    more.push_back({key::global_load_sectors, 4});
    more.push_back({key::global_store_sectors, 4});
  } else if (bounded && same(shape, matmul_ragged_shape)) {
    more.push_back({key::global_load_sectors, tile == 16 ? 2093050.0 / 421800.0 : 968500.0 / 222000.0});
    more.push_back({key::global_store_sectors, tile == 16 ? 23500.0 / 4750.0 : 21250.0 / 5000.0});
  }
  if (tile == 16)
    return shared_access_expectation(1.2, 1, "per phase 4 A-row LDS.128 (two rows, uniform per row: 2 wavefronts) and "
                                             "16 B-row LDS of 16 words (1): 24/20; stores are two 16-word rows, 1; "
                                             "global: see tiled_matmul.cu",
                                     more);
  return shared_access_expectation(1.2, 1, "per phase 8 A-row LDS.128 (one broadcast address: 2 wavefronts) and 32 "
                                           "B-row LDS of 32 words (1): 48/40; stores are one 32-word row, 1; global: "
                                           "see tiled_matmul.cu",
                                   more);
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
