#include <bankgate/kernels/offset_copy.cuh>

#include <bankgate/kernels/device_buffer.hpp>

// File-local kernels at global scope so that their demangled names are bare (see rect_tile.cu).
//
// Thread i (4096 blocks of 256, every thread inside: offset_copy_elements is a multiple of the block) copies
// in[i + Offset] to out[i]. A warp's 32 lanes read 32 consecutive ints and write 32 consecutive ints; cudaMalloc
// aligns both buffers to 256 bytes and warp w starts at int 32w, so:
//  - stores: bytes 128w .. 128w+127, sectors 4w .. 4w+3: 4 per request in both kernels;
//  - loads, Offset 0: the same 4 sectors;
//  - loads, Offset 1: bytes 128w+4 .. 128w+131, sectors 4w .. 4w+4: 5 per request (the 128 bytes straddle
//    one more sector boundary).
// No shared memory: both shared figures are 0 (no request).

namespace {

template <int Offset>
__device__ void copy_at(const int* in, int* out) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  out[i] = in[i + Offset];
}

}  // namespace

// Loads from a 128-byte boundary: 4 sectors per load request.
static __global__ void alignedCopy(const int* in, int* out) { copy_at<0>(in, out); }

// Loads shifted by one int: 5 sectors per load request.
static __global__ void misalignedCopy(const int* in, int* out) { copy_at<1>(in, out); }

namespace bankgate::kernels {

static_assert(offset_copy_elements % offset_copy_threads == 0, "every thread copies one element");

std::string_view kernel_name(OffsetCopy kernel) {
  switch (kernel) {
    case OffsetCopy::aligned: return "alignedCopy";
    case OffsetCopy::misaligned: return "misalignedCopy";
  }
  return "unknown";
}

int offset_of(OffsetCopy kernel) { return kernel == OffsetCopy::misaligned ? 1 : 0; }

AccessExpectation expected_access(OffsetCopy kernel) {
  switch (kernel) {
    case OffsetCopy::aligned:
      return shared_access_expectation(0, 0, "no shared memory; a warp loads and stores 128 bytes from a 128-byte "
                                             "boundary: 4 sectors each",
                                       {{key::global_load_sectors, 4}, {key::global_store_sectors, 4}});
    case OffsetCopy::misaligned:
      return shared_access_expectation(0, 0, "no shared memory; a warp loads 128 bytes starting 4 bytes past a "
                                             "sector boundary: 5 sectors; stores stay aligned: 4",
                                       {{key::global_load_sectors, 5}, {key::global_store_sectors, 4}});
  }
  return {};
}

void launch_offset_copy(OffsetCopy kernel, const int* in, int* out, cudaStream_t stream) {
  constexpr int blocks = offset_copy_elements / offset_copy_threads;
  switch (kernel) {
    case OffsetCopy::aligned: alignedCopy<<<blocks, offset_copy_threads, 0, stream>>>(in, out); break;
    case OffsetCopy::misaligned: misalignedCopy<<<blocks, offset_copy_threads, 0, stream>>>(in, out); break;
  }
  check_cuda(cudaGetLastError(), "kernel launch");
}

std::vector<int> offset_copy_reference(OffsetCopy kernel, const std::vector<int>& in) {
  const auto first = in.begin() + offset_of(kernel);
  return {first, first + offset_copy_elements};
}

}  // namespace bankgate::kernels
