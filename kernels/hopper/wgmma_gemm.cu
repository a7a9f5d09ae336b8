#include <bankgate/kernels/wgmma_gemm.cuh>

#include <cstdint>
#include <stdexcept>
#include <vector>

#include <bankgate/kernels/device_buffer.hpp>

#include "hopper_ptx.cuh"
#include "tensor_map.hpp"

// File-local kernels at global scope so that their demangled names are bare (see rect_tile.cu).
//
// Shapes: C (1024 x 1024) = A (1024 x 512) * B^T, B being 1024 x 512; 256 blocks of one 64 x 64 tile each, 8
// K-steps of 64. A K-step's A and B tiles are 64 rows of 64 bf16 (128 bytes): one tensor-map copy each, 8192
// bytes per TMA load instruction, 2 per step: 256 x 8 x 2 = 4096 TMA loads. The 128-byte swizzle stores the
// 16-byte chunk c of row r at chunk c ^ (r % 8); the wgmma descriptors say so (mode 1 in bits 62-63), with 1024
// bytes between groups of 8 rows (the stride field) and, for the 4 k16 slices of a step, start addresses 32
// bytes apart. One m64n64k16 wgmma is issued by the 4 warps of the warpgroup: 4 warp-level instructions, 16
// per step, 256 x 8 x 16 = 32768. Each warpgroup-level wgmma reads a 64 x 16 slice of A and of B, 2048 bytes
// each from shared memory: 4096 bytes, booked as 1024 to each of the 4 warp-level instructions.
//
// Epilogue: thread l of warp w holds, for j = 0..7, C[16w + l/4 (+8)][8j + 2(l%4) (+1)]; it stores the pairs
// as STS.64 into a dense 64 x 64 fp32 tile (rows 256 bytes apart, as the tensor store wants them): the 8 rows
// a request touches fall in the same 8 banks, 8 wavefronts per request. Then one TMA tensor store of 16384
// bytes per block: 256.
//
// Planted regression: wgmmaGemm loads its B tile as two boxes of 32 rows (three TMA loads per step instead of
// two, the same bytes and the same output).

#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ != 900 || !defined(__CUDA_ARCH_FEAT_SM90_ALL))
#error "wgmma needs the sm_90a target (CMAKE_CUDA_ARCHITECTURES=90a)"
#endif

