// The pass/fail rules: counter tolerances, the timing gate and the findings compare() produces.

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include <bankgate/harness/comparison.hpp>

namespace {

using namespace bankgate::harness;

constexpr double infinity = std::numeric_limits<double>::infinity();

double just_above(double x) { return std::nextafter(x, infinity); }
double just_below(double x) { return std::nextafter(x, -infinity); }

Tolerance exact() { return {}; }
Tolerance absolute(double amount) { return {Tolerance::Kind::absolute, amount, "test"}; }
Tolerance relative(double amount) { return {Tolerance::Kind::relative, amount, "test"}; }

TimingSummary timing(double median_ns, double relative_slack = 0.05, double absolute_ns = 64.0) {
  TimingSummary t;
  t.median_ns = median_ns;
  t.samples = 5;
  t.tolerance = {relative_slack, absolute_ns};
  return t;
}

TestRecord record_with(const std::string& metric, double value, Tolerance tolerance = {}) {
  TestRecord r;
  r.kernel = "setRowReadRow";
  r.counters[metric] = {value, tolerance};
  return r;
}

Finding only_finding(const std::vector<Finding>& findings) {
  if (findings.size() != 1) {
    ADD_FAILURE() << "expected one finding, got " << findings.size();
    return findings.empty() ? Finding{} : findings.front();
  }
  return findings.front();
}

// ---------------------------------------------------------------------------------------------------------------
// Counters

TEST(CounterTolerance, ExactPassesOnlyOnEquality) {
  EXPECT_TRUE(counter_within_tolerance(1024, 1024, exact()));
  EXPECT_FALSE(counter_within_tolerance(1025, 1024, exact()));
  EXPECT_FALSE(counter_within_tolerance(1023, 1024, exact()));
  EXPECT_FALSE(counter_within_tolerance(0, 1024, exact()));
}

TEST(CounterTolerance, ExactCounterChangeFailsInBothDirections) {
  const TestRecord baseline = record_with("wavefronts", 1024);
  for (const double measured : {1025.0, 1023.0, 32768.0, 0.0}) {
    SCOPED_TRACE(measured);
    const Finding f = only_finding(compare(baseline, record_with("wavefronts", measured)));
    EXPECT_EQ(f.verdict, Verdict::counter_changed);
    EXPECT_TRUE(is_failure(f.verdict));
    EXPECT_EQ(f.measured, measured);
    EXPECT_EQ(f.baseline, 1024.0);
  }
  const Finding same = only_finding(compare(baseline, record_with("wavefronts", 1024)));
  EXPECT_EQ(same.verdict, Verdict::pass);
  EXPECT_FALSE(is_failure(same.verdict));
}

TEST(CounterTolerance, AbsoluteAllowsUpToItsAmountEitherWay) {
  EXPECT_TRUE(counter_within_tolerance(1026, 1024, absolute(2)));
  EXPECT_TRUE(counter_within_tolerance(1022, 1024, absolute(2)));
  EXPECT_TRUE(counter_within_tolerance(1025, 1024, absolute(2)));
  EXPECT_FALSE(counter_within_tolerance(just_above(1026), 1024, absolute(2)));
  EXPECT_FALSE(counter_within_tolerance(just_below(1022), 1024, absolute(2)));
  EXPECT_FALSE(counter_within_tolerance(1027, 1024, absolute(2)));
}

TEST(CounterTolerance, RelativeAllowsUpToItsShareOfTheBaselineEitherWay) {
  // 0.25 is exact in binary, so the bound is exactly 250 on a baseline of 1000.
  EXPECT_TRUE(counter_within_tolerance(1250, 1000, relative(0.25)));
  EXPECT_TRUE(counter_within_tolerance(750, 1000, relative(0.25)));
  EXPECT_FALSE(counter_within_tolerance(just_above(1250), 1000, relative(0.25)));
  EXPECT_FALSE(counter_within_tolerance(just_below(750), 1000, relative(0.25)));
  EXPECT_FALSE(counter_within_tolerance(1300, 1000, relative(0.25)));
}

TEST(CounterTolerance, RelativeToleranceOfAZeroBaselineAllowsOnlyZero) {
  EXPECT_TRUE(counter_within_tolerance(0, 0, relative(0.5)));
  EXPECT_FALSE(counter_within_tolerance(1, 0, relative(0.5)));
}

TEST(CounterTolerance, NaNMeasurementNeverPasses) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_FALSE(counter_within_tolerance(nan, 1024, exact()));
  EXPECT_FALSE(counter_within_tolerance(nan, 1024, absolute(1e9)));
  EXPECT_FALSE(counter_within_tolerance(nan, 1024, relative(1e9)));
}

