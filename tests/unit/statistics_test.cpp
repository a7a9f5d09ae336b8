// Robust summaries of duration samples.

#include <gtest/gtest.h>

#include <limits>
#include <stdexcept>
#include <vector>

#include <bankgate/harness/statistics.hpp>

namespace {

using namespace bankgate::harness;

TEST(Median, OddCountIsTheMiddleValue) {
  EXPECT_EQ(median({3, 1, 2}), 2.0);
  EXPECT_EQ(median({9, 1, 5, 7, 3}), 5.0);
}

TEST(Median, EvenCountIsTheMeanOfTheTwoMiddleValues) {
  EXPECT_EQ(median({4, 1, 3, 2}), 2.5);
  EXPECT_EQ(median({2048, 2016}), 2032.0);
}

TEST(Median, SingleValueIsItself) { EXPECT_EQ(median({42.5}), 42.5); }

TEST(Median, EmptyInputThrows) { EXPECT_THROW(median({}), std::invalid_argument); }

TEST(Quantile, EndsAreMinimumAndMaximum) {
  const std::vector<double> values = {30, 10, 50, 20, 40};
  EXPECT_EQ(quantile(values, 0.0), 10.0);
  EXPECT_EQ(quantile(values, 1.0), 50.0);
}

TEST(Quantile, InterpolatesLinearlyBetweenRanks) {
  const std::vector<double> values = {50, 40, 30, 20, 10};
  EXPECT_DOUBLE_EQ(quantile(values, 0.25), 20.0);  // rank 1 exactly
  EXPECT_DOUBLE_EQ(quantile(values, 0.1), 14.0);   // 40% of the way from 10 to 20
  EXPECT_DOUBLE_EQ(quantile(values, 0.9), 46.0);
  EXPECT_DOUBLE_EQ(quantile({0, 100}, 0.3), 30.0);
}

TEST(Quantile, OutsideZeroToOneThrows) {
  EXPECT_THROW(quantile({1, 2, 3}, -0.01), std::invalid_argument);
  EXPECT_THROW(quantile({1, 2, 3}, 1.01), std::invalid_argument);
  EXPECT_THROW(quantile({1, 2, 3}, std::numeric_limits<double>::quiet_NaN()), std::invalid_argument);
}

TEST(Quantile, EmptyInputThrows) { EXPECT_THROW(quantile({}, 0.5), std::invalid_argument); }

TEST(MedianAbsoluteDeviation, KnownSet) {
  // Median 2; deviations 1 1 0 0 2 4 7, whose median is 1.
  EXPECT_EQ(median_absolute_deviation({1, 1, 2, 2, 4, 6, 9}), 1.0);
}

TEST(MedianAbsoluteDeviation, IdenticalSamplesHaveNone) {
  EXPECT_EQ(median_absolute_deviation({2048, 2048, 2048}), 0.0);
}

TEST(MedianAbsoluteDeviation, EmptyInputThrows) {
  EXPECT_THROW(median_absolute_deviation({}), std::invalid_argument);
}

TEST(Robustness, OnePreemptedLaunchBarelyMovesMedianAndMad) {
  std::vector<double> durations = {992, 996, 998, 1000, 1000, 1002, 1004, 1008, 1010};
  ASSERT_EQ(median(durations), 1000.0);
  ASSERT_EQ(median_absolute_deviation(durations), 4.0);

  durations.push_back(1e9);  // one launch preempted for a second
  EXPECT_EQ(median(durations), 1001.0);
  EXPECT_EQ(median_absolute_deviation(durations), 4.0);
}

}  // namespace
