#include <bankgate/kernels/tma_tile.cuh>

#include <bankgate/kernels/device_buffer.hpp>

#include "hopper_ptx.cuh"
#include "tensor_map.hpp"

// File-local kernels at global scope so that their demangled names are bare (see rect_tile.cu).
//
// tmaBulkCopy: block b copies input floats [1024b, 1024b+1024) (4 KiB) to shared memory with one
// cp.async.bulk issued by thread 0 (one warp-level TMA load instruction per block: 64), then each thread reads
// two float4 (LDS.128: a warp reads 512 contiguous bytes, the 4-wavefront minimum) and stores them doubled
// (STG.128: 16 sectors per request). The copy moves 4096 bytes per TMA load instruction.
//
// tmaTileLdmatrix(Swizzled): block b copies rows [64b, 64b+64) of a matrix of 32-bit words with 32 words (128
// bytes) per row, one cp.async.bulk.tensor.2d of the whole 64 x 128-byte box (8192 bytes per TMA load
// instruction, one per block: 128). With CU_TENSOR_MAP_SWIZZLE_128B the engine stores the 16-byte chunk c of
// row r at chunk c ^ (r % 8) of the row (the tile is 1024-byte aligned, so r % 8 is the row within the
// swizzle atom); without, at chunk c. Reading (as in ldmatrix_tile.cu): warp w issues 4 ldmatrix.x4, for chunk
// columns c = 2w, 2w+1 and row halves h = 0, 1; lanes address rows 32h + lane, and afterwards lane l holds in
// register p the word l%4 of chunk c of row 32h + 8p + l/4, written to out[2048b + ((2c+h)*4 + p)*32 + l].
// Unswizzled, the 8 rows of each 8x16-byte matrix are 128 bytes apart, all in the same 4 banks: 8
// wavefronts per matrix, 32 per ldmatrix.x4. Swizzled, they take 8 different chunk positions: 1 per matrix, 4
// per instruction. The kernels have no LDS or STS; each STG stores 32 consecutive words: 4 sectors.
//
// Planted regression: the swizzled kernel's tile arrives without the swizzle and is read at plain addresses
// (the output is unchanged; ldmatrix goes from 4 to 32 wavefronts per request).

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
#error "the bulk copy engine (TMA) needs sm_90 or newer"
#endif

namespace {

namespace ptx = bankgate::kernels::ptx;
constexpr int threads = bankgate::kernels::tma_threads;
constexpr int block_floats = bankgate::kernels::tma_bulk_block_floats;
constexpr int tile_rows = bankgate::kernels::tma_tile_rows;
constexpr int chunks_per_row = 8;
constexpr int tile_words = bankgate::kernels::tma_tile_words;
static_assert(block_floats / 4 == 2 * threads, "two float4 per thread");

struct Plain {
  static constexpr CUtensorMapSwizzle swizzle = CU_TENSOR_MAP_SWIZZLE_NONE;
  __device__ static int column(int, int chunk) { return chunk; }
};
struct Swizzled128 {
  static constexpr CUtensorMapSwizzle swizzle = CU_TENSOR_MAP_SWIZZLE_128B;
  __device__ static int column(int row, int chunk) { return chunk ^ (row % 8); }
};
#ifdef BANKGATE_PLANTED_REGRESSION
using SwizzledLayout = Plain;
#else
using SwizzledLayout = Swizzled128;
#endif

__device__ void ldmatrix_x4(const uint4* row_address, unsigned (&d)[4]) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
               : "r"(ptx::shared_address(row_address))
               : "memory");
}

template <typename Layout>
__device__ void ldmatrix_through_tma_tile(const CUtensorMap& map, unsigned* out) {
  __shared__ __align__(1024) uint4 tile[tile_rows][chunks_per_row];
  __shared__ std::uint64_t full;
  const int t = static_cast<int>(threadIdx.x);
  if (t == 0) {
    ptx::mbarrier_init(&full, 1);
    ptx::fence_barrier_init();
  }
  __syncthreads();
  if (t == 0) {
    ptx::mbarrier_arrive_expect_tx(&full, sizeof(tile));
    ptx::tensor_load_2d(tile, &map, 0, static_cast<int>(blockIdx.x) * tile_rows, &full);
  }
  ptx::mbarrier_wait(&full, 0);
  const int warp = t / 32;
  const int lane = t % 32;
  unsigned* block_out = out + static_cast<size_t>(blockIdx.x) * tile_words;
  for (int j = 0; j < 4; ++j) {
    const int c = 2 * warp + j / 2;  // chunk column
    const int h = j % 2;             // row half
    const int row = 32 * h + lane;
    unsigned d[4];
    ldmatrix_x4(&tile[row][Layout::column(row, c)], d);
    for (int p = 0; p < 4; ++p) block_out[((2 * c + h) * 4 + p) * 32 + lane] = d[p];
  }
}

}  // namespace

