#pragma once
// Where two device arrays differ, found on the device: a test checks an output of many megabytes against a reference
// already on the GPU without copying the output to the host (a 16 MiB transpose took 9-19 ms to check on the host,
// most of it the copy and the host's first touch of the memory it lands in).

#include <cstddef>
#include <vector>

namespace bankgate::kernels {

struct Differences {
  std::size_t count = 0;            // elements where actual != expected (a NaN differs from everything)
  std::vector<std::size_t> sample;  // up to `max_sample` of their indices, ascending, not necessarily the first
};

inline constexpr std::size_t max_sample = 5;

// Compares actual[i] with expected[i] for i < n, both device pointers, and synchronises the device first (the
// kernel that wrote `actual` must have finished). Throws std::runtime_error on a CUDA error.
Differences differences(const int* actual, const int* expected, std::size_t n);
Differences differences(const float* actual, const float* expected, std::size_t n);

}  // namespace bankgate::kernels
