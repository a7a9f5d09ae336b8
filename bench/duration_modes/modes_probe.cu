// modes_probe.cu: what sets the per-process duration level of a warp-specialised Hopper GEMM?
//
// C (M x N, bf16) = A (M x K, bf16, K-major) * B^T (B: N x K, bf16, K-major), fp32 accumulation.
// Tile 128 x 256 x 64, 4-stage TMA ring (48 KiB per stage), 1 producer warpgroup (one thread issues TMA) and
// 2 consumer warpgroups (each wgmma m64n256k16 on 64 rows of the tile), full/empty mbarriers, setmaxnreg.
// Variants: ws (one tile per CTA, 512 CTAs at 4096^3), pers (persistent: grid = #SMs, static tile loop),
// cl2 (clusters of 2 along N, A multicast to both CTAs), ws_gmap (tensor maps in global memory instead of
// __grid_constant__ parameters). A PROBE instantiation writes %smid, %nsmid, cluster id/rank, globaltimer and
// clock64 at start/end of each CTA.
//
//   modes_probe check            correctness (small size vs CPU, full size sampled vs CPU) for every variant
//   modes_probe run <proc> <ctx>  timing over placements x rounds x variants, <ctx> contexts in this process
//   modes_probe body <proc> <lead> a test's body (alloc, fill, time, free) 12 times: 4 plain, 8 after a held spacer
//   modes_probe timeline <proc>   bursts of launches with idle gaps: per-launch duration, in-kernel clock, cycles
//   modes_probe vmm <proc>        physical x virtual placement (cuMemCreate/cuMemMap), per-launch in-kernel clock, 3 input data kinds
//
// Output: CSV-ish lines on stdout, prefixed by a record type (see the printf calls).
#include <cuda.h>
#include <cuda_runtime.h>
#include <cuda_bf16.h>
#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#define CK(x)                                                                                          \
  do {                                                                                                 \
    cudaError_t e_ = (x);                                                                              \
    if (e_ != cudaSuccess) {                                                                           \
      fprintf(stderr, "CUDA error %s at %s:%d: %s\n", cudaGetErrorString(e_), __FILE__, __LINE__, #x); \
      exit(3);                                                                                         \
    }                                                                                                  \
  } while (0)
#define CKD(x)                                                                        \
  do {                                                                                \
    CUresult r_ = (x);                                                                \
    if (r_ != CUDA_SUCCESS) {                                                         \
      fprintf(stderr, "CU error %d at %s:%d: %s\n", (int)r_, __FILE__, __LINE__, #x); \
      exit(3);                                                                        \
    }                                                                                 \
  } while (0)

constexpr int BM = 128, BN = 256, BK = 64, STAGES = 4;
constexpr int A_STAGE = BM * BK * 2;  // 16384
constexpr int B_STAGE = BN * BK * 2;  // 32768
constexpr int STAGE_BYTES = A_STAGE + B_STAGE;
constexpr int SMEM = STAGES * STAGE_BYTES + 1024;
constexpr int THREADS = 384;

struct Probe {
  unsigned smid, nsmid, cluster_rank, cluster_id;
  unsigned long long t0, t1, c0, c1;
  unsigned tiles, pad;
};

struct Params {
  const CUtensorMap* gA;
  const CUtensorMap* gB;
  __nv_bfloat16* C;
  int M, N, K;
  Probe* probe;
};

// ------------------------------------------------------------------------------------------------ device PTX
__device__ __forceinline__ std::uint32_t smem_u32(const void* p) {
  return static_cast<std::uint32_t>(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ void mbar_init(std::uint64_t* b, unsigned n) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem_u32(b)), "r"(n) : "memory");
}
__device__ __forceinline__ void mbar_expect_tx(std::uint64_t* b, unsigned bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem_u32(b)), "r"(bytes) : "memory");
}
__device__ __forceinline__ void mbar_arrive(std::uint64_t* b) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(smem_u32(b)) : "memory");
}
// Arrive on the mbarrier at the same shared offset in CTA `rank` of the cluster.
__device__ __forceinline__ void mbar_arrive_cluster(std::uint64_t* b, unsigned rank) {
  std::uint32_t remote;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(remote) : "r"(smem_u32(b)), "r"(rank));
  asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];" ::"r"(remote) : "memory");
}
__device__ __forceinline__ void mbar_wait(std::uint64_t* b, unsigned phase) {
  asm volatile(
      "{\n"
      ".reg .pred done;\n"
      "retry_%=:\n"
      "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n"
      "@!done bra retry_%=;\n"
      "}\n" ::"r"(smem_u32(b)),
      "r"(phase)
      : "memory");
}
__device__ __forceinline__ void tma_load(void* dst, const void* map, int x, int y, std::uint64_t* bar) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" ::
          "r"(smem_u32(dst)),
      "l"(map), "r"(x), "r"(y), "r"(smem_u32(bar))
      : "memory");
}
__device__ __forceinline__ void tma_load_mc(void* dst, const void* map, int x, int y, std::uint64_t* bar,
                                            std::uint16_t mask) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster "
      "[%0], [%1, {%2, %3}], [%4], %5;" ::"r"(smem_u32(dst)),
      "l"(map), "r"(x), "r"(y), "r"(smem_u32(bar)), "h"(mask)
      : "memory");
}
__device__ __forceinline__ unsigned cluster_rank() {
  unsigned r;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
  return r;
}
__device__ __forceinline__ unsigned cluster_id() {
  unsigned r;
  asm volatile("mov.u32 %0, %%clusterid.x;" : "=r"(r));
  return r;
}
__device__ __forceinline__ void cluster_sync_all() {
  asm volatile("barrier.cluster.arrive.release.aligned;" ::: "memory");
  asm volatile("barrier.cluster.wait.acquire.aligned;" ::: "memory");
}
__device__ __forceinline__ unsigned long long gtimer() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}
__device__ __forceinline__ unsigned smid() {
  unsigned r;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(r));
  return r;
}
__device__ __forceinline__ unsigned nsmid() {
  unsigned r;
  asm volatile("mov.u32 %0, %%nsmid;" : "=r"(r));
  return r;
}
// K-major tile of 128-byte rows in the 128-byte swizzle: 1024 bytes between 8-row groups.
__device__ __forceinline__ std::uint64_t desc(const void* p) {
  const std::uint64_t a = smem_u32(p);
  return ((a & 0x3FFFF) >> 4) | (std::uint64_t{1} << 16) | (std::uint64_t{1024 >> 4} << 32) | (std::uint64_t{1} << 62);
}

#include "wgmma_gen.inc"

__device__ __forceinline__ void fence_acc(float (&d)[128]) {
#pragma unroll
  for (int i = 0; i < 128; ++i) asm volatile("" : "+f"(d[i])::"memory");
}

