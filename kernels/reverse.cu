#include <bankgate/kernels/reverse.cuh>

#include <bankgate/kernels/device_buffer.hpp>

// File-local kernels at global scope so that their demangled names are bare (see rect_tile.cu).
//
// Shared reversal never conflicts: a warp stores 32 consecutive words and loads 32 consecutive words in
// descending order; either way each of the 32 banks delivers one word. The reversal is done in shared memory
// so that both global accesses stay unit-stride (the seed's point about coalescing).

namespace {

constexpr int small_n = bankgate::kernels::reverse_small_elements;
constexpr int chunk = bankgate::kernels::reverse_large_block;

}  // namespace

// Static s[64], one block of 64 threads (two warps). Store s[t]: words 32w..32w+31. Load s[63-t]: warp 0 reads
// words 63..32, warp 1 words 31..0. Expect 1 transaction per request for stores and loads.
static __global__ void staticReverse(const int* in, int* out) {
  __shared__ int s[small_n];
  const int t = static_cast<int>(threadIdx.x);
  s[t] = in[t];
  __syncthreads();
  out[t] = s[small_n - 1 - t];
}

// The same with the array sized at launch (third launch parameter, n ints) and n passed in: the same words,
// so 1 transaction per request for stores and loads.
static __global__ void dynamicReverse(const int* in, int* out, int n) {
  extern __shared__ int s[];
  const int t = static_cast<int>(threadIdx.x);
  s[t] = in[t];
  __syncthreads();
  out[t] = s[n - 1 - t];
}

// Block b stages in[256b .. 256b+255] in s[256], then writes s reversed to the mirrored chunk, so that
// out[n-1-i] = in[i]. Each warp stores 32 consecutive words and loads 32 consecutive words descending:
// 1 transaction per request for stores and loads.
static __global__ void multiBlockReverse(const int* in, int* out, int n) {
  __shared__ int s[chunk];
  const int t = static_cast<int>(threadIdx.x);
  const int first = static_cast<int>(blockIdx.x) * chunk;
  s[t] = in[first + t];
  __syncthreads();
#ifdef BANKGATE_PLANTED_REGRESSION
  // Planted (cmake -DBANKGATE_PLANTED_REGRESSION=ON): instructions only. 16 dependent multiply-xor steps on a
  // value that is 0 at run time (n = 1<<20 is even and below 2^30) but that the compiler cannot know, added to
  // the stored value: the same loads, stores and output, and about 32 more executed instructions per warp on a
  // kernel of a few dozen, far above the instruction counters' 5% tolerance. Should fail
  // Reverse.multiBlockReverse on the executed-instruction counters (smsp__sass_inst_executed.sum,
  // smsp__sass_thread_inst_executed.sum) only.
  int zero = n & 1;
#pragma unroll
  for (int r = 0; r < 16; ++r) zero = (zero * 3) ^ (n >> 30);
  out[n - first - chunk + t] = s[chunk - 1 - t] + zero;
#else
  out[n - first - chunk + t] = s[chunk - 1 - t];
#endif
}

namespace bankgate::kernels {

static_assert(reverse_large_elements % reverse_large_block == 0, "multiBlockReverse reverses whole chunks");

std::string_view kernel_name(Reverse kernel) {
  switch (kernel) {
    case Reverse::static_reverse: return "staticReverse";
    case Reverse::dynamic_reverse: return "dynamicReverse";
    case Reverse::multi_block: return "multiBlockReverse";
  }
  return "unknown";
}

// Global side: every warp loads in[first + t] and stores out[...+t] for 32 consecutive t, both starting on a
// 128-byte boundary (warp offsets are multiples of 32 ints; multiBlockReverse's chunk offsets multiples of 256
// ints): 4 sectors per request for loads and stores, in all three kernels.
AccessExpectation expected_access(Reverse kernel) {
  const std::vector<ExpectedRatio> global{{key::global_load_sectors, 4}, {key::global_store_sectors, 4}};
  switch (kernel) {
    case Reverse::static_reverse:
      return shared_access_expectation(1, 1, "each warp stores 32 consecutive words and loads 32 consecutive words "
                                             "backwards; global accesses are 128 aligned bytes, 4 sectors", global);
    case Reverse::dynamic_reverse:
      return shared_access_expectation(1, 1, "as staticReverse: a dynamic declaration does not change the words "
                                             "touched; global accesses 4 sectors", global);
    case Reverse::multi_block:
      return shared_access_expectation(1, 1, "per 256-int chunk, each warp stores and loads (backwards) 32 "
                                             "consecutive words; global accesses are 128 aligned bytes, 4 sectors",
                                       global);
  }
  return {};
}

int reverse_elements(Reverse kernel) {
  return kernel == Reverse::multi_block ? reverse_large_elements : reverse_small_elements;
}

void launch_reverse(Reverse kernel, const int* in, int* out, cudaStream_t stream) {
  switch (kernel) {
    case Reverse::static_reverse: staticReverse<<<1, small_n, 0, stream>>>(in, out); break;
    case Reverse::dynamic_reverse:
      dynamicReverse<<<1, small_n, small_n * sizeof(int), stream>>>(in, out, small_n);
      break;
    case Reverse::multi_block:
      multiBlockReverse<<<reverse_large_elements / chunk, chunk, 0, stream>>>(in, out, reverse_large_elements);
      break;
  }
  check_cuda(cudaGetLastError(), "kernel launch");
}

std::vector<int> reverse_reference(const std::vector<int>& in) { return {in.rbegin(), in.rend()}; }

}  // namespace bankgate::kernels
