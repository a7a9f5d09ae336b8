#include <bankgate/kernels/stride_width.cuh>

#include <stdexcept>

#include <bankgate/kernels/device_buffer.hpp>

// File-local kernels at global scope so that their demangled names are bare, e.g. "strideRead<3>" (see
// rect_tile.cu).
//
// Bank rule used throughout (seed 002): 32 banks of 4 bytes, byte address a in bank (a/4)%32. A request costs
// as many transactions (wavefronts) as the largest number of distinct 4-byte words one bank must deliver,
// lanes reading the same word sharing it (broadcast/multicast). When the lanes read distinct elements, also
// never fewer than the bytes the warp receives divided by 128: one wavefront returns at most 128 bytes (32
// banks x 4 bytes), so 32 lanes x 8 bytes need 2 and 32 lanes x 16 bytes need 4 however the addresses fall.
//
// Every thread of a block takes part in every shared access (no lane or warp is left out by a bounds check),
// so each request comes from a full warp.

namespace {

constexpr int threads = bankgate::kernels::word_access_threads;  // 1024: 32 warps
constexpr int tile_dim = 32;

// The words strideRead<Stride> fills: 32*Stride rounded up to whole rounds of the block, so that every
// thread stores in every round.
__host__ __device__ constexpr int stride_words(int stride) { return (32 * stride + threads - 1) / threads * threads; }
static_assert(stride_words(bankgate::kernels::word_access_max_stride) <= bankgate::kernels::word_access_input_words);

}  // namespace

// Lane l reads word l*Stride, bank (l*Stride)%32; the words are distinct, and each bank holds gcd(Stride, 32)
// of them. Expect gcd(Stride, 32) load transactions per request: 1 for the odd strides 1, 3 and 33, and
// 2, 4, 8, 16, 32 for strides 2, 4, 8, 16, 32. The fill stores 32 consecutive words per request: 1. All 32
// warps read the same words, so the block issues 32 load requests.
template <int Stride>
static __global__ void strideRead(const int* in, int* out) {
  constexpr int words_filled = stride_words(Stride);
  __shared__ int words[words_filled];
  for (int round = 0; round < words_filled / threads; ++round)  // 1 or 2 rounds, unrolled: no lane sits out
    words[round * threads + threadIdx.x] = in[round * threads + threadIdx.x];
  __syncthreads();
  const int lane = static_cast<int>(threadIdx.x) % 32;
  out[threadIdx.x] = words[lane * Stride];
}