// ------------------------------------------------------------------------------------------------ the GEMM
template <bool PERSIST, int CL, bool GMAP, bool PROBE>
__global__ void __launch_bounds__(THREADS, 1)
    gemm_ws(const __grid_constant__ CUtensorMap mapA, const __grid_constant__ CUtensorMap mapB, const Params p) {
  extern __shared__ unsigned char smem_raw[];
  __shared__ std::uint64_t full[STAGES], empty[STAGES];
  const std::uint32_t base = smem_u32(smem_raw);
  char* sm = reinterpret_cast<char*>(smem_raw) + ((1024 - base % 1024) % 1024);
  const void* mA = GMAP ? static_cast<const void*>(p.gA) : static_cast<const void*>(&mapA);
  const void* mB = GMAP ? static_cast<const void*>(p.gB) : static_cast<const void*>(&mapB);
  const int t = threadIdx.x;
  const int tilesN = p.N / BN;
  const int ntiles = (p.M / BM) * tilesN;
  const int KT = p.K / BK;
  const unsigned rank = CL > 1 ? cluster_rank() : 0;
  if (t == 0) {
    for (int s = 0; s < STAGES; ++s) {
      mbar_init(&full[s], 1);
      mbar_init(&empty[s], CL * 8);  // one arrival per consumer warp, of every CTA of the cluster
    }
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  if (CL > 1)
    cluster_sync_all();
  else
    __syncthreads();
  unsigned long long t0 = 0, c0 = 0;
  if (PROBE && t == 128) {
    t0 = gtimer();
    c0 = clock64();
  }
  const int first = blockIdx.x;
  const int stride = PERSIST ? gridDim.x : ntiles;
  const int wg = t / 128;
  if (wg == 0) {
    asm volatile("setmaxnreg.dec.sync.aligned.u32 40;\n" ::: "memory");
    if (t == 0) {
      int it = 0;
      for (int tile = first; tile < ntiles; tile += stride) {
        const int mb = tile / tilesN, nb = tile % tilesN;
        for (int kt = 0; kt < KT; ++kt, ++it) {
          const int s = it % STAGES;
          const unsigned ph = (it / STAGES) & 1;
          if (it >= STAGES) mbar_wait(&empty[s], ph ^ 1);
          mbar_expect_tx(&full[s], STAGE_BYTES);
          char* a = sm + s * STAGE_BYTES;
          char* b = a + A_STAGE;
          if (CL > 1)
            tma_load_mc(a + rank * 64 * 128, mA, kt * BK, mb * BM + rank * 64, &full[s], 0x3);
          else
            tma_load(a, mA, kt * BK, mb * BM, &full[s]);
          tma_load(b, mB, kt * BK, nb * BN, &full[s]);
        }
      }
    }
  } else {
    asm volatile("setmaxnreg.inc.sync.aligned.u32 232;\n" ::: "memory");
    const int cw = wg - 1;
    const int tid = t % 128, warp = tid / 32, lane = tid % 32;
    int it = 0;
    int tiles_done = 0;
    for (int tile = first; tile < ntiles; tile += stride) {
      const int mb = tile / tilesN, nb = tile % tilesN;
      float d[128];
#pragma unroll
      for (int i = 0; i < 128; ++i) d[i] = 0.0f;
      for (int kt = 0; kt < KT; ++kt, ++it) {
        const int s = it % STAGES;
        const unsigned ph = (it / STAGES) & 1;
        mbar_wait(&full[s], ph);
        const char* a = sm + s * STAGE_BYTES + cw * 64 * 128;
        const char* b = sm + s * STAGE_BYTES + A_STAGE;
        fence_acc(d);
        asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
#pragma unroll
        for (int k = 0; k < BK / 16; ++k) wgmma_m64n256k16(d, desc(a + 32 * k), desc(b + 32 * k));
        asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
        asm volatile("wgmma.wait_group.sync.aligned 1;" ::: "memory");
        fence_acc(d);
        if (kt > 0) {  // the previous stage's wgmmas are done: release it
          const int ps = (it - 1) % STAGES;
          __syncwarp();
          if (lane == 0) {
            if (CL > 1) {
              for (unsigned r = 0; r < CL; ++r) mbar_arrive_cluster(&empty[ps], r);
            } else {
              mbar_arrive(&empty[ps]);
            }
          }
        }
      }
      asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
      fence_acc(d);
      {
        const int ps = (it - 1) % STAGES;
        __syncwarp();
        if (lane == 0) {
          if (CL > 1) {
            for (unsigned r = 0; r < CL; ++r) mbar_arrive_cluster(&empty[ps], r);
          } else {
            mbar_arrive(&empty[ps]);
          }
        }
      }
      // epilogue: registers -> bf16 global
      const int row = mb * BM + cw * 64 + 16 * warp + lane / 4;
      __nv_bfloat16* c0p = p.C + static_cast<size_t>(row) * p.N + nb * BN + 2 * (lane % 4);
      __nv_bfloat16* c1p = c0p + static_cast<size_t>(8) * p.N;
#pragma unroll
      for (int j = 0; j < BN / 8; ++j) {
        *reinterpret_cast<__nv_bfloat162*>(c0p + 8 * j) = __floats2bfloat162_rn(d[4 * j], d[4 * j + 1]);
        *reinterpret_cast<__nv_bfloat162*>(c1p + 8 * j) = __floats2bfloat162_rn(d[4 * j + 2], d[4 * j + 3]);
      }
      ++tiles_done;
    }
    if (PROBE && t == 128) {
      Probe pr;
      pr.smid = smid();
      pr.nsmid = nsmid();
      pr.cluster_rank = rank;
      pr.cluster_id = CL > 1 ? cluster_id() : blockIdx.x;
      pr.t0 = t0;
      pr.c0 = c0;
      pr.t1 = gtimer();
      pr.c1 = clock64();
      pr.tiles = tiles_done;
      pr.pad = 0;
      p.probe[blockIdx.x] = pr;
    }
  }
  if (CL > 1) cluster_sync_all();  // no CTA leaves while its peer may still multicast into it or arrive on it
}

// ------------------------------------------------------------------------------------------------ helpers
__global__ void fill_kernel(__nv_bfloat16* x, size_t n, unsigned seed, int small_ints) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    unsigned h = (unsigned)i * 2654435761u ^ (seed * 40503u + 0x9e3779b9u);
    h ^= h >> 15;
    h *= 2246822519u;
    h ^= h >> 13;
    h *= 3266489917u;
    h ^= h >> 16;
    float v = small_ints ? (float)((int)(h % 5) - 2) : ((float)(h & 0xFFFFFF) / 8388608.0f - 1.0f);
    x[i] = __float2bfloat16_rn(v);
  }
}

