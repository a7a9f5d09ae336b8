#pragma once
// An output compared with a reference on the GPU (bankgate/kernels/device_compare.cuh), reported as
// equal_elements reports a host comparison: how many elements differ, and some of them with both values.

#include <gtest/gtest.h>

#include <bankgate/kernels/device_buffer.hpp>
#include <bankgate/kernels/device_compare.cuh>

namespace bankgate::catalogue {

template <typename T>
T element_at(const T* device, std::size_t index) {
  T value{};
  kernels::check_cuda(cudaMemcpy(&value, device + index, sizeof(T), cudaMemcpyDeviceToHost), "cudaMemcpy to host");
  return value;
}

// `expected` holds the CPU reference, copied to the device (or a buffer known to equal it, such as a copy's input).
template <typename T>
::testing::AssertionResult equal_on_device(const kernels::DeviceBuffer<T>& actual,
                                           const kernels::DeviceBuffer<T>& expected) {
  if (actual.size() != expected.size())
    return ::testing::AssertionFailure() << "output has " << actual.size() << " elements, reference "
                                         << expected.size();
  const kernels::Differences found = kernels::differences(actual.get(), expected.get(), actual.size());
  if (found.count == 0) return ::testing::AssertionSuccess();
  ::testing::AssertionResult failure = ::testing::AssertionFailure();
  failure << found.count << " of " << actual.size() << " elements differ from the reference";
  for (const std::size_t i : found.sample)
    failure << "\n  [" << i << "] got " << element_at(actual.get(), i) << ", want " << element_at(expected.get(), i);
  return failure;
}

}  // namespace bankgate::catalogue