namespace {

namespace ptx = bankgate::kernels::ptx;
constexpr int tile = bankgate::kernels::gemm_tile;
constexpr int k_steps = bankgate::kernels::gemm_k / tile;
constexpr int stages = 3;
constexpr int tile_bytes = tile * tile * 2;        // a 64 x 64 bf16 tile: 8192
constexpr int c_tile_bytes = tile * tile * 4;      // the 64 x 64 fp32 output tile: 16384
constexpr int ring_bytes = 2 * stages * tile_bytes;
constexpr int shared_bytes = ring_bytes + c_tile_bytes + 1024;  // + room to align the ring to 1024 bytes
constexpr int warpgroup = 128;

#ifdef BANKGATE_PLANTED_REGRESSION
constexpr int tile_loop_b_box_rows = 32;
#else
constexpr int tile_loop_b_box_rows = tile;
#endif

struct Ring {
  char* a[stages];
  char* b[stages];
  float* c;
};

__device__ Ring ring_in(unsigned char* dynamic_shared) {
  const std::uint32_t base = ptx::shared_address(dynamic_shared);
  char* aligned = reinterpret_cast<char*>(dynamic_shared) + ((1024 - base % 1024) % 1024);
  Ring ring{};
  for (int s = 0; s < stages; ++s) {
    ring.a[s] = aligned + s * tile_bytes;
    ring.b[s] = aligned + (stages + s) * tile_bytes;
  }
  ring.c = reinterpret_cast<float*>(aligned + ring_bytes);
  return ring;
}

// K-step `step` of the block's A and B tiles into stage `s`, completing on `full`.
__device__ void load_step(const Ring& ring, int s, int step, const CUtensorMap& a_map, const CUtensorMap& b_map,
                          int b_box_rows, std::uint64_t* full) {
  const int m0 = static_cast<int>(blockIdx.y) * tile;
  const int n0 = static_cast<int>(blockIdx.x) * tile;
  ptx::mbarrier_arrive_expect_tx(full, 2 * tile_bytes);
  ptx::tensor_load_2d(ring.a[s], &a_map, step * tile, m0, full);
  for (int part = 0; part < tile / b_box_rows; ++part)
    ptx::tensor_load_2d(ring.b[s] + part * b_box_rows * 128, &b_map, step * tile, n0 + part * b_box_rows, full);
}

// A shared-memory matrix descriptor for a K-major tile of 128-byte rows in the 128-byte swizzle.
__device__ std::uint64_t descriptor(const char* tile_start) {
  const std::uint64_t address = ptx::shared_address(tile_start);
  return ((address & 0x3FFFF) >> 4) | (std::uint64_t{16 >> 4} << 16) | (std::uint64_t{1024 >> 4} << 32) |
         (std::uint64_t{1} << 62);
}

__device__ void wgmma_m64n64k16(float (&d)[32], std::uint64_t a, std::uint64_t b) {
  const int scale_d = 1;
  asm volatile(
      "{\n"
      ".reg .pred accumulate;\n"
      "setp.ne.b32 accumulate, %34, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 "
      "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, %32, %33, accumulate, 1, 1, 0, 0;\n"
      "}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
      : "l"(a), "l"(b), "r"(scale_d));
}

// Keeps the compiler from moving accumulator reads or writes across the asynchronous wgmma.
__device__ void fence_accumulators(float (&d)[32]) {
  for (float& value : d) asm volatile("" : "+f"(value)::"memory");
}

// The warpgroup's product of one stage: 4 k16 slices, waited for before the stage can be reused.
__device__ void multiply_stage(float (&d)[32], const Ring& ring, int s) {
  fence_accumulators(d);
  asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
  for (int slice = 0; slice < tile / 16; ++slice)
    wgmma_m64n64k16(d, descriptor(ring.a[s] + 32 * slice), descriptor(ring.b[s] + 32 * slice));
  asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
  asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
  fence_accumulators(d);
}

// The accumulators into the dense output tile (thread `t` of the warpgroup).
__device__ void store_accumulators(const float (&d)[32], float* c_tile, int t) {
  const int warp = t / 32;
  const int lane = t % 32;
  const int row = 16 * warp + lane / 4;
  for (int j = 0; j < tile / 8; ++j) {
    const int column = 8 * j + 2 * (lane % 4);
    *reinterpret_cast<float2*>(&c_tile[row * tile + column]) = make_float2(d[4 * j], d[4 * j + 1]);
    *reinterpret_cast<float2*>(&c_tile[(row + 8) * tile + column]) = make_float2(d[4 * j + 2], d[4 * j + 3]);
  }
  ptx::fence_proxy_async_shared();
}

__device__ void store_tile(const CUtensorMap& c_map, const float* c_tile) {
  ptx::tensor_store_2d(&c_map, static_cast<int>(blockIdx.x) * tile, static_cast<int>(blockIdx.y) * tile, c_tile);
  ptx::bulk_store_commit_and_wait();
}

}  // namespace

static __global__ void __launch_bounds__(warpgroup) wgmmaGemm(const __grid_constant__ CUtensorMap a_map,
                                                              const __grid_constant__ CUtensorMap b_map,
                                                              const __grid_constant__ CUtensorMap c_map) {
  extern __shared__ unsigned char dynamic_shared[];
  __shared__ std::uint64_t full[stages];
  const Ring ring = ring_in(dynamic_shared);
  const int t = static_cast<int>(threadIdx.x);
  if (t == 0) {
    for (std::uint64_t& barrier : full) ptx::mbarrier_init(&barrier, 1);
    ptx::fence_barrier_init();
    for (int s = 0; s < stages && s < k_steps; ++s)
      load_step(ring, s, s, a_map, b_map, tile_loop_b_box_rows, &full[s]);
  }
  __syncthreads();
  float d[32] = {};
  for (int step = 0; step < k_steps; ++step) {
    const int s = step % stages;
    ptx::mbarrier_wait(&full[s], (step / stages) % 2);
    multiply_stage(d, ring, s);
    __syncthreads();  // every warp is done with stage s
    if (t == 0 && step + stages < k_steps)
      load_step(ring, s, step + stages, a_map, b_map, tile_loop_b_box_rows, &full[s]);
  }
  store_accumulators(d, ring.c, t);
  __syncthreads();
  if (t == 0) store_tile(c_map, ring.c);
}