static float bf2f(std::uint16_t b) {
  std::uint32_t w = (std::uint32_t)b << 16;
  float f;
  memcpy(&f, &w, 4);
  return f;
}
static std::uint16_t f2bf(float f) {
  std::uint32_t w;
  memcpy(&w, &f, 4);
  std::uint32_t r = 0x7FFF + ((w >> 16) & 1);
  return (std::uint16_t)((w + r) >> 16);
}

using EncodeTiled = CUresult (*)(CUtensorMap*, CUtensorMapDataType, cuuint32_t, void*, const cuuint64_t*,
                                 const cuuint64_t*, const cuuint32_t*, const cuuint32_t*, CUtensorMapInterleave,
                                 CUtensorMapSwizzle, CUtensorMapL2promotion, CUtensorMapFloatOOBfill);
static CUtensorMap make_map(const void* ptr, int rows, int cols, int box_rows) {
  CUtensorMap m;
  const cuuint64_t size[2] = {(cuuint64_t)cols, (cuuint64_t)rows};
  const cuuint64_t pitch[1] = {(cuuint64_t)cols * 2};
  const cuuint32_t box[2] = {64, (cuuint32_t)box_rows};
  const cuuint32_t es[2] = {1, 1};
  CKD(cuTensorMapEncodeTiled(&m, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, const_cast<void*>(ptr), size, pitch, box, es,
                             CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                             CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
  return m;
}

struct Gemm {  // one placement of A, B, C and their tensor maps
  std::uint16_t *A, *B, *C;
  int M, N, K;
  CUtensorMap mA128, mA64, mB;
  CUtensorMap* gmaps;  // device copies: [0] A128, [1] B
  std::string label;
};

static void build_maps(Gemm& g) {
  g.mA128 = make_map(g.A, g.M, g.K, 128);
  g.mA64 = make_map(g.A, g.M, g.K, 64);
  g.mB = make_map(g.B, g.N, g.K, 256);
  CK(cudaMalloc(&g.gmaps, 2 * sizeof(CUtensorMap)));
  CUtensorMap h[2] = {g.mA128, g.mB};
  CK(cudaMemcpy(g.gmaps, h, sizeof(h), cudaMemcpyHostToDevice));
}

static int g_nsm = 132;
static Probe* g_probe = nullptr;  // room for every CTA

enum Variant { WS = 0, PERS = 1, CL2 = 2, WS_GMAP = 3, NVAR = 4 };
static const char* vname[] = {"ws", "pers", "cl2", "ws_gmap"};

template <bool P, int CL, bool G, bool PR>
static void set_attr() {
  CK(cudaFuncSetAttribute(gemm_ws<P, CL, G, PR>, cudaFuncAttributeMaxDynamicSharedMemorySize, SMEM));
  if (CL > 1) CK(cudaFuncSetAttribute(gemm_ws<P, CL, G, PR>, cudaFuncAttributeNonPortableClusterSizeAllowed, 0));
}
static void set_all_attrs() {
  set_attr<false, 1, false, false>();
  set_attr<false, 1, false, true>();
  set_attr<true, 1, false, false>();
  set_attr<true, 1, false, true>();
  set_attr<false, 2, false, false>();
  set_attr<false, 2, false, true>();
  set_attr<false, 1, true, false>();
  set_attr<false, 1, true, true>();
}

template <bool P, int CL, bool G, bool PR>
static void launch_t(const Gemm& g, cudaStream_t st) {
  const int ntiles = (g.M / BM) * (g.N / BN);
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(P ? std::min(g_nsm, ntiles) : ntiles);
  cfg.blockDim = dim3(THREADS);
  cfg.dynamicSmemBytes = SMEM;
  cfg.stream = st;
  cudaLaunchAttribute at[1];
  if (CL > 1) {
    at[0].id = cudaLaunchAttributeClusterDimension;
    at[0].val.clusterDim.x = CL;
    at[0].val.clusterDim.y = 1;
    at[0].val.clusterDim.z = 1;
    cfg.attrs = at;
    cfg.numAttrs = 1;
  }
  Params p{g.gmaps, g.gmaps + 1, reinterpret_cast<__nv_bfloat16*>(g.C), g.M, g.N, g.K, g_probe};
  CK(cudaLaunchKernelEx(&cfg, gemm_ws<P, CL, G, PR>, CL > 1 ? g.mA64 : g.mA128, g.mB, p));
}
static void launch(int v, bool probe, const Gemm& g, cudaStream_t st) {
  switch (v) {
    case WS:
      probe ? launch_t<false, 1, false, true>(g, st) : launch_t<false, 1, false, false>(g, st);
      break;
    case PERS:
      probe ? launch_t<true, 1, false, true>(g, st) : launch_t<true, 1, false, false>(g, st);
      break;
    case CL2:
      probe ? launch_t<false, 2, false, true>(g, st) : launch_t<false, 2, false, false>(g, st);
      break;
    case WS_GMAP:
      probe ? launch_t<false, 1, true, true>(g, st) : launch_t<false, 1, true, false>(g, st);
      break;
  }
}

// ------------------------------------------------------------------------------------------------ NVML (dlopen)
struct Nvml {
  void* h = nullptr;
  void* dev = nullptr;
  int (*getClock)(void*, int, unsigned*) = nullptr;
  int (*getPower)(void*, unsigned*) = nullptr;
  int (*getTemp)(void*, int, unsigned*) = nullptr;
  int (*getReasons)(void*, unsigned long long*) = nullptr;
  void init() {
    h = dlopen("libnvidia-ml.so.1", RTLD_NOW);
    if (!h) return;
    auto initf = (int (*)())dlsym(h, "nvmlInit_v2");
    auto byIdx = (int (*)(unsigned, void**))dlsym(h, "nvmlDeviceGetHandleByIndex_v2");
    getClock = (int (*)(void*, int, unsigned*))dlsym(h, "nvmlDeviceGetClockInfo");
    getPower = (int (*)(void*, unsigned*))dlsym(h, "nvmlDeviceGetPowerUsage");
    getTemp = (int (*)(void*, int, unsigned*))dlsym(h, "nvmlDeviceGetTemperature");
    getReasons = (int (*)(void*, unsigned long long*))dlsym(h, "nvmlDeviceGetCurrentClocksEventReasons");
    if (!getReasons)
      getReasons = (int (*)(void*, unsigned long long*))dlsym(h, "nvmlDeviceGetCurrentClocksThrottleReasons");
    if (!initf || initf() != 0 || !byIdx || byIdx(0, &dev) != 0) dev = nullptr;
  }
  // sm MHz, mem MHz, power W, temp C, reasons
  void sample(unsigned& sm, unsigned& mem, double& pw, unsigned& temp, unsigned long long& rs) {
    sm = mem = temp = 0;
    pw = 0;
    rs = 0;
    if (!dev) return;
    unsigned mw = 0;
    getClock(dev, 1, &sm);   // NVML_CLOCK_SM
    getClock(dev, 2, &mem);  // NVML_CLOCK_MEM
    getPower(dev, &mw);
    pw = mw / 1000.0;
    getTemp(dev, 0, &temp);
    if (getReasons) getReasons(dev, &rs);
  }
} g_nvml;

static double now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
static double pct(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, (size_t)(q * (v.size() - 1) + 0.5))];
}

