#pragma once
// Global-memory alignment (seed 003: alignment and stride affect how a warp's accesses coalesce): a
// plain copy out[i] = in[i + offset] with offset 0 (every warp reads 128 bytes from a 128-byte boundary) and
// offset 1 (the same 128 bytes shifted by one int: one more 32-byte sector per request). No shared memory.

#include <cuda_runtime_api.h>

#include <array>
#include <string_view>
#include <vector>

#include <bankgate/kernels/expectation.hpp>

namespace bankgate::kernels {

inline constexpr int offset_copy_threads = 256;
inline constexpr int offset_copy_elements = 1 << 20;                        // out; a multiple of the block
inline constexpr int offset_copy_input_elements = offset_copy_elements + 1;  // in: room for the offset

enum class OffsetCopy {
  aligned,     // alignedCopy: out[i] = in[i]
  misaligned,  // misalignedCopy: out[i] = in[i + 1]
};

inline constexpr std::array<OffsetCopy, 2> all_offset_copy_kernels{OffsetCopy::aligned, OffsetCopy::misaligned};

std::string_view kernel_name(OffsetCopy kernel);  // "alignedCopy", "misalignedCopy"
AccessExpectation expected_access(OffsetCopy kernel);
int offset_of(OffsetCopy kernel);  // 0 or 1

// `in` holds offset_copy_input_elements ints, `out` offset_copy_elements.
void launch_offset_copy(OffsetCopy kernel, const int* in, int* out, cudaStream_t stream = nullptr);

std::vector<int> offset_copy_reference(OffsetCopy kernel, const std::vector<int>& in);

}  // namespace bankgate::kernels
