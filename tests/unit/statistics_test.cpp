// Robust summaries of duration samples.

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>
#include <vector>

#include <bankgate/gate/rules/statistics.hpp>

namespace {

using namespace bankgate::gate;

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

TEST(MedianAbsoluteDeviation, EmptyInputThrows) { EXPECT_THROW(median_absolute_deviation({}), std::invalid_argument); }

TEST(Robustness, OnePreemptedLaunchBarelyMovesMedianAndMad) {
  std::vector<double> durations = {992, 996, 998, 1000, 1000, 1002, 1004, 1008, 1010};
  ASSERT_EQ(median(durations), 1000.0);
  ASSERT_EQ(median_absolute_deviation(durations), 4.0);

  durations.push_back(1e9);  // one launch preempted for a second
  EXPECT_EQ(median(durations), 1001.0);
  EXPECT_EQ(median_absolute_deviation(durations), 4.0);
}

TEST(MedianStandardError, IsReproducible) {
  const std::vector<double> samples = {1000, 1010, 990, 1032, 968, 1001, 999, 1100, 950, 1020};
  EXPECT_EQ(median_standard_error(samples), median_standard_error(samples));
}

TEST(MedianStandardError, ConstantSamplesHaveNone) {
  EXPECT_EQ(median_standard_error(std::vector<double>(100, 768.0)), 0.0);
  EXPECT_EQ(median_standard_error({768.0}), 0.0);
  EXPECT_THROW(median_standard_error({}), std::invalid_argument);
}

TEST(MedianStandardError, MatchesTheLargeSampleFormulaForNormalNoise) {
  // For normal samples the median's standard error tends to sqrt(pi/2) * sigma / sqrt(n).
  std::mt19937_64 generator(7);
  std::normal_distribution<double> normal(10000.0, 100.0);
  std::vector<double> samples;
  for (int i = 0; i < 400; ++i) samples.push_back(normal(generator));
  const double expected = std::sqrt(std::acos(-1.0) / 2.0) * 100.0 / std::sqrt(400.0);
  EXPECT_NEAR(median_standard_error(samples), expected, 0.25 * expected);
}

TEST(MedianStandardError, ShrinksWithMoreSamples) {
  std::mt19937_64 generator(11);
  std::normal_distribution<double> normal(10000.0, 100.0);
  std::vector<double> few, many;
  for (int i = 0; i < 50; ++i) few.push_back(normal(generator));
  for (int i = 0; i < 800; ++i) many.push_back(normal(generator));
  EXPECT_LT(median_standard_error(many), 0.5 * median_standard_error(few));
}

TEST(SummarizeDurations, FillsTheDistributionFields) {
  const std::vector<double> samples = {800, 768, 768, 736, 768, 832, 768, 768, 800, 768};
  const TimingSummary t = summarize_durations(samples);
  EXPECT_EQ(t.median_ns, 768.0);
  EXPECT_EQ(t.mad_ns, 0.0);
  EXPECT_EQ(t.min_ns, 736.0);
  EXPECT_EQ(t.samples, samples.size());
  EXPECT_DOUBLE_EQ(t.p90_ns, quantile(samples, 0.9));
  EXPECT_EQ(t.median_se_ns, median_standard_error(samples));
  EXPECT_EQ(t.l2, "warm");  // how the samples were taken is the caller's to say
  EXPECT_EQ(t.launches_per_sample, 1);
}

}  // namespace