// ------------------------------------------------------------------------------------------------ check mode
static int check_one(int M, int N, int K, int samples) {
  std::uint16_t *A, *B, *C;
  CK(cudaMalloc(&A, (size_t)M * K * 2));
  CK(cudaMalloc(&B, (size_t)N * K * 2));
  CK(cudaMalloc(&C, (size_t)M * N * 2));
  fill_kernel<<<1024, 256>>>((__nv_bfloat16*)A, (size_t)M * K, 1, 1);
  fill_kernel<<<1024, 256>>>((__nv_bfloat16*)B, (size_t)N * K, 2, 1);
  CK(cudaDeviceSynchronize());
  std::vector<std::uint16_t> hA((size_t)M * K), hB((size_t)N * K), hC((size_t)M * N);
  CK(cudaMemcpy(hA.data(), A, hA.size() * 2, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(hB.data(), B, hB.size() * 2, cudaMemcpyDeviceToHost));
  Gemm g{A, B, C, M, N, K};
  build_maps(g);
  int bad_total = 0;
  for (int v = 0; v < NVAR; ++v) {
    CK(cudaMemset(C, 0xff, (size_t)M * N * 2));
    launch(v, false, g, 0);
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(hC.data(), C, hC.size() * 2, cudaMemcpyDeviceToHost));
    int bad = 0;
    long checked = 0;
    unsigned rng = 12345;
    const long total = (long)M * N;
    for (long s = 0; s < (samples > 0 ? samples : total); ++s) {
      long idx = s;
      if (samples > 0) {
        rng = rng * 1664525u + 1013904223u;
        idx = (long)(((unsigned long long)rng * 2654435761ull) % (unsigned long long)total);
      }
      const int m = idx / N, n = idx % N;
      float ref = 0;
      for (int k = 0; k < K; ++k) ref += bf2f(hA[(size_t)m * K + k]) * bf2f(hB[(size_t)n * K + k]);
      const float got = bf2f(hC[idx]);
      const float want = bf2f(f2bf(ref));
      if (std::fabs(got - want) > std::fabs(want) * (1.0f / 128) + 1e-3f) {
        if (bad < 5)
          printf("CHECK_MISMATCH,%s,%dx%dx%d,m=%d,n=%d,got=%g,want=%g\n", vname[v], M, N, K, m, n, got, want);
        ++bad;
      }
      ++checked;
    }
    printf("CHECK,%s,%dx%dx%d,checked=%ld,bad=%d,%s\n", vname[v], M, N, K, checked, bad, bad ? "FAIL" : "ok");
    bad_total += bad;
  }
  cudaFree(g.gmaps);
  cudaFree(A);
  cudaFree(B);
  cudaFree(C);
  return bad_total;
}

// ------------------------------------------------------------------------------------------------ run mode
// Timing of `n` back-to-back launches: one event pair per launch. flush: 128 MiB memset between launches.
static std::vector<double> time_batch(int v, const Gemm& g, int n, cudaStream_t st, std::vector<cudaEvent_t>& ev,
                                      void* flush_buf, size_t flush_bytes) {
  for (int i = 0; i < n; ++i) {
    if (flush_buf) CK(cudaMemsetAsync(flush_buf, i & 0xff, flush_bytes, st));
    CK(cudaEventRecord(ev[2 * i], st));
    launch(v, false, g, st);
    CK(cudaEventRecord(ev[2 * i + 1], st));
  }
  CK(cudaStreamSynchronize(st));
  std::vector<double> us(n);
  for (int i = 0; i < n; ++i) {
    float ms;
    CK(cudaEventElapsedTime(&ms, ev[2 * i], ev[2 * i + 1]));
    us[i] = ms * 1000.0;
  }
  return us;
}

static void probe_launch(int proc, int ctx, int v, int pl, const Gemm& g, cudaStream_t st, bool raw) {
  const int ntiles = (g.M / BM) * (g.N / BN);
  const int nblocks = v == PERS ? std::min(g_nsm, ntiles) : ntiles;
  CK(cudaMemsetAsync(g_probe, 0, sizeof(Probe) * ntiles, st));
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  CK(cudaEventRecord(e0, st));
  launch(v, true, g, st);
  CK(cudaEventRecord(e1, st));
  CK(cudaStreamSynchronize(st));
  float ms;
  CK(cudaEventElapsedTime(&ms, e0, e1));
  cudaEventDestroy(e0);
  cudaEventDestroy(e1);
  std::vector<Probe> pr(nblocks);
  CK(cudaMemcpy(pr.data(), g_probe, sizeof(Probe) * nblocks, cudaMemcpyDeviceToHost));
  std::vector<int> per_sm(256, 0), tiles_sm(256, 0);
  std::vector<double> busy_sm(256, 0.0);
  unsigned long long tmin = ~0ull, tmax = 0;
  std::vector<double> mhz, dur;
  unsigned nsm_id = 0;
  for (const Probe& q : pr) {
    if (q.smid < 256) {
      per_sm[q.smid]++;
      tiles_sm[q.smid] += q.tiles;
      busy_sm[q.smid] += (double)(q.t1 - q.t0);
    }
    nsm_id = q.nsmid;
    tmin = std::min(tmin, q.t0);
    tmax = std::max(tmax, q.t1);
    if (q.t1 > q.t0) {
      mhz.push_back((double)(q.c1 - q.c0) * 1000.0 / (double)(q.t1 - q.t0));
      dur.push_back((double)(q.t1 - q.t0));
    }
  }
  int used = 0, maxc = 0, minc = 1 << 30, maxt = 0, mint = 1 << 30;
  double maxbusy = 0;
  for (int s = 0; s < 256; ++s)
    if (per_sm[s]) {
      ++used;
      maxc = std::max(maxc, per_sm[s]);
      minc = std::min(minc, per_sm[s]);
      maxt = std::max(maxt, tiles_sm[s]);
      mint = std::min(mint, tiles_sm[s]);
      maxbusy = std::max(maxbusy, busy_sm[s]);
    }
  // PROBE,proc,ctx,variant,placement,event_us,span_us,nsmid,sms_used,cta_per_sm_min,max,tiles_per_sm_min,max,
  //       cta_dur_med_us,cta_dur_max_us,max_sm_busy_us,mhz_med,mhz_min,mhz_max
  printf("PROBE,%d,%d,%s,%d,%.2f,%.2f,%u,%d,%d,%d,%d,%d,%.2f,%.2f,%.2f,%.1f,%.1f,%.1f\n", proc, ctx, vname[v], pl,
         ms * 1000.0, (tmax - tmin) / 1000.0, nsm_id, used, minc, maxc, mint, maxt, pct(dur, 0.5) / 1000.0,
         pct(dur, 1.0) / 1000.0, maxbusy / 1000.0, pct(mhz, 0.5), pct(mhz, 0.0), pct(mhz, 1.0));
  if (raw)
    for (int b = 0; b < nblocks; ++b)
      printf("RAW,%d,%d,%s,%d,%d,%u,%u,%u,%llu,%llu,%u\n", proc, ctx, vname[v], pl, b, pr[b].smid, pr[b].cluster_id,
             pr[b].cluster_rank, pr[b].t0 - tmin, pr[b].t1 - tmin, pr[b].tiles);
}

