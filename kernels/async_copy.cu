#include <bankgate/kernels/async_copy.cuh>

#include <cuda_pipeline.h>

#include <bankgate/kernels/device_buffer.hpp>

// File-local kernels at global scope so that their demangled names are bare, e.g. "asyncCopy<int2>" (see
// rect_tile.cu).
//
// Block b copies elements [b*256*8, (b+1)*256*8) of its type. In round i (i = 0..7) thread t moves element
// 256i+t of the slice into shared element 256i+t, as the seed does; after a barrier it writes shared element
// 256i+t to the output. Every warp touches 32 consecutive elements per request, so the bank figures are set by
// the element width alone: 32 x 4 bytes = 128 bytes fit one wavefront (1 per request), 32 x 8 = 256 bytes
// need 2, 32 x 16 = 512 bytes need 4, each bank delivering one word per wavefront.
//
// The dynamic shared array is declared as int4 so that it is aligned for the widest element.

namespace {

constexpr int threads = bankgate::kernels::async_copy_threads;
constexpr int per_thread = bankgate::kernels::async_copy_per_thread;

template <typename T>
__device__ T* shared_slice() {
  extern __shared__ int4 staging[];
  return reinterpret_cast<T*>(staging);
}

template <typename T>
__device__ void write_back(const T* slice, T* out) {
  T* block_out = out + static_cast<size_t>(blockIdx.x) * threads * per_thread;
  for (int i = 0; i < per_thread; ++i) block_out[i * threads + threadIdx.x] = slice[i * threads + threadIdx.x];
}

#ifdef BANKGATE_PLANTED_REGRESSION
// The element of its block's slice that lane l of the planted warp (warp 0 of block 0) moves in round i. Warp
// w owns elements 256r + 32w + m (rounds r = 0..7, m = 0..31); round i of lane l normally takes r = i, m = l.
// Both orders below give the warp each of its own 256 elements exactly once.
//  - strided_store: r = l>>2, m = 8(l&3) + ((r + i) & 7). For a fixed i the 32 lanes take 32 different
//    (r, m>>3) pairs, i.e. 32 different 32-byte pieces of 4-byte elements (32 sectors instead of 4), and 32
//    different m, i.e. 32 different banks (the shared load stays 1 wavefront); over i = 0..7 each lane's
//    (r, m) runs through 8 different m of its piece.
//  - conflicting_destination: r = 4(i>>2) + (l>>3), m = 8(i&3) + (l&7). Four groups of 8 consecutive elements
//    in four rounds' rows, all with the same m range: 4 aligned 32-byte pieces of global memory (4 sectors, as
//    before) but only 8 banks, each asked for 4 different words: a 4-way conflict, 4 wavefronts instead of 1.
//    Over i = 0..7, (i>>2, i&3, l>>3, l&7) runs through every (r, m) once.
// Only the planted warp takes these paths (a warp-uniform branch), so the other warps run the kernel's own code.
enum class Plant { strided_store, conflicting_destination };

__device__ bool planted_warp() { return blockIdx.x == 0 && threadIdx.x < 32; }

template <Plant P>
__device__ int planted_element(int i) {
  const int l = static_cast<int>(threadIdx.x);  // warp 0
  if (P == Plant::strided_store) {
    const int r = l >> 2;
    return r * threads + 8 * (l & 3) + ((r + i) & 7);
  }
  return (4 * (i >> 2) + (l >> 3)) * threads + 8 * (i & 3) + (l & 7);
}
#endif

}  // namespace

// Plain copy: global load into a register, then STS of the element width. Expect 1 (int), 2 (int2), 4 (int4)
// transactions per request for the shared stores and for the shared loads of the write-back.
template <typename T>
static __global__ void syncCopy(const T* in, T* out) {
  T* slice = shared_slice<T>();
  const T* block_in = in + static_cast<size_t>(blockIdx.x) * threads * per_thread;
  for (int i = 0; i < per_thread; ++i) slice[i * threads + threadIdx.x] = block_in[i * threads + threadIdx.x];
  __syncthreads();
#ifdef BANKGATE_PLANTED_REGRESSION
  if (sizeof(T) == 4 && planted_warp()) {
    // Planted (cmake -DBANKGATE_PLANTED_REGRESSION=ON) in syncCopy<int> only: warp 0 of block 0 writes its
    // elements back in the strided order of planted_element<Plant::strided_store> (see above): each of its 8
    // global stores hits 32 sectors instead of 4, its shared loads stay conflict-free and every element still
    // lands where it belongs. 8 of 32768 store requests, 224 more sectors on 131072 (0.17%); the other warps
    // run the normal write-back. Should fail AsyncCopy.Sync4 on global store sectors (per request, expected 4,
    // and the baseline's count).
    T* block_out = out + static_cast<size_t>(blockIdx.x) * threads * per_thread;
    for (int i = 0; i < per_thread; ++i) {
      const int e = planted_element<Plant::strided_store>(i);
      block_out[e] = slice[e];  // the planted strided store
    }
    return;
  }
#endif
  write_back(slice, out);
}