static __global__ void tmaBulkCopy(const float* in, float* out) {
  __shared__ __align__(128) float4 tile[block_floats / 4];
  __shared__ std::uint64_t full;
  const int t = static_cast<int>(threadIdx.x);
  if (t == 0) {
    ptx::mbarrier_init(&full, 1);
    ptx::fence_barrier_init();
  }
  __syncthreads();
  if (t == 0) {
    ptx::mbarrier_arrive_expect_tx(&full, sizeof(tile));
    ptx::bulk_copy_global_to_shared(tile, in + static_cast<size_t>(blockIdx.x) * block_floats, sizeof(tile), &full);
  }
  ptx::mbarrier_wait(&full, 0);
  auto* block_out = reinterpret_cast<float4*>(out + static_cast<size_t>(blockIdx.x) * block_floats);
  for (int k = 0; k < 2; ++k) {
    float4 v = tile[k * threads + t];
    v.x *= 2.0f;
    v.y *= 2.0f;
    v.z *= 2.0f;
    v.w *= 2.0f;
    block_out[k * threads + t] = v;
  }
}

// The tile as the engine writes it (no swizzle): 32 ldmatrix wavefronts per x4 instruction.
static __global__ void tmaTileLdmatrix(const __grid_constant__ CUtensorMap map, unsigned* out) {
  ldmatrix_through_tma_tile<Plain>(map, out);
}

// The 128-byte swizzle: 4 ldmatrix wavefronts per x4 instruction.
static __global__ void tmaTileLdmatrixSwizzled(const __grid_constant__ CUtensorMap map, unsigned* out) {
  ldmatrix_through_tma_tile<SwizzledLayout>(map, out);
}

namespace bankgate::kernels {

std::string_view kernel_name(TmaTile kernel) {
  switch (kernel) {
    case TmaTile::bulk_copy: return "tmaBulkCopy";
    case TmaTile::ldmatrix_plain: return "tmaTileLdmatrix";
    case TmaTile::ldmatrix_swizzled: return "tmaTileLdmatrixSwizzled";
  }
  return "unknown";
}

AccessExpectation expected_access(TmaTile kernel) {
  switch (kernel) {
    case TmaTile::bulk_copy:
      return shared_access_expectation(4, 0, "one 4 KiB cp.async.bulk per block: 4096 bytes per TMA load; LDS.128 of "
                                             "512 contiguous bytes: 4; no STS; STG.128 16 sectors",
                                       {{key::tma_load_bytes, 4096}, {key::global_store_sectors, 16}});
    case TmaTile::ldmatrix_plain:
      return shared_access_expectation(0, 0, "one 64 x 128-byte tensor box per block: 8192 bytes per TMA load; the "
                                             "unswizzled rows of each matrix share 4 banks: 32 wavefronts per "
                                             "ldmatrix.x4; STG of 32 words: 4 sectors",
                                       {{key::tma_load_bytes, 8192}, {key::ldmatrix_transactions, 32},
                                        {key::global_store_sectors, 4}});
    case TmaTile::ldmatrix_swizzled:
      return shared_access_expectation(0, 0, "one 64 x 128-byte tensor box per block: 8192 bytes per TMA load; the "
                                             "128-byte swizzle puts each matrix's rows in 8 chunk positions: 4 "
                                             "wavefronts per ldmatrix.x4; STG of 32 words: 4 sectors",
                                       {{key::tma_load_bytes, 8192}, {key::ldmatrix_transactions, 4},
                                        {key::global_store_sectors, 4}});
  }
  return {};
}

void launch_tma_tile(TmaTile kernel, const void* in, void* out, cudaStream_t stream) {
  const auto tile_map = [&](CUtensorMapSwizzle swizzle) {
    return make_tensor_map(in, {CU_TENSOR_MAP_DATA_TYPE_UINT32, 4, tma_tile_row_words,
                                static_cast<std::uint64_t>(tma_tile_blocks) * tma_tile_rows, tma_tile_row_words,
                                tma_tile_rows, swizzle});
  };
  auto* words = static_cast<unsigned*>(out);
  switch (kernel) {
    case TmaTile::bulk_copy:
      tmaBulkCopy<<<tma_bulk_blocks, threads, 0, stream>>>(static_cast<const float*>(in), static_cast<float*>(out));
      break;
    case TmaTile::ldmatrix_plain:
      tmaTileLdmatrix<<<tma_tile_blocks, threads, 0, stream>>>(tile_map(Plain::swizzle), words);
      break;
    case TmaTile::ldmatrix_swizzled:
      tmaTileLdmatrixSwizzled<<<tma_tile_blocks, threads, 0, stream>>>(tile_map(SwizzledLayout::swizzle), words);
      break;
  }
  check_cuda(cudaGetLastError(), "kernel launch");
}

std::vector<float> tma_bulk_copy_reference(const std::vector<float>& in) {
  std::vector<float> out(in.size());
  for (std::size_t i = 0; i < in.size(); ++i) out[i] = 2.0f * in[i];
  return out;
}

std::vector<std::uint32_t> tma_tile_ldmatrix_reference(const std::vector<std::uint32_t>& in) {
  std::vector<std::uint32_t> out(in.size());
  for (std::size_t b = 0; b < in.size() / tile_words; ++b)
    for (int c = 0; c < chunks_per_row; ++c)
      for (int h = 0; h < 2; ++h)
        for (int p = 0; p < 4; ++p)
          for (int lane = 0; lane < 32; ++lane) {
            const int row = 32 * h + 8 * p + lane / 4;
            const int word = 4 * c + lane % 4;
            out[b * tile_words + static_cast<std::size_t>(((2 * c + h) * 4 + p) * 32 + lane)] =
                in[b * tile_words + static_cast<std::size_t>(row * tma_tile_row_words + word)];
          }
  return out;
}

}  // namespace bankgate::kernels