static void run_context(int proc, int ctx, int rounds, int L) {
  const int M = 4096, N = 4096, K = 4096;
  CK(cudaDeviceGetAttribute(&g_nsm, cudaDevAttrMultiProcessorCount, 0));
  set_all_attrs();
  cudaStream_t st;
  CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
  CK(cudaMalloc(&g_probe, sizeof(Probe) * 4096));
  if (ctx == 0 && proc == 0) {
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(512);
    cfg.blockDim = dim3(THREADS);
    cfg.dynamicSmemBytes = SMEM;
    cudaLaunchAttribute at[1];
    at[0].id = cudaLaunchAttributeClusterDimension;
    at[0].val.clusterDim.x = 2;
    at[0].val.clusterDim.y = 1;
    at[0].val.clusterDim.z = 1;
    cfg.attrs = at;
    cfg.numAttrs = 1;
    int nc = -1;
    cudaOccupancyMaxActiveClusters(&nc, gemm_ws<false, 2, false, false>, &cfg);
    printf("INFO,max_active_clusters_of_2,%d,sms,%d\n", nc, g_nsm);
  }
  // The placements. Everything stays allocated until the context ends, so each placement has its own physical
  // pages; the 'off' placements share one allocation and differ only in the byte offset of A, B and C.
  const size_t szA = (size_t)M * K * 2, szB = (size_t)N * K * 2, szC = (size_t)M * N * 2;
  struct Spec {
    const char* label;
    size_t pad;      // a cudaMalloc of this size before A, B, C (0: none)
    size_t off;      // byte offset added to each of A, B, C inside their allocation
    bool one_alloc;  // A, B, C in one allocation back to back
    bool swap;       // allocate B before A
  };
  const Spec specs[] = {
      {"first", 0, 0, false, false},          {"pad2M", 2u << 20, 0, false, false},
      {"pad64M", 64u << 20, 0, false, false}, {"pad1G", 1u << 30, 0, false, false},
      {"off256", 0, 256, false, false},       {"off4352", 0, 4352, false, false},
      {"off64K", 0, 65536, false, false},     {"off1M768", 0, (1u << 20) + 768, false, false},
      {"onealloc", 0, 0, true, false},        {"swapAB", 8u << 20, 0, false, true},
  };
  const int P = sizeof(specs) / sizeof(specs[0]);
  std::vector<Gemm> gs;
  std::vector<void*> keep;
  for (int i = 0; i < P; ++i) {
    const Spec& s = specs[i];
    if (s.pad) {
      void* pad;
      CK(cudaMalloc(&pad, s.pad));
      keep.push_back(pad);
    }
    Gemm g{};
    g.M = M, g.N = N, g.K = K;
    g.label = s.label;
    if (s.one_alloc) {
      char* all;
      CK(cudaMalloc(&all, szA + szB + szC));
      g.A = (std::uint16_t*)all;
      g.B = (std::uint16_t*)(all + szA);
      g.C = (std::uint16_t*)(all + szA + szB);
    } else {
      char *a, *b, *c;
      if (s.swap) {
        CK(cudaMalloc(&b, szB + s.off));
        CK(cudaMalloc(&a, szA + s.off));
      } else {
        CK(cudaMalloc(&a, szA + s.off));
        CK(cudaMalloc(&b, szB + s.off));
      }
      CK(cudaMalloc(&c, szC + s.off));
      g.A = (std::uint16_t*)(a + s.off);
      g.B = (std::uint16_t*)(b + s.off);
      g.C = (std::uint16_t*)(c + s.off);
    }
    fill_kernel<<<2048, 256, 0, st>>>((__nv_bfloat16*)g.A, (size_t)M * K, 11, 0);
    fill_kernel<<<2048, 256, 0, st>>>((__nv_bfloat16*)g.B, (size_t)N * K, 22, 0);
    build_maps(g);
    gs.push_back(g);
    printf("ADDR,%d,%d,%d,%s,%p,%p,%p,%p\n", proc, ctx, i, s.label, (void*)g.A, (void*)g.B, (void*)g.C, (void*)g.gmaps);
  }
  void* flush;
  const size_t flush_bytes = 128u << 20;
  CK(cudaMalloc(&flush, flush_bytes));
  CK(cudaStreamSynchronize(st));
  std::vector<cudaEvent_t> ev(2 * 400);
  for (auto& e : ev) CK(cudaEventCreate(&e));
  const double t_start = now_s();
  // Warm-up curve: 300 launches of ws at the first placement, each duration kept.
  {
    std::vector<double> w = time_batch(WS, gs[0], 300, st, ev, nullptr, 0);
    for (int i = 0; i < 300; ++i) printf("WARM,%d,%d,%d,%.2f\n", proc, ctx, i, w[i]);
    unsigned sm, mem, temp;
    double pw;
    unsigned long long rs;
    g_nvml.sample(sm, mem, pw, temp, rs);
    printf("WARMEND,%d,%d,med_first50=%.2f,med_last100=%.2f,sm=%u,mem=%u,pw=%.1f,temp=%u,reasons=0x%llx\n", proc, ctx,
           pct(std::vector<double>(w.begin(), w.begin() + 50), 0.5),
           pct(std::vector<double>(w.end() - 100, w.end()), 0.5), sm, mem, pw, temp, rs);
  }
  // Probes: once per placement and variant (raw per-CTA dump for cl2 and pers at placement 0).
  for (int pl = 0; pl < P; ++pl)
    for (int v = 0; v < NVAR; ++v)
      probe_launch(proc, ctx, v, pl, gs[pl], st, pl == 0 && (v == CL2 || v == PERS || v == WS));
  // Rounds: placements interleaved, order rotated each round; the variants in turn at each.
  for (int r = 0; r < rounds; ++r) {
    for (int j = 0; j < P + 1; ++j) {
      const int pl = (j + r) % (P + 1);  // P: the L2-flushed ws at placement 0
      for (int v = 0; v < NVAR; ++v) {
        if (pl == P && v != WS) continue;
        const Gemm& g = gs[pl == P ? 0 : pl];
        std::vector<double> us = time_batch(v, g, L, st, ev, pl == P ? flush : nullptr, flush_bytes);
        unsigned sm, mem, temp;
        double pw;
        unsigned long long rs;
        g_nvml.sample(sm, mem, pw, temp, rs);
        // MEAS,proc,ctx,variant,placement,label,round,median,p10,p90,min,max,n,sm_mhz,mem_mhz,power_w,temp,reasons,t
        printf("MEAS,%d,%d,%s,%d,%s,%d,%.2f,%.2f,%.2f,%.2f,%.2f,%d,%u,%u,%.1f,%u,0x%llx,%.3f\n", proc, ctx,
               pl == P ? "ws_flush" : vname[v], pl == P ? 0 : pl, pl == P ? "first" : gs[pl].label.c_str(), r,
               pct(us, 0.5), pct(us, 0.1), pct(us, 0.9), pct(us, 0.0), pct(us, 1.0), L, sm, mem, pw, temp, rs,
               now_s() - t_start);
      }
    }
  }
  fflush(stdout);
  for (auto& e : ev) cudaEventDestroy(e);
  for (auto& g : gs) cudaFree(g.gmaps);
  // allocations are freed by the context's destruction
  (void)keep;
}