static __global__ void __launch_bounds__(2 * warpgroup) wgmmaGemmWarpSpecialized(
    const __grid_constant__ CUtensorMap a_map, const __grid_constant__ CUtensorMap b_map,
    const __grid_constant__ CUtensorMap c_map) {
  extern __shared__ unsigned char dynamic_shared[];
  __shared__ std::uint64_t full[stages];
  __shared__ std::uint64_t empty[stages];
  const Ring ring = ring_in(dynamic_shared);
  const int t = static_cast<int>(threadIdx.x);
  if (t == 0) {
    for (int s = 0; s < stages; ++s) {
      ptx::mbarrier_init(&full[s], 1);
      ptx::mbarrier_init(&empty[s], warpgroup / 32);  // one arrival per consumer warp
    }
    ptx::fence_barrier_init();
  }
  __syncthreads();
  if (t < warpgroup) {  // producer warpgroup: its first thread keeps the ring full
    if (t == 0)
      for (int step = 0; step < k_steps; ++step) {
        const int s = step % stages;
        if (step >= stages) ptx::mbarrier_wait(&empty[s], (step / stages - 1) % 2);
        load_step(ring, s, step, a_map, b_map, tile, &full[s]);
      }
    return;
  }
  const int c = t - warpgroup;  // consumer warpgroup
  float d[32] = {};
  for (int step = 0; step < k_steps; ++step) {
    const int s = step % stages;
    ptx::mbarrier_wait(&full[s], (step / stages) % 2);
    multiply_stage(d, ring, s);
    if (c % 32 == 0) ptx::mbarrier_arrive(&empty[s]);
  }
  store_accumulators(d, ring.c, c);
  asm volatile("bar.sync 1, %0;" ::"n"(warpgroup) : "memory");  // the consumer warpgroup only
  if (c == 0) store_tile(c_map, ring.c);
}

