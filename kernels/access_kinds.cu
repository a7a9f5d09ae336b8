#include <bankgate/kernels/access_kinds.cuh>

#include <bankgate/kernels/device_buffer.hpp>

// File-local kernels at global scope so that their demangled names are bare (see rect_tile.cu).
//
// 256 blocks of 256 threads, one input element per thread (every warp full), so:
//  - sharedHistogram: each thread adds its byte to its block's shared bins with atomicAdd (ATOMS: one request
//    per warp), then each thread adds one bin to the global histogram with atomicAdd whose result is unused
//    (RED.ADD: one request per warp, 32 consecutive words = 4 sectors per request). Shared atomic wavefronts
//    depend on how many lanes of a warp hit one bin, which the data decides: gated exactly, not stated.
//  - stackArray: each thread zeroes a 64-word array, adds to elements its data picks, then reads back the one its
//    input names. Indexed by data, the array lives in local memory (256 bytes of stack per thread), interleaved
//    word by word across a warp's 32 threads; the lanes pick different elements, so the local sectors per
//    request depend on the data: gated exactly, not stated.
//  - divergentBranch: odd lanes loop 8 to 15 times (their data decides), even lanes 3 times: the lanes of every
//    warp leave the loop at different trips, so its branch diverges.

namespace {

constexpr int bins = bankgate::kernels::histogram_bins;
constexpr int length = bankgate::kernels::stack_array_length;

}  // namespace

static __global__ void sharedHistogram(const std::uint32_t* in, std::uint32_t* out) {
  __shared__ unsigned int block_bins[bins];
  block_bins[threadIdx.x] = 0;  // 256 threads, 256 bins
  __syncthreads();
  atomicAdd(&block_bins[in[blockIdx.x * blockDim.x + threadIdx.x] & 0xffu], 1u);
  __syncthreads();
  atomicAdd(&out[threadIdx.x], block_bins[threadIdx.x]);
}

static __global__ void stackArray(const std::uint32_t* in, std::uint32_t* out) {
  const unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  std::uint32_t values[length] = {};
  std::uint32_t x = in[i];
  for (int k = 0; k < length; ++k) {
    x = x * 1664525u + 1013904223u;
    values[x % length] += static_cast<std::uint32_t>(k);  // scattered by the data: no register can hold it
  }
  out[i] = values[in[i] % length];
}

static __global__ void divergentBranch(const std::uint32_t* in, std::uint32_t* out) {
  const unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  std::uint32_t x = in[i];
  const std::uint32_t steps = threadIdx.x % 2 == 1 ? 8u + (x & 7u) : 3u;  // a trip count the data decides
  for (std::uint32_t k = 0; k < steps; ++k) x = x * 1664525u + 1013904223u;
  out[i] = x;
}

namespace bankgate::kernels {

std::string_view kernel_name(AccessKind kernel) {
  switch (kernel) {
    case AccessKind::histogram: return "sharedHistogram";
    case AccessKind::stack: return "stackArray";
    case AccessKind::divergent: return "divergentBranch";
  }
  return "unknown";
}

AccessExpectation expected_access(AccessKind kernel) {
  switch (kernel) {
    case AccessKind::histogram:
      // The bins' zeroing is one STS of 32 consecutive words per warp (1 wavefront); the reduction's reads of
      // the bins one LDS of 32 consecutive words (1); input loads and reductions 4 sectors per request.
      return shared_access_expectation(1, 1, "bins zeroed and read by 32 consecutive words per warp; the input and "
                                             "the reductions into the global bins are 128 consecutive bytes per warp",
                                       {{key::global_load_sectors, 4}, {key::global_reduction_sectors, 4}});
    case AccessKind::stack:
      return shared_access_expectation(0, 0, "no shared memory; 128 consecutive bytes per warp in and out; the "
                                             "local array's sectors depend on the data",
                                       {{key::global_load_sectors, 4}, {key::global_store_sectors, 4}});
    case AccessKind::divergent:
      return shared_access_expectation(0, 0, "no shared memory; 128 consecutive bytes per warp in and out",
                                       {{key::global_load_sectors, 4}, {key::global_store_sectors, 4}});
  }
  return {};
}

std::size_t access_kind_output_elements(AccessKind kernel) {
  return kernel == AccessKind::histogram ? static_cast<std::size_t>(histogram_bins) : static_cast<std::size_t>(access_kinds_elements);
}

void launch_access_kind(AccessKind kernel, const std::uint32_t* in, std::uint32_t* out, cudaStream_t stream) {
  switch (kernel) {
    case AccessKind::histogram: sharedHistogram<<<access_kinds_blocks, access_kinds_threads, 0, stream>>>(in, out); break;
    case AccessKind::stack: stackArray<<<access_kinds_blocks, access_kinds_threads, 0, stream>>>(in, out); break;
    case AccessKind::divergent: divergentBranch<<<access_kinds_blocks, access_kinds_threads, 0, stream>>>(in, out); break;
  }
  check_cuda(cudaGetLastError(), "kernel launch");
}

std::vector<std::uint32_t> access_kind_reference(AccessKind kernel, const std::vector<std::uint32_t>& in) {
  std::vector<std::uint32_t> out(access_kind_output_elements(kernel), 0);
  for (std::size_t i = 0; i < in.size(); ++i) {
    switch (kernel) {
      case AccessKind::histogram: ++out[in[i] & 0xffu]; break;
      case AccessKind::stack: {
        std::vector<std::uint32_t> values(length, 0);
        std::uint32_t x = in[i];
        for (int k = 0; k < length; ++k) {
          x = x * 1664525u + 1013904223u;
          values[x % length] += static_cast<std::uint32_t>(k);
        }
        out[i] = values[in[i] % length];
        break;
      }
      case AccessKind::divergent: {
        std::uint32_t x = in[i];
        const std::uint32_t steps = (i % access_kinds_threads) % 2 == 1 ? 8u + (x & 7u) : 3u;
        for (std::uint32_t k = 0; k < steps; ++k) x = x * 1664525u + 1013904223u;
        out[i] = x;
        break;
      }
    }
  }
  return out;
}

}  // namespace bankgate::kernels