TEST(CounterTolerance, CompareUsesTheBaselinesTolerance) {
  // The tolerance travels with the baseline; whatever the measured record carries is ignored.
  const TestRecord baseline = record_with("requests", 1000, relative(0.25));
  EXPECT_EQ(only_finding(compare(baseline, record_with("requests", 1200))).verdict, Verdict::pass);
  EXPECT_EQ(only_finding(compare(baseline, record_with("requests", 1300))).verdict, Verdict::counter_changed);
  const TestRecord strict = record_with("requests", 1000);
  EXPECT_EQ(only_finding(compare(strict, record_with("requests", 1200, relative(0.25)))).verdict, Verdict::counter_changed);
}

TEST(CounterTolerance, CounterMissingFromTheBaselineIsAFailure) {
  const Finding f = only_finding(compare(TestRecord{}, record_with("wavefronts", 1024)));
  EXPECT_EQ(f.metric, "wavefronts");
  EXPECT_EQ(f.verdict, Verdict::not_in_baseline);
  EXPECT_EQ(f.measured, 1024.0);
  EXPECT_TRUE(is_failure(f.verdict));
}

TEST(CounterTolerance, CounterMissingFromTheRunIsAFailure) {
  const Finding f = only_finding(compare(record_with("wavefronts", 1024), TestRecord{}));
  EXPECT_EQ(f.metric, "wavefronts");
  EXPECT_EQ(f.verdict, Verdict::not_measured);
  EXPECT_EQ(f.baseline, 1024.0);
  EXPECT_TRUE(is_failure(f.verdict));
}

// ---------------------------------------------------------------------------------------------------------------
// Timing

TEST(TimingGate, EqualMediansPass) { EXPECT_EQ(judge_timing(2048, timing(2048)), Verdict::pass); }

TEST(TimingGate, RiseWithinRelativePlusAbsoluteSlackPasses) {
  // Slack on 1000 ns: 25% (250 ns) + 64 ns = 314 ns.
  EXPECT_EQ(judge_timing(1200, timing(1000, 0.25, 64)), Verdict::pass);
  EXPECT_EQ(judge_timing(1300, timing(1000, 0.25, 64)), Verdict::pass);
}

TEST(TimingGate, RiseBeyondTheSlackIsSlower) {
  EXPECT_EQ(judge_timing(1400, timing(1000, 0.25, 64)), Verdict::slower);
  EXPECT_TRUE(is_failure(Verdict::slower));
}

TEST(TimingGate, BoundaryOfTheRiseIsInclusive) {
  EXPECT_EQ(judge_timing(1314, timing(1000, 0.25, 64)), Verdict::pass);
  EXPECT_EQ(judge_timing(just_above(1314), timing(1000, 0.25, 64)), Verdict::slower);
}

TEST(TimingGate, DropBeyondTheSlackIsFasterButNotAFailure) {
  EXPECT_EQ(judge_timing(600, timing(1000, 0.25, 64)), Verdict::faster);
  EXPECT_FALSE(is_failure(Verdict::faster));
}

TEST(TimingGate, BoundaryOfTheDropIsInclusive) {
  EXPECT_EQ(judge_timing(686, timing(1000, 0.25, 64)), Verdict::pass);
  EXPECT_EQ(judge_timing(just_below(686), timing(1000, 0.25, 64)), Verdict::faster);
}

TEST(TimingGate, AbsoluteSlackAloneAppliesWithoutRelativePart) {
  EXPECT_EQ(judge_timing(1064, timing(1000, 0.0, 64)), Verdict::pass);
  EXPECT_EQ(judge_timing(1065, timing(1000, 0.0, 64)), Verdict::slower);
}

TEST(TimingGate, TwoTimerTicksOnAShortKernelAreNotASlowdownByDefault) {
  // The default tolerance exists for this: a 96 ns kernel read two 32 ns ticks later is quantization.
  TimingSummary baseline;
  baseline.median_ns = 96;
  EXPECT_EQ(judge_timing(160, baseline), Verdict::pass);
  EXPECT_EQ(judge_timing(192, baseline), Verdict::slower);
}

// ---------------------------------------------------------------------------------------------------------------
// compare() and the words for tolerances