namespace bankgate::kernels {

std::string_view kernel_name(WgmmaGemm kernel) {
  switch (kernel) {
    case WgmmaGemm::tile_loop: return "wgmmaGemm";
    case WgmmaGemm::warp_specialized: return "wgmmaGemmWarpSpecialized";
  }
  return "unknown";
}

AccessExpectation expected_access(WgmmaGemm kernel) {
  const std::vector<ExpectedRatio> more{{key::tma_load_bytes, tile_bytes},
                                        {key::tma_store_bytes, c_tile_bytes},
                                        {key::wgmma_shared_bytes, 1024}};
  switch (kernel) {
    case WgmmaGemm::tile_loop:
      return shared_access_expectation(0, 8, "64 x 64 bf16 tiles of A and B by tensor map: 8192 bytes per TMA load; "
                                             "the fp32 tile out by one 16384-byte TMA store; STS.64 of 8 rows 256 "
                                             "bytes apart: 8 wavefronts; no LDS (wgmma reads its operands itself, "
                                             "2 x 2048 bytes per m64n64k16, 1024 per warp-level instruction)",
                                       more);
    case WgmmaGemm::warp_specialized:
      return shared_access_expectation(0, 8, "as wgmmaGemm, with a producer warpgroup: 8192 bytes per TMA load, "
                                             "16384 per TMA store, 1024 wgmma operand bytes per instruction, STS.64 "
                                             "8 wavefronts, no LDS",
                                       more);
  }
  return {};
}

void launch_wgmma_gemm(WgmmaGemm kernel, const unsigned short* a, const unsigned short* b, float* c,
                       cudaStream_t stream) {
  static const bool attributes_set = [] {
    check_cuda(cudaFuncSetAttribute(wgmmaGemm, cudaFuncAttributeMaxDynamicSharedMemorySize, shared_bytes),
               "cudaFuncSetAttribute");
    check_cuda(cudaFuncSetAttribute(wgmmaGemmWarpSpecialized, cudaFuncAttributeMaxDynamicSharedMemorySize, shared_bytes),
               "cudaFuncSetAttribute");
    return true;
  }();
  (void)attributes_set;
  const int b_box_rows = kernel == WgmmaGemm::tile_loop ? tile_loop_b_box_rows : tile;
  const CUtensorMap a_map = make_tensor_map(
      a, {CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, gemm_k, gemm_m, tile, tile, CU_TENSOR_MAP_SWIZZLE_128B});
  const CUtensorMap b_map = make_tensor_map(
      b, {CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, gemm_k, gemm_n, tile, static_cast<std::uint32_t>(b_box_rows),
          CU_TENSOR_MAP_SWIZZLE_128B});
  const CUtensorMap c_map = make_tensor_map(
      c, {CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 4, gemm_n, gemm_m, tile, tile, CU_TENSOR_MAP_SWIZZLE_NONE});
  const dim3 grid(gemm_n / tile, gemm_m / tile);
  switch (kernel) {
    case WgmmaGemm::tile_loop: wgmmaGemm<<<grid, warpgroup, shared_bytes, stream>>>(a_map, b_map, c_map); break;
    case WgmmaGemm::warp_specialized:
      wgmmaGemmWarpSpecialized<<<grid, 2 * warpgroup, shared_bytes, stream>>>(a_map, b_map, c_map);
      break;
  }
  check_cuda(cudaGetLastError(), "kernel launch");
}

std::vector<unsigned short> gemm_input(int rows, int columns, int seed) {
  std::vector<unsigned short> values(static_cast<std::size_t>(rows) * columns);
  for (std::size_t i = 0; i < values.size(); ++i) {
    const float v = static_cast<float>(static_cast<int>((i * 7 + static_cast<std::size_t>(seed) * 3 + i / 61) % 5) - 2);
    std::uint32_t bits;
    static_assert(sizeof(bits) == sizeof(v));
    __builtin_memcpy(&bits, &v, sizeof(bits));
    values[i] = static_cast<unsigned short>(bits >> 16);  // small integers are exact in bf16
  }
  return values;
}

// In integers: the inputs are small integers (gemm_input), so every product and sum is an exact integer that a
// float holds too, and integer sums may be reordered, which lets the compiler vectorise the loop (0.5 s in floats
// for the catalogue's size, milliseconds in integers).
std::vector<float> wgmma_gemm_reference(const std::vector<unsigned short>& a, const std::vector<unsigned short>& b) {
  const auto small_integers = [](const std::vector<unsigned short>& bits) {
    std::vector<std::int8_t> values(bits.size());
    for (std::size_t i = 0; i < bits.size(); ++i) {
      const std::uint32_t word = static_cast<std::uint32_t>(bits[i]) << 16;
      float v;
      __builtin_memcpy(&v, &word, sizeof(v));
      if (v != static_cast<float>(static_cast<int>(v)) || v < -64.0f || v > 64.0f)
        throw std::invalid_argument("wgmma_gemm_reference takes small whole numbers, as gemm_input makes");
      values[i] = static_cast<std::int8_t>(v);
    }
    return values;
  };
  const std::vector<std::int8_t> x = small_integers(a), y = small_integers(b);
  std::vector<float> c(static_cast<std::size_t>(gemm_m) * gemm_n);
  for (int m = 0; m < gemm_m; ++m)
    for (int n = 0; n < gemm_n; ++n) {
      const std::int8_t* row = x.data() + static_cast<std::size_t>(m) * gemm_k;
      const std::int8_t* column = y.data() + static_cast<std::size_t>(n) * gemm_k;
      std::int32_t sum = 0;
      for (int k = 0; k < gemm_k; ++k) sum += row[k] * column[k];
      c[static_cast<std::size_t>(m) * gemm_n + n] = static_cast<float>(sum);
    }
  return c;
}

}  // namespace bankgate::kernels