// Warp w reads word w with all 32 lanes: one word, one bank, broadcast to the warp: 1 load transaction per
// request. The fill stores 32 consecutive words per request: 1.
static __global__ void broadcastRead(const int* in, int* out) {
  __shared__ int words[threads];
  words[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = words[threadIdx.x / 32];
}

namespace {

// Thread (x, y) stores in[32y+x] into tile element (y, x) (a warp walks row y) or (x, y) (a warp walks column
// y), and reads the same element back after the barrier, which keeps the compiler from forwarding the value.
template <typename T, int Pitch, bool ByColumn>
__device__ void copy_through_tile(const T* in, T* out) {
  __shared__ T tile[tile_dim][Pitch];
  const unsigned idx = threadIdx.y * tile_dim + threadIdx.x;
  T& slot = ByColumn ? tile[threadIdx.x][threadIdx.y] : tile[threadIdx.y][threadIdx.x];
  slot = in[idx];
  __syncthreads();
  out[idx] = slot;
}

}  // namespace

// Row-wise: the warp moves 32 consecutive elements. double: 256 bytes, each bank holding two of the words
// (lanes l and l+16): 2 transactions per request. float4: 512 bytes, four words per bank (lanes l, l+8,
// l+16, l+24): 4 transactions per request. Loads and stores alike; this is the best a warp can do at these
// widths on a 128-byte-per-wavefront shared memory.
template <typename T>
static __global__ void rowAccess(const T* in, T* out) {
  copy_through_tile<T, tile_dim, false>(in, out);
}

// Column-wise on an unpadded tile: the row pitch is 32 elements (256 bytes for double, 512 for float4), a
// multiple of 128 bytes, so all 32 lanes land in the same 2 (double) or 4 (float4) banks at 32 distinct
// addresses. Expect 32 transactions per request for loads and stores, both widths.
template <typename T>
static __global__ void colAccess(const T* in, T* out) {
  copy_through_tile<T, tile_dim, true>(in, out);
}

// Column-wise with one spare element per row (pitch 33 elements). double: lane x at word 66x+2y, banks
// (2x+2y)%32 and the next: lanes x and x+16 share a bank pair, every 16 consecutive lanes cover all 32
// banks once: 2 transactions per request, the 256-byte minimum. float4: lane x at word 132x+4y, banks
// (4x+4y)%32..+3: lanes x, x+8, x+16, x+24 share four banks, every 8 consecutive lanes cover all 32: 4 per
// request, the 512-byte minimum. Padding by one 4-byte word would misalign the elements; one element is the
// smallest pad that keeps them aligned.
template <typename T>
static __global__ void colAccessPad(const T* in, T* out) {
  copy_through_tile<T, tile_dim + 1, true>(in, out);
}

namespace bankgate::kernels {
namespace {

int stride_of(WordAccess kernel) {
  switch (kernel) {
    case WordAccess::stride_1: return 1;
    case WordAccess::stride_2: return 2;
    case WordAccess::stride_3: return 3;
    case WordAccess::stride_4: return 4;
    case WordAccess::stride_8: return 8;
    case WordAccess::stride_16: return 16;
    case WordAccess::stride_32: return 32;
    case WordAccess::stride_33: return 33;
    case WordAccess::broadcast: return 0;
  }
  return 0;
}

template <typename T>
void launch_wide(WideAccess kernel, const T* in, T* out, cudaStream_t stream) {
  const dim3 block(tile_dim, tile_dim);
  switch (kernel) {
    case WideAccess::row_double:
    case WideAccess::row_float4: rowAccess<T><<<1, block, 0, stream>>>(in, out); break;
    case WideAccess::col_double:
    case WideAccess::col_float4: colAccess<T><<<1, block, 0, stream>>>(in, out); break;
    case WideAccess::col_pad_double:
    case WideAccess::col_pad_float4: colAccessPad<T><<<1, block, 0, stream>>>(in, out); break;
  }
  check_cuda(cudaGetLastError(), "kernel launch");
}

}  // namespace

std::string_view kernel_name(WordAccess kernel) {
  switch (kernel) {
    case WordAccess::stride_1: return "strideRead<1>";
    case WordAccess::stride_2: return "strideRead<2>";
    case WordAccess::stride_3: return "strideRead<3>";
    case WordAccess::stride_4: return "strideRead<4>";
    case WordAccess::stride_8: return "strideRead<8>";
    case WordAccess::stride_16: return "strideRead<16>";
    case WordAccess::stride_32: return "strideRead<32>";
    case WordAccess::stride_33: return "strideRead<33>";
    case WordAccess::broadcast: return "broadcastRead";
  }
  return "unknown";
}

// Global side of the word kernels: the fill loads in[round*1024 + t] (strideRead: 1 or 2 rounds, broadcastRead
// one) and every thread stores out[t]: each warp request covers 32 consecutive ints from a 128-byte boundary,
// 4 sectors, loads and stores alike.
AccessExpectation expected_access(WordAccess kernel) {
  const auto shared = [](double load, std::string_view why) {
    return shared_access_expectation(load, 1, why, {{key::global_load_sectors, 4}, {key::global_store_sectors, 4}});
  };
  switch (kernel) {
    case WordAccess::stride_1: return shared(1, "stride 1: 32 consecutive words, one per bank; global 4 sectors");
    case WordAccess::stride_2: return shared(2, "stride 2: the even banks only, two words each; global 4 sectors");
    case WordAccess::stride_3:
      return shared(1, "stride 3 is odd, coprime to 32: lane l in bank 3l%32, all distinct; global 4 sectors");
    case WordAccess::stride_4: return shared(4, "stride 4: 8 banks, four words each; global 4 sectors");
    case WordAccess::stride_8: return shared(8, "stride 8: 4 banks, eight words each; global 4 sectors");
    case WordAccess::stride_16: return shared(16, "stride 16: banks 0 and 16, sixteen words each; global 4 sectors");
    case WordAccess::stride_32:
      return shared(32, "stride 32: one bank, 32 words (a column of a 32x32 tile); global 4 sectors");
    case WordAccess::stride_33:
      return shared(1, "stride 33 = 1 mod 32: lane l in bank l (the padded column); global 4 sectors");
    case WordAccess::broadcast:
      return shared(1, "every lane reads the same word: one bank access, broadcast; global 4 sectors");
  }
  return {};
}

void launch_word_access(WordAccess kernel, const int* in, int* out, cudaStream_t stream) {
  switch (kernel) {
    case WordAccess::stride_1: strideRead<1><<<1, threads, 0, stream>>>(in, out); break;
    case WordAccess::stride_2: strideRead<2><<<1, threads, 0, stream>>>(in, out); break;
    case WordAccess::stride_3: strideRead<3><<<1, threads, 0, stream>>>(in, out); break;
    case WordAccess::stride_4: strideRead<4><<<1, threads, 0, stream>>>(in, out); break;
    case WordAccess::stride_8: strideRead<8><<<1, threads, 0, stream>>>(in, out); break;
    case WordAccess::stride_16: strideRead<16><<<1, threads, 0, stream>>>(in, out); break;
    case WordAccess::stride_32: strideRead<32><<<1, threads, 0, stream>>>(in, out); break;
    case WordAccess::stride_33: strideRead<33><<<1, threads, 0, stream>>>(in, out); break;
    case WordAccess::broadcast: broadcastRead<<<1, threads, 0, stream>>>(in, out); break;
  }
  check_cuda(cudaGetLastError(), "kernel launch");
}

std::vector<int> word_access_reference(WordAccess kernel, const std::vector<int>& in) {
  const int stride = stride_of(kernel);
  std::vector<int> out(word_access_output_words);
  for (int t = 0; t < word_access_output_words; ++t)
    out[t] = kernel == WordAccess::broadcast ? in[t / 32] : in[(t % 32) * stride];
  return out;
}

bool uses_float4(WideAccess kernel) {
  return kernel == WideAccess::row_float4 || kernel == WideAccess::col_float4 || kernel == WideAccess::col_pad_float4;
}

std::string_view kernel_name(WideAccess kernel) {
  switch (kernel) {
    case WideAccess::row_double: return "rowAccess<double>";
    case WideAccess::col_double: return "colAccess<double>";
    case WideAccess::col_pad_double: return "colAccessPad<double>";
    case WideAccess::row_float4: return "rowAccess<float4>";
    case WideAccess::col_float4: return "colAccess<float4>";
    case WideAccess::col_pad_float4: return "colAccessPad<float4>";
  }
  return "unknown";
}

// Global side of the wide kernels: thread (x, y) loads in[32y+x] and stores out[32y+x] whatever the tile
// layout, so each warp request covers 32 consecutive elements from an aligned boundary: 256 bytes = 8 sectors
// (double), 512 bytes = 16 sectors (float4), loads and stores alike.
AccessExpectation expected_access(WideAccess kernel) {
  const auto wide = [kernel](double both, std::string_view why) {
    const double sectors = uses_float4(kernel) ? 16 : 8;
    return shared_access_expectation(both, both, why,
                                     {{key::global_load_sectors, sectors}, {key::global_store_sectors, sectors}});
  };
  switch (kernel) {
    case WideAccess::row_double:
      return wide(2, "32 consecutive doubles = 256 bytes = two 128-byte wavefronts; global 8 sectors");
    case WideAccess::col_double:
      return wide(32, "pitch 256 bytes: all lanes in one bank pair, 32 addresses; global 8 sectors");
    case WideAccess::col_pad_double:
      return wide(2, "pitch 33 doubles: 16 lanes cover the 32 banks once, the 256-byte minimum; global 8 sectors");
    case WideAccess::row_float4:
      return wide(4, "32 consecutive float4 = 512 bytes = four 128-byte wavefronts; global 16 sectors");
    case WideAccess::col_float4:
      return wide(32, "pitch 512 bytes: all lanes in the same four banks, 32 addresses; global 16 sectors");
    case WideAccess::col_pad_float4:
      return wide(4, "pitch 33 float4: 8 lanes cover the 32 banks once, the 512-byte minimum; global 16 sectors");
  }
  return {};
}

void launch_wide_access(WideAccess kernel, const double* in, double* out, cudaStream_t stream) {
  if (uses_float4(kernel)) throw std::invalid_argument("launch_wide_access: a float4 kernel given double buffers");
  launch_wide(kernel, in, out, stream);
}

void launch_wide_access(WideAccess kernel, const float4* in, float4* out, cudaStream_t stream) {
  if (!uses_float4(kernel)) throw std::invalid_argument("launch_wide_access: a double kernel given float4 buffers");
  launch_wide(kernel, in, out, stream);
}

}  // namespace bankgate::kernels
