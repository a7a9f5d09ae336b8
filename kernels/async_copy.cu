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

}  // namespace

// Plain copy: global load into a register, then STS of the element width. Expect 1 (int), 2 (int2), 4 (int4)
// transactions per request for the shared stores and for the shared loads of the write-back.
template <typename T>
static __global__ void syncCopy(const T* in, T* out) {
  T* slice = shared_slice<T>();
  const T* block_in = in + static_cast<size_t>(blockIdx.x) * threads * per_thread;
  for (int i = 0; i < per_thread; ++i) slice[i * threads + threadIdx.x] = block_in[i * threads + threadIdx.x];
  __syncthreads();
  write_back(slice, out);
}

// Asynchronous copy: __pipeline_memcpy_async issues LDGSTS, which writes shared memory without a register and
// without an STS. What the H200 counts (settled on the GPU, and by ci/sass-report.sh):
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

SharedAccessExpectation expected_shared_access(AsyncCopy kernel) {
  switch (kernel) {
    case AsyncCopy::sync_4: return {1, 1, "32 consecutive 4-byte elements: 128 bytes, one wavefront"};
    case AsyncCopy::sync_8: return {2, 2, "32 consecutive 8-byte elements: 256 bytes, two wavefronts"};
    case AsyncCopy::sync_16: return {4, 4, "32 consecutive 16-byte elements: 512 bytes, four wavefronts"};
    case AsyncCopy::async_4:
      return {1, 0, "8 executed LDS of 1 wavefront per warp (the 3 predicated-off ones are no request); LDGSTS is no "
                    "shared store"};
    case AsyncCopy::async_8:
      return {2, 0, "8 executed LDS of 2 wavefronts per warp (the 3 predicated-off ones are no request); LDGSTS is no "
                    "shared store"};
    case AsyncCopy::async_16:
      return {4, 0, "8 executed LDS of 4 wavefronts per warp (the 3 predicated-off ones are no request); LDGSTS is no "
                    "shared store"};
  }
  return {0, 0, ""};
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
