#include <bankgate/kernels/device_compare.cuh>

#include <algorithm>

#include <bankgate/kernels/device_buffer.hpp>

namespace {

using bankgate::kernels::max_sample;

// found[0]: how many differ; found[1 .. max_sample]: indices of some of them (the first threads to find one).
template <typename T>
__global__ void countDifferences(const T* actual, const T* expected, std::size_t n, unsigned long long* found) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    if (actual[i] == expected[i]) continue;
    const unsigned long long seen = atomicAdd(&found[0], 1ULL);
    if (seen < max_sample) found[1 + seen] = i;
  }
}

template <typename T>
bankgate::kernels::Differences find_differences(const T* actual, const T* expected, std::size_t n) {
  using bankgate::kernels::check_cuda;
  check_cuda(cudaDeviceSynchronize(), "kernel execution");
  bankgate::kernels::DeviceBuffer<unsigned long long> found(1 + max_sample);
  check_cuda(cudaMemset(found.get(), 0, found.size() * sizeof(unsigned long long)), "cudaMemset");
  constexpr int threads = 256;
  const int blocks = static_cast<int>(std::min<std::size_t>((n + threads - 1) / threads, 4096));
  if (n > 0) countDifferences<<<blocks, threads>>>(actual, expected, n, found.get());
  check_cuda(cudaGetLastError(), "launching the comparison");
  const std::vector<unsigned long long> host = found.to_host();
  bankgate::kernels::Differences result;
  result.count = static_cast<std::size_t>(host[0]);
  for (std::size_t i = 0; i < std::min<std::size_t>(result.count, max_sample); ++i)
    result.sample.push_back(static_cast<std::size_t>(host[1 + i]));
  std::sort(result.sample.begin(), result.sample.end());
  return result;
}

}  // namespace

namespace bankgate::kernels {

Differences differences(const int* actual, const int* expected, std::size_t n) {
  return find_differences(actual, expected, n);
}

Differences differences(const float* actual, const float* expected, std::size_t n) {
  return find_differences(actual, expected, n);
}

}  // namespace bankgate::kernels
