#pragma once
// Seed 002's global-to-shared copies: a plain copy loop (global load into a register, shared store) against
// __pipeline_memcpy_async (LDGSTS: global to shared without a register), for elements of 4, 8 and 16 bytes
// (int, int2, int4). Each block stages its slice of the input in shared memory, waits, and writes the slice to
// the output from shared memory, so that the copy can be checked: out = in.

#include <cuda_runtime_api.h>

#include <array>
#include <string_view>
#include <vector>

#include <bankgate/kernels/expectation.hpp>

namespace bankgate::kernels {

inline constexpr int async_copy_threads = 256;   // per block
inline constexpr int async_copy_per_thread = 8;  // elements each thread copies (the seed's copy_count)
inline constexpr int async_copy_blocks = 512;

enum class AsyncCopy {
  sync_4,
  async_4,
  sync_8,
  async_8,
  sync_16,
  async_16,
};

inline constexpr std::array<AsyncCopy, 6> all_async_copy_kernels{AsyncCopy::sync_4, AsyncCopy::async_4,
                                                                  AsyncCopy::sync_8, AsyncCopy::async_8,
                                                                  AsyncCopy::sync_16, AsyncCopy::async_16};

std::string_view kernel_name(AsyncCopy kernel);  // "syncCopy<int>", "asyncCopy<int2>", ...
AccessExpectation expected_access(AsyncCopy kernel);

// How many ints `in` and `out` hold for this kernel: async_copy_blocks * async_copy_threads *
// async_copy_per_thread elements of its width.
int async_copy_ints(AsyncCopy kernel);

// Copies `in` to `out` through shared memory.
void launch_async_copy(AsyncCopy kernel, const int* in, int* out, cudaStream_t stream = nullptr);

// The copy's expected output: the input.
std::vector<int> async_copy_reference(const std::vector<int>& in);

}  // namespace bankgate::kernels