// ------------------------------------------------------------------------------------------------ vmm mode
// Physical against virtual placement, and the clock: H physical allocations (cuMemCreate) x V reserved virtual
// ranges (cuMemAddressReserve); configuration (h, v) maps handle h at range v, so A, B and C have the physical
// pages of h at the addresses of v. Every timed launch is the PROBE instantiation, so each launch also gives its
// in-kernel SM clock (clock64 against globaltimer per CTA) and its length in cycles. Input data: random in [-1, 1)
// (full tensor power), all zero (low power), small integers.
static void run_vmm(int proc, int rounds, int L) {
  const int M = 4096, N = 4096, K = 4096;
  CK(cudaDeviceGetAttribute(&g_nsm, cudaDevAttrMultiProcessorCount, 0));
  set_all_attrs();
  cudaStream_t st;
  CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
  const int ntiles = (M / BM) * (N / BN);
  Probe* probes;
  CK(cudaMalloc(&probes, sizeof(Probe) * ntiles * L));
  // a process-dependent allocation first, as a collector's or a test's own buffers would be
  void* lead;
  const size_t lead_bytes = ((size_t)(proc * 37) % 1024 + 1) << 20;
  CK(cudaMalloc(&lead, lead_bytes));
  const size_t szA = (size_t)M * K * 2, szB = (size_t)N * K * 2, szC = (size_t)M * N * 2;
  CUmemAllocationProp prop = {};
  prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = 0;
  size_t gran = 0;
  CKD(cuMemGetAllocationGranularity(&gran, &prop, CU_MEM_ALLOC_GRANULARITY_RECOMMENDED));
  const size_t sz = (szA + szB + szC + gran - 1) / gran * gran;
  const int H = 3, V = 2;
  CUmemGenericAllocationHandle h[H];
  CUdeviceptr va[V];
  void* spacer[H];
  for (int i = 0; i < H; ++i) {
    CKD(cuMemCreate(&h[i], sz, &prop, 0));
    CK(cudaMalloc(&spacer[i], (size_t)(i + 1) * (96u << 20)));  // so the handles' pages are not neighbours
  }
  for (int j = 0; j < V; ++j) CKD(cuMemAddressReserve(&va[j], sz + (j ? (64u << 20) : 0), 0, 0, 0));
  CUmemAccessDesc ad = {};
  ad.location = prop.location;
  ad.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
  int mapped[V] = {-1, -1};
  auto map = [&](int i, int j) {
    if (mapped[j] == i) return;
    CK(cudaStreamSynchronize(st));
    if (mapped[j] >= 0) CKD(cuMemUnmap(va[j], sz));
    CKD(cuMemMap(va[j], sz, 0, h[i], 0));
    CKD(cuMemSetAccess(va[j], sz, &ad, 1));
    mapped[j] = i;
  };
  Gemm gv[V];
  for (int j = 0; j < V; ++j) {
    Gemm& g = gv[j];
    g.M = M, g.N = N, g.K = K;
    g.A = (std::uint16_t*)va[j];
    g.B = (std::uint16_t*)(va[j] + szA);
    g.C = (std::uint16_t*)(va[j] + szA + szB);
    map(0, j);
    build_maps(g);
    printf("VADDR,%d,%d,%p\n", proc, j, (void*)va[j]);
  }
  printf("VINFO,%d,gran=%zu,sz=%zu,lead=%zu\n", proc, gran, sz, lead_bytes);
  std::vector<cudaEvent_t> ev(2 * L);
  for (auto& e : ev) CK(cudaEventCreate(&e));
  const char* dname[] = {"rand", "zero", "ints"};
  std::vector<Probe> pr((size_t)ntiles * L);
  const double t_start = now_s();
  for (int data = 0; data < 3; ++data) {
    for (int i = 0; i < H; ++i) {  // fill each physical allocation through range 0
      map(i, 0);
      if (data == 1)
        CK(cudaMemsetAsync((void*)va[0], 0, szA + szB, st));
      else {
        fill_kernel<<<2048, 256, 0, st>>>((__nv_bfloat16*)va[0], (size_t)M * K, 11 + i, data == 2);
        fill_kernel<<<2048, 256, 0, st>>>((__nv_bfloat16*)(va[0] + szA), (size_t)N * K, 22 + i, data == 2);
      }
    }
    CK(cudaStreamSynchronize(st));
    for (int w = 0; w < 200; ++w) launch(WS, false, gv[0], st);  // warm up (power state) for this data
    for (int r = 0; r < rounds; ++r)
      for (int c = 0; c < H * V; ++c) {
        const int cfg = (c + r) % (H * V);
        const int i = cfg / V, j = cfg % V;
        map(i, j);
        const Gemm& g = gv[j];
        for (int w = 0; w < 5; ++w) launch(WS, false, g, st);
        for (int n = 0; n < L; ++n) {
          g_probe = probes + (size_t)n * ntiles;
          CK(cudaEventRecord(ev[2 * n], st));
          launch(WS, true, g, st);
          CK(cudaEventRecord(ev[2 * n + 1], st));
        }
        CK(cudaStreamSynchronize(st));
        CK(cudaMemcpy(pr.data(), probes, sizeof(Probe) * pr.size(), cudaMemcpyDeviceToHost));
        std::vector<double> us(L), mhz(L), kcyc(L), span(L);
        for (int n = 0; n < L; ++n) {
          float ms;
          CK(cudaEventElapsedTime(&ms, ev[2 * n], ev[2 * n + 1]));
          us[n] = ms * 1000.0;
          unsigned long long t0 = ~0ull, t1 = 0;
          std::vector<double> m;
          m.reserve(ntiles);
          for (int b = 0; b < ntiles; ++b) {
            const Probe& q = pr[(size_t)n * ntiles + b];
            t0 = std::min(t0, q.t0);
            t1 = std::max(t1, q.t1);
            if (q.t1 > q.t0) m.push_back((double)(q.c1 - q.c0) * 1000.0 / (double)(q.t1 - q.t0));
          }
          span[n] = (t1 - t0) / 1000.0;
          mhz[n] = pct(m, 0.5);
          kcyc[n] = span[n] * mhz[n] / 1000.0;
        }
        unsigned smc, mem, temp;
        double pw;
        unsigned long long rs;
        g_nvml.sample(smc, mem, pw, temp, rs);
        // VMEAS,proc,data,phys,virt,round,ev_med,ev_p10,ev_p90,span_med,mhz_med,mhz_p10,mhz_p90,kcyc_med,kcyc_p10,kcyc_p90,nvml_sm,pw,temp,reasons,t
        printf("VMEAS,%d,%s,%d,%d,%d,%.2f,%.2f,%.2f,%.2f,%.1f,%.1f,%.1f,%.2f,%.2f,%.2f,%u,%.1f,%u,0x%llx,%.3f\n", proc,
               dname[data], i, j, r, pct(us, 0.5), pct(us, 0.1), pct(us, 0.9), pct(span, 0.5), pct(mhz, 0.5),
               pct(mhz, 0.1), pct(mhz, 0.9), pct(kcyc, 0.5), pct(kcyc, 0.1), pct(kcyc, 0.9), smc, pw, temp, rs,
               now_s() - t_start);
      }
  }
  fflush(stdout);
}

