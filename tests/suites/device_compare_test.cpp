// The catalogue's output check on the GPU (bankgate/kernels/device_compare.cuh) finds what differs: the GPU suites
// trust it to fail a kernel that writes a wrong element, so it is tested on its own, on a GPU. Without one each test
// is skipped, and ctest reports the entry skipped (tests/suites/CMakeLists.txt).

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include <bankgate/kernels/device_buffer.hpp>

#include "device_output_check.hpp"
#include "gpu_present.hpp"

namespace {

namespace k = bankgate::kernels;

class DeviceCompare : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!bankgate::test_support::gpu_present()) GTEST_SKIP() << "no GPU: the comparison runs on one";
  }
};

std::vector<int> counting(std::size_t n) {
  std::vector<int> values(n);
  for (std::size_t i = 0; i < n; ++i) values[i] = static_cast<int>(i);
  return values;
}

TEST_F(DeviceCompare, EqualArraysHaveNoDifference) {
  const std::vector<int> values = counting(1 << 22);
  const k::DeviceBuffer<int> a(values), b(values);
  const k::Differences found = k::differences(a.get(), b.get(), values.size());
  EXPECT_EQ(found.count, 0u);
  EXPECT_TRUE(found.sample.empty());
  EXPECT_TRUE(bankgate::catalogue::equal_on_device(a, b));
}

TEST_F(DeviceCompare, EveryDifferenceIsCountedAndSomeAreNamed) {
  std::vector<int> values = counting(1 << 22);
  const k::DeviceBuffer<int> expected(values);
  const std::vector<std::size_t> wrong{0, 17, 1 << 20, (1 << 22) - 1, 12345, 999999, 3000000};
  for (std::size_t i : wrong) values[i] = -1;
  const k::DeviceBuffer<int> actual(values);
  const k::Differences found = k::differences(actual.get(), expected.get(), values.size());
  EXPECT_EQ(found.count, wrong.size());
  ASSERT_EQ(found.sample.size(), k::max_sample);
  for (std::size_t i : found.sample) EXPECT_EQ(values[i], -1) << "index " << i << " does not differ";
  const ::testing::AssertionResult result = bankgate::catalogue::equal_on_device(actual, expected);
  EXPECT_FALSE(result);
  EXPECT_NE(std::string(result.message()).find("7 of 4194304 elements differ"), std::string::npos) << result.message();
  EXPECT_NE(std::string(result.message()).find("got -1, want"), std::string::npos) << result.message();
}

TEST_F(DeviceCompare, PoisonedFloatsAndNanDiffer) {
  std::vector<float> values(1 << 20, 1.5f);
  const k::DeviceBuffer<float> expected(values);
  values[5] = std::nanf("");
  k::DeviceBuffer<float> actual(values);
  EXPECT_EQ(k::differences(actual.get(), expected.get(), values.size()).count, 1u);
  actual.poison();  // as the gate does before the checked launch: a kernel that wrote nothing fails
  EXPECT_EQ(k::differences(actual.get(), expected.get(), values.size()).count, values.size());
}

TEST_F(DeviceCompare, BuffersOfDifferentSizesFail) {
  const k::DeviceBuffer<int> a(16), b(32);
  EXPECT_FALSE(bankgate::catalogue::equal_on_device(a, b));
}

}  // namespace
