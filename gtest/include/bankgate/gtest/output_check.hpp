#pragma once
// Element-wise comparison of a kernel's output with its CPU reference, reporting the first mismatches.

#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <sstream>
#include <vector>

namespace bankgate::gtest {

// Exact equality, for integer outputs.
template <typename T>
::testing::AssertionResult equal_elements(const std::vector<T>& actual, const std::vector<T>& expected) {
  if (actual.size() != expected.size())
    return ::testing::AssertionFailure() << "output has " << actual.size() << " elements, reference "
                                         << expected.size();
  std::size_t wrong = 0;
  std::ostringstream first;
  for (std::size_t i = 0; i < actual.size(); ++i)
    if (!(actual[i] == expected[i]) && wrong++ < 5)
      first << "\n  [" << i << "] got " << actual[i] << ", want " << expected[i];
  if (wrong == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << wrong << " of " << actual.size() << " elements differ from the CPU reference"
                                       << first.str();
}

// ||actual - expected|| / ||expected|| <= bound, for floating-point outputs; NaN never passes.
template <typename T>
::testing::AssertionResult relative_error_within(const std::vector<T>& actual, const std::vector<T>& expected,
                                                 double bound) {
  if (actual.size() != expected.size())
    return ::testing::AssertionFailure() << "output has " << actual.size() << " elements, reference "
                                         << expected.size();
  double diff = 0.0, norm = 0.0;
  for (std::size_t i = 0; i < actual.size(); ++i) {
    const double d = static_cast<double>(actual[i]) - static_cast<double>(expected[i]);
    diff += d * d;
    norm += static_cast<double>(expected[i]) * static_cast<double>(expected[i]);
  }
  const double error = std::sqrt(diff) / (norm == 0.0 ? 1.0 : std::sqrt(norm));
  if (error <= bound) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "relative error " << error << " exceeds " << bound;
}

}  // namespace bankgate::gtest