TEST(Compare, OneFindingPerCounterPlusOneForDuration) {
  TestRecord baseline;
  baseline.counters["a.sum"] = {10, {}};
  baseline.counters["b.sum"] = {20, {}};
  baseline.counters["c.sum"] = {30, {}};
  baseline.timing = timing(1000);
  TestRecord measured = baseline;
  measured.counters["b.sum"].value = 21;
  measured.timing = timing(2000);

  const std::vector<Finding> findings = compare(baseline, measured);
  ASSERT_EQ(findings.size(), 4u);
  EXPECT_EQ(findings[0].metric, "a.sum");
  EXPECT_EQ(findings[1].metric, "b.sum");
  EXPECT_EQ(findings[2].metric, "c.sum");
  EXPECT_EQ(findings[0].verdict, Verdict::pass);
  EXPECT_EQ(findings[1].verdict, Verdict::counter_changed);
  EXPECT_EQ(findings[2].verdict, Verdict::pass);
  for (std::size_t i = 0; i < 3; ++i) EXPECT_FALSE(findings[i].timing) << i;

  const Finding& duration = findings[3];
  EXPECT_EQ(duration.metric, duration_metric);
  EXPECT_TRUE(duration.timing);
  EXPECT_EQ(duration.measured, 2000.0);
  EXPECT_EQ(duration.baseline, 1000.0);
  EXPECT_EQ(duration.verdict, Verdict::slower);
}

TEST(Compare, CountersPresentOnOneSideOnlyEachGetAFinding) {
  TestRecord baseline;
  baseline.counters["old.sum"] = {5, {}};
  baseline.counters["both.sum"] = {7, {}};
  TestRecord measured;
  measured.counters["both.sum"] = {7, {}};
  measured.counters["new.sum"] = {9, {}};

  const std::vector<Finding> findings = compare(baseline, measured);
  ASSERT_EQ(findings.size(), 3u);  // neither side has timing: no duration finding
  EXPECT_EQ(findings[0].metric, "both.sum");
  EXPECT_EQ(findings[0].verdict, Verdict::pass);
  EXPECT_EQ(findings[1].metric, "new.sum");
  EXPECT_EQ(findings[1].verdict, Verdict::not_in_baseline);
  EXPECT_EQ(findings[2].metric, "old.sum");
  EXPECT_EQ(findings[2].verdict, Verdict::not_measured);
}

TEST(Compare, DurationMissingOnEitherSideIsAFailure) {
  TestRecord with_timing;
  with_timing.timing = timing(1000);
  const Finding unmeasured = only_finding(compare(with_timing, TestRecord{}));
  EXPECT_TRUE(unmeasured.timing);
  EXPECT_EQ(unmeasured.verdict, Verdict::not_measured);
  EXPECT_TRUE(is_failure(unmeasured.verdict));

  const Finding new_timing = only_finding(compare(TestRecord{}, with_timing));
  EXPECT_TRUE(new_timing.timing);
  EXPECT_EQ(new_timing.verdict, Verdict::not_in_baseline);
  EXPECT_TRUE(is_failure(new_timing.verdict));
}

TEST(Compare, FasterRunIsReportedNotFailed) {
  TestRecord baseline;
  baseline.timing = timing(10000);
  TestRecord measured;
  measured.timing = timing(5000);
  const Finding f = only_finding(compare(baseline, measured));
  EXPECT_EQ(f.verdict, Verdict::faster);
  EXPECT_FALSE(is_failure(f.verdict));
}

TEST(Compare, FindingsCarryTheToleranceInWords) {
  TestRecord baseline;
  baseline.counters["exact.sum"] = {1, {}};
  baseline.counters["loose.sum"] = {1, relative(0.05)};
  baseline.timing = timing(1000, 0.05, 64);
  const std::vector<Finding> findings = compare(baseline, baseline);
  ASSERT_EQ(findings.size(), 3u);
  EXPECT_EQ(findings[0].tolerance, "exact");
  EXPECT_EQ(findings[1].tolerance, "+/-5% (test)");
  EXPECT_EQ(findings[2].tolerance, "median +/-5% +/-64 ns");
}

TEST(Compare, DescribeNamesKindAmountAndReason) {
  EXPECT_EQ(describe(Tolerance{}), "exact");
  EXPECT_EQ(describe(Tolerance{Tolerance::Kind::absolute, 2, "one replay per block"}), "+/-2 (one replay per block)");
  EXPECT_EQ(describe(Tolerance{Tolerance::Kind::relative, 0.125, "atomics"}), "+/-12.5% (atomics)");
  EXPECT_EQ(describe(TimingTolerance{0.1, 32}), "median +/-10% +/-32 ns");
}

TEST(Compare, OnlyPassAndFasterAreNotFailures) {
  EXPECT_FALSE(is_failure(Verdict::pass));
  EXPECT_FALSE(is_failure(Verdict::faster));
  EXPECT_TRUE(is_failure(Verdict::counter_changed));
  EXPECT_TRUE(is_failure(Verdict::slower));
  EXPECT_TRUE(is_failure(Verdict::not_in_baseline));
  EXPECT_TRUE(is_failure(Verdict::not_measured));
}

}  // namespace