// ------------------------------------------------------------------------------------------------ body mode
// What a gated test does: allocate A, B, C, fill, time, free. Repeated in one process: 'plain' bodies allocate
// again with nothing held in between; 'spacer' bodies first allocate (and keep) a spacer of a different size, so
// the body's buffers get other pages. A process-dependent lead allocation (lead MiB) comes first.
static void run_body(int proc, int lead_mib, int rounds, int L) {
  const int M = 4096, N = 4096, K = 4096;
  CK(cudaDeviceGetAttribute(&g_nsm, cudaDevAttrMultiProcessorCount, 0));
  set_all_attrs();
  cudaStream_t st;
  CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
  const int ntiles = (M / BM) * (N / BN);
  Probe* probes;
  CK(cudaMalloc(&probes, sizeof(Probe) * ntiles * L));
  void* lead = nullptr;
  if (lead_mib > 0) CK(cudaMalloc(&lead, (size_t)lead_mib << 20));
  const size_t szA = (size_t)M * K * 2, szB = (size_t)N * K * 2, szC = (size_t)M * N * 2;
  std::vector<cudaEvent_t> ev(2 * L);
  for (auto& e : ev) CK(cudaEventCreate(&e));
  std::vector<Probe> pr((size_t)ntiles * L);
  std::vector<void*> spacers;
  const double t_start = now_s();
  for (int b = 0; b < 12; ++b) {
    const bool spacer = b >= 4;  // bodies 0-3 plain, 4-11 each after a new spacer
    if (spacer) {
      void* sp;
      CK(cudaMalloc(&sp, (size_t)(((b * 29 + proc * 7) % 61) + 1) << 20));
      spacers.push_back(sp);
    }
    char *a, *bb, *c;
    CK(cudaMalloc(&a, szA));
    CK(cudaMalloc(&bb, szB));
    CK(cudaMalloc(&c, szC));
    Gemm g{};
    g.M = M, g.N = N, g.K = K;
    g.A = (std::uint16_t*)a, g.B = (std::uint16_t*)bb, g.C = (std::uint16_t*)c;
    fill_kernel<<<2048, 256, 0, st>>>((__nv_bfloat16*)g.A, (size_t)M * K, 11, 0);
    fill_kernel<<<2048, 256, 0, st>>>((__nv_bfloat16*)g.B, (size_t)N * K, 22, 0);
    build_maps(g);
    for (int w = 0; w < 100; ++w) launch(WS, false, g, st);
    std::vector<double> rmed, rk, rm;
    for (int r = 0; r < rounds; ++r) {
      for (int n = 0; n < L; ++n) {
        g_probe = probes + (size_t)n * ntiles;
        CK(cudaEventRecord(ev[2 * n], st));
        launch(WS, true, g, st);
        CK(cudaEventRecord(ev[2 * n + 1], st));
      }
      CK(cudaStreamSynchronize(st));
      CK(cudaMemcpy(pr.data(), probes, sizeof(Probe) * pr.size(), cudaMemcpyDeviceToHost));
      std::vector<double> us(L), mhz(L), kc(L);
      for (int n = 0; n < L; ++n) {
        float ms;
        CK(cudaEventElapsedTime(&ms, ev[2 * n], ev[2 * n + 1]));
        us[n] = ms * 1000.0;
        unsigned long long t0 = ~0ull, t1 = 0;
        std::vector<double> m;
        for (int q = 0; q < ntiles; ++q) {
          const Probe& x = pr[(size_t)n * ntiles + q];
          t0 = std::min(t0, x.t0);
          t1 = std::max(t1, x.t1);
          if (x.t1 > x.t0) m.push_back((double)(x.c1 - x.c0) * 1000.0 / (double)(x.t1 - x.t0));
        }
        mhz[n] = pct(m, 0.5);
        kc[n] = (t1 - t0) / 1000.0 * mhz[n] / 1000.0;
      }
      rmed.push_back(pct(us, 0.5));
      rk.push_back(pct(kc, 0.5));
      rm.push_back(pct(mhz, 0.5));
    }
    // BODY,proc,lead,kind,b,vaA,vaB,vaC,median_of_rounds_us,min_round,max_round,kcycles,mhz,t
    printf("BODY,%d,%d,%s,%d,%p,%p,%p,%.2f,%.2f,%.2f,%.1f,%.0f,%.2f\n", proc, lead_mib, spacer ? "spacer" : "plain", b,
           (void*)a, (void*)bb, (void*)c, pct(rmed, 0.5), pct(rmed, 0.0), pct(rmed, 1.0), pct(rk, 0.5), pct(rm, 0.5),
           now_s() - t_start);
    CK(cudaStreamSynchronize(st));
    cudaFree(g.gmaps);
    CK(cudaFree(a));
    CK(cudaFree(bb));
    CK(cudaFree(c));
  }
  fflush(stdout);
}