// Asynchronous copy: __pipeline_memcpy_async issues LDGSTS, which writes shared memory without a register and
// without an STS. What the H200 counts (settled on the GPU, and by tools/sass-report.sh):
//  - stores: LDGSTS is an instruction class of its own, counted neither as a shared store request nor as a
//    store wavefront, so 0 / 0 requests: reported as 0 (its wavefronts appear in the per-line figures as an
//    "other" access);
//  - loads: the 8 write-back LDS cost 1, 2 or 4 wavefronts as in syncCopy. ptxas also places 3 never-executing
//    `@!PT LDS RZ, [RZ]` per warp around the LDGSTS sequence; the hardware request counter
//    (smsp__inst_executed_op_shared_ld) counts them, 11 per warp, but the SASS-instrumented one the gate reads
//    counts executed instructions only: 8 per warp, so 1, 2 or 4 load transactions per request.
template <typename T>
static __global__ void asyncCopy(const T* in, T* out) {
  T* slice = shared_slice<T>();
  const T* block_in = in + static_cast<size_t>(blockIdx.x) * threads * per_thread;
#ifdef BANKGATE_PLANTED_REGRESSION
  if (sizeof(T) == 4 && planted_warp()) {
    // Planted (cmake -DBANKGATE_PLANTED_REGRESSION=ON) in asyncCopy<int> only: warp 0 of block 0 copies its
    // elements in the order of planted_element<Plant::conflicting_destination> (see above): each of its 8
    // LDGSTS still reads 4 global sectors but writes shared memory 4-way bank-conflicted, 4 wavefronts instead
    // of 1. Every element still lands in its own slot, so the write-back and the output are unchanged. 8 of
    // 32768 LDGSTS, 24 more wavefronts on 32768 (0.07%); the other warps run the normal copy. Should fail
    // AsyncCopy.Async4 on cp.async shared transactions (per request, expected 1, and the baseline's count) and
    // cp.async bank conflicts.
    for (int i = 0; i < per_thread; ++i) {
      const int e = planted_element<Plant::conflicting_destination>(i);
      __pipeline_memcpy_async(&slice[e], &block_in[e], sizeof(T));  // the planted conflicting destination
    }
  } else
#endif
  for (int i = 0; i < per_thread; ++i)
    __pipeline_memcpy_async(&slice[i * threads + threadIdx.x], &block_in[i * threads + threadIdx.x], sizeof(T));
  __pipeline_commit();
  __pipeline_wait_prior(0);  // this thread's copies have landed
  __syncthreads();           // and everyone else's
  write_back(slice, out);
}