// ------------------------------------------------------------------------------------------------ timeline mode
// Bursts of back-to-back launches separated by idle gaps, as a gate's rounds are; every launch is the PROBE
// instantiation: its duration, its in-kernel SM clock and its length in cycles, against time since the first launch.
static void run_timeline(int proc, int bursts, int L, int gap_ms) {
  const int M = 4096, N = 4096, K = 4096;
  CK(cudaDeviceGetAttribute(&g_nsm, cudaDevAttrMultiProcessorCount, 0));
  set_all_attrs();
  cudaStream_t st;
  CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
  const int ntiles = (M / BM) * (N / BN);
  Probe* probes;
  CK(cudaMalloc(&probes, sizeof(Probe) * ntiles * L));
  const size_t szA = (size_t)M * K * 2, szB = (size_t)N * K * 2, szC = (size_t)M * N * 2;
  char *a, *b, *c;
  CK(cudaMalloc(&a, szA));
  CK(cudaMalloc(&b, szB));
  CK(cudaMalloc(&c, szC));
  Gemm g{};
  g.M = M, g.N = N, g.K = K;
  g.A = (std::uint16_t*)a, g.B = (std::uint16_t*)b, g.C = (std::uint16_t*)c;
  fill_kernel<<<2048, 256, 0, st>>>((__nv_bfloat16*)g.A, (size_t)M * K, 11, 0);
  fill_kernel<<<2048, 256, 0, st>>>((__nv_bfloat16*)g.B, (size_t)N * K, 22, 0);
  build_maps(g);
  CK(cudaStreamSynchronize(st));
  std::vector<cudaEvent_t> ev(2 * L);
  for (auto& e : ev) CK(cudaEventCreate(&e));
  std::vector<Probe> pr((size_t)ntiles * L);
  unsigned long long g0 = 0;
  for (int bu = 0; bu < bursts; ++bu) {
    if (bu) std::this_thread::sleep_for(std::chrono::milliseconds(gap_ms));
    for (int n = 0; n < L; ++n) {
      g_probe = probes + (size_t)n * ntiles;
      CK(cudaEventRecord(ev[2 * n], st));
      launch(WS, true, g, st);
      CK(cudaEventRecord(ev[2 * n + 1], st));
    }
    CK(cudaStreamSynchronize(st));
    CK(cudaMemcpy(pr.data(), probes, sizeof(Probe) * pr.size(), cudaMemcpyDeviceToHost));
    unsigned smc, mem, temp;
    double pw;
    unsigned long long rs;
    g_nvml.sample(smc, mem, pw, temp, rs);
    for (int n = 0; n < L; ++n) {
      float ms;
      CK(cudaEventElapsedTime(&ms, ev[2 * n], ev[2 * n + 1]));
      unsigned long long t0 = ~0ull, t1 = 0;
      std::vector<double> m;
      for (int q = 0; q < ntiles; ++q) {
        const Probe& x = pr[(size_t)n * ntiles + q];
        t0 = std::min(t0, x.t0);
        t1 = std::max(t1, x.t1);
        if (x.t1 > x.t0) m.push_back((double)(x.c1 - x.c0) * 1000.0 / (double)(x.t1 - x.t0));
      }
      if (!g0) g0 = t0;
      const double mhz = pct(m, 0.5);
      // TL,proc,burst,n,event_us,mhz,kcycles,t_ms_since_first,temp_at_burst_end
      printf("TL,%d,%d,%d,%.2f,%.0f,%.1f,%.2f,%u\n", proc, bu, n, ms * 1000.0, mhz, (t1 - t0) / 1000.0 * mhz / 1000.0,
             (t0 - g0) / 1e6, temp);
    }
  }
  fflush(stdout);
}

int main(int argc, char** argv) {
  setvbuf(stdout, nullptr, _IOLBF, 0);
  if (argc < 2) {
    fprintf(stderr,
            "usage: %s check | run <proc> <contexts> [rounds] [launches] | vmm <proc> [rounds] [launches] | body "
            "<proc> <lead MiB> [rounds] [launches] | timeline <proc> [bursts] [launches] [gap ms]\n",
            argv[0]);
    return 2;
  }
  g_nvml.init();
  CKD(cuInit(0));
  CUdevice dev;
  CKD(cuDeviceGet(&dev, 0));
  if (std::string(argv[1]) == "check") {
    CUcontext pc;
    CKD(cuDevicePrimaryCtxRetain(&pc, dev));
    CKD(cuCtxSetCurrent(pc));
    CK(cudaDeviceGetAttribute(&g_nsm, cudaDevAttrMultiProcessorCount, 0));
    set_all_attrs();
    CK(cudaMalloc(&g_probe, sizeof(Probe) * 4096));
    int bad = check_one(256, 512, 512, 0);
    bad += check_one(4096, 4096, 4096, 3000);
    printf("CHECK_DONE,%s\n", bad ? "FAIL" : "ok");
    return bad ? 1 : 0;
  }
  if (std::string(argv[1]) == "timeline") {
    CUcontext pc;
    CKD(cuDevicePrimaryCtxRetain(&pc, dev));
    CKD(cuCtxSetCurrent(pc));
    run_timeline(argc > 2 ? atoi(argv[2]) : 0, argc > 3 ? atoi(argv[3]) : 10, argc > 4 ? atoi(argv[4]) : 100,
                 argc > 5 ? atoi(argv[5]) : 200);
    return 0;
  }
  if (std::string(argv[1]) == "body") {
    CUcontext pc;
    CKD(cuDevicePrimaryCtxRetain(&pc, dev));
    CKD(cuCtxSetCurrent(pc));
    run_body(argc > 2 ? atoi(argv[2]) : 0, argc > 3 ? atoi(argv[3]) : 0, argc > 4 ? atoi(argv[4]) : 4,
             argc > 5 ? atoi(argv[5]) : 40);
    return 0;
  }
  if (std::string(argv[1]) == "vmm") {
    CUcontext pc;
    CKD(cuDevicePrimaryCtxRetain(&pc, dev));
    CKD(cuCtxSetCurrent(pc));
    run_vmm(argc > 2 ? atoi(argv[2]) : 0, argc > 3 ? atoi(argv[3]) : 4, argc > 4 ? atoi(argv[4]) : 40);
    return 0;
  }
  const int proc = argc > 2 ? atoi(argv[2]) : 0;
  const int nctx = argc > 3 ? atoi(argv[3]) : 1;
  const int rounds = argc > 4 ? atoi(argv[4]) : 4;
  const int L = argc > 5 ? atoi(argv[5]) : 30;
  for (int c = 0; c < nctx; ++c) {
    CUcontext ctx;
    if (c == 0) {
      CKD(cuDevicePrimaryCtxRetain(&ctx, dev));  // the runtime's own context, as an ordinary program has
    } else {
      CUctxCreateParams cp;
      memset(&cp, 0, sizeof(cp));
      CKD(cuCtxCreate(&ctx, &cp, 0, dev));  // a fresh context in the same process
    }
    CKD(cuCtxSetCurrent(ctx));
    run_context(proc, c, rounds, L);
    CK(cudaDeviceSynchronize());
    if (c == 0) {
      // free what the primary context holds so the next context's memory is not constrained
      // (the primary context itself stays; its allocations are released by freeing them)
    } else {
      CKD(cuCtxDestroy(ctx));
    }
  }
  return 0;
}