namespace bankgate::kernels {
namespace {

int element_bytes(AsyncCopy kernel) {
  switch (kernel) {
    case AsyncCopy::sync_4:
    case AsyncCopy::async_4: return 4;
    case AsyncCopy::sync_8:
    case AsyncCopy::async_8: return 8;
    case AsyncCopy::sync_16:
    case AsyncCopy::async_16: return 16;
  }
  return 0;
}

template <typename T>
void launch_copy(bool async, const int* in, int* out, cudaStream_t stream) {
  const auto* typed_in = reinterpret_cast<const T*>(in);
  auto* typed_out = reinterpret_cast<T*>(out);
  constexpr std::size_t shared_bytes = threads * per_thread * sizeof(T);  // at most 32 KiB, under the 48 KiB default
  if (async)
    asyncCopy<T><<<async_copy_blocks, threads, shared_bytes, stream>>>(typed_in, typed_out);
  else
    syncCopy<T><<<async_copy_blocks, threads, shared_bytes, stream>>>(typed_in, typed_out);
}

}  // namespace

std::string_view kernel_name(AsyncCopy kernel) {
  switch (kernel) {
    case AsyncCopy::sync_4: return "syncCopy<int>";
    case AsyncCopy::async_4: return "asyncCopy<int>";
    case AsyncCopy::sync_8: return "syncCopy<int2>";
    case AsyncCopy::async_8: return "asyncCopy<int2>";
    case AsyncCopy::sync_16: return "syncCopy<int4>";
    case AsyncCopy::async_16: return "asyncCopy<int4>";
  }
  return "unknown";
}

// Global side. A warp's request always covers 32 consecutive elements of its type from a boundary of 32
// elements (block slices are 2048 elements, rounds 256): 128, 256 or 512 bytes, i.e. 4, 8 or 16 sectors.
//  - syncCopy: 8 LDG and 8 STG per warp, 4/8/16 sectors per request each.
//  - asyncCopy: no LDG at all (the global read is LDGSTS's, counted as cp.async: 0 global load requests,
//    reported 0); cp_async_sectors_per_request is the same 4/8/16, and cp_async_transactions_per_request (LDGSTS
//    shared wavefronts per LDGSTS) follows the STS rule of syncCopy: 32 consecutive elements of 4, 8, 16 bytes
//    in 1, 2, 4 wavefronts of 128 bytes. The 8 write-back STG: 4/8/16 sectors per request.
AccessExpectation expected_access(AsyncCopy kernel) {
  const double width = element_bytes(kernel);  // 4, 8, 16
  const double sectors = width * 32 / 32;      // 32 lanes x width bytes / 32-byte sectors
  const double wavefronts = width * 32 / 128;  // 32 lanes x width bytes / 128 bytes per wavefront
  const std::vector<ExpectedRatio> sync_global{{key::global_load_sectors, sectors},
                                               {key::global_store_sectors, sectors}};
  const std::vector<ExpectedRatio> async_global{{key::global_load_sectors, 0},
                                                {key::global_store_sectors, sectors},
                                                {key::cp_async_sectors, sectors},
                                                {key::cp_async_transactions, wavefronts}};
  switch (kernel) {
    case AsyncCopy::sync_4:
      return shared_access_expectation(1, 1, "32 consecutive 4-byte elements: 128 bytes, one wavefront; 4 sectors",
                                       sync_global);
    case AsyncCopy::sync_8:
      return shared_access_expectation(2, 2, "32 consecutive 8-byte elements: 256 bytes, two wavefronts; 8 sectors",
                                       sync_global);
    case AsyncCopy::sync_16:
      return shared_access_expectation(4, 4, "32 consecutive 16-byte elements: 512 bytes, four wavefronts; 16 "
                                             "sectors",
                                       sync_global);
    case AsyncCopy::async_4:
      return shared_access_expectation(1, 0, "8 executed LDS of 1 wavefront per warp (the 3 predicated-off ones are no "
                                             "request); LDGSTS is no shared store: 1 wavefront, 4 sectors per LDGSTS",
                                       async_global);
    case AsyncCopy::async_8:
      return shared_access_expectation(2, 0, "8 executed LDS of 2 wavefronts per warp (the 3 predicated-off ones are "
                                             "no request); LDGSTS is no shared store: 2 wavefronts, 8 sectors per "
                                             "LDGSTS",
                                       async_global);
    case AsyncCopy::async_16:
      return shared_access_expectation(4, 0, "8 executed LDS of 4 wavefronts per warp (the 3 predicated-off ones are "
                                             "no request); LDGSTS is no shared store: 4 wavefronts, 16 sectors per "
                                             "LDGSTS",
                                       async_global);
  }
  return {};
}

int async_copy_ints(AsyncCopy kernel) {
  return async_copy_blocks * threads * per_thread * (element_bytes(kernel) / 4);
}

void launch_async_copy(AsyncCopy kernel, const int* in, int* out, cudaStream_t stream) {
  switch (kernel) {
    case AsyncCopy::sync_4: launch_copy<int>(false, in, out, stream); break;
    case AsyncCopy::async_4: launch_copy<int>(true, in, out, stream); break;
    case AsyncCopy::sync_8: launch_copy<int2>(false, in, out, stream); break;
    case AsyncCopy::async_8: launch_copy<int2>(true, in, out, stream); break;
    case AsyncCopy::sync_16: launch_copy<int4>(false, in, out, stream); break;
    case AsyncCopy::async_16: launch_copy<int4>(true, in, out, stream); break;
  }
  check_cuda(cudaGetLastError(), "kernel launch");
}

std::vector<int> async_copy_reference(const std::vector<int>& in) { return in; }

}  // namespace bankgate::kernels
