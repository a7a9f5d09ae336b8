// The pass/fail rules: counter tolerances, the timing gate and the findings compare() produces.

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <bankgate/gate/rules/baseline_changes.hpp>
#include <bankgate/gate/rules/comparison.hpp>
#include <bankgate/gate/rules/statistics.hpp>

namespace {

using namespace bankgate::gate;

constexpr double infinity = std::numeric_limits<double>::infinity();

double just_above(double x) { return std::nextafter(x, infinity); }
double just_below(double x) { return std::nextafter(x, -infinity); }

Tolerance exact() { return {}; }
Tolerance absolute(double amount) { return {Tolerance::Kind::absolute, amount, "test"}; }
Tolerance relative(double amount) { return {Tolerance::Kind::relative, amount, "test"}; }

TimingSummary timing(double median_ns, double relative_slack = 0.03, double absolute_ns = 64.0) {
  TimingSummary t;
  t.median_ns = median_ns;
  t.samples = 200;
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
  EXPECT_EQ(only_finding(compare(strict, record_with("requests", 1200, relative(0.25)))).verdict,
            Verdict::counter_changed);
}

TEST(CounterTolerance, CounterMissingFromTheBaselineIsAFailure) {
  const Finding f = only_finding(compare(TestRecord{}, record_with("wavefronts", 1024)));
  EXPECT_EQ(f.metric, "wavefronts");
  EXPECT_EQ(f.verdict, Verdict::not_in_baseline);
  EXPECT_EQ(f.measured, 1024.0);
  EXPECT_TRUE(is_failure(f.verdict));
}

// A baseline recorded before bankgate counted TMA stays valid for a kernel that moves nothing through it.
TEST(CounterTolerance, TableCounterTheBaselinePredatesReadingZeroPasses) {
  const std::string tma_loads = "smsp__sass_inst_executed_op_tma_ld.sum";
  const Finding zero = only_finding(compare(TestRecord{}, record_with(tma_loads, 0)));
  EXPECT_EQ(zero.verdict, Verdict::pass);
  EXPECT_NE(zero.tolerance.find("before this counter existed"), std::string::npos) << zero.tolerance;
  const Finding used = only_finding(compare(TestRecord{}, record_with(tma_loads, 64)));
  EXPECT_EQ(used.verdict, Verdict::not_in_baseline);
  EXPECT_TRUE(is_failure(used.verdict));
  // A zero of a counter outside the metric table is no reason to pass: nothing says the baseline predates it.
  EXPECT_EQ(only_finding(compare(TestRecord{}, record_with("wavefronts", 0))).verdict, Verdict::not_in_baseline);
}

TEST(CounterTolerance, CounterMissingFromTheRunIsAFailure) {
  const Finding f = only_finding(compare(record_with("wavefronts", 1024), TestRecord{}));
  EXPECT_EQ(f.metric, "wavefronts");
  EXPECT_EQ(f.verdict, Verdict::not_measured);
  EXPECT_EQ(f.baseline, 1024.0);
  EXPECT_TRUE(is_failure(f.verdict));
}

// ---------------------------------------------------------------------------------------------------------------
// Timing: the decision rule on synthetic samples

// Durations around `median_ns` with normal noise of `noise` (relative), from a fixed seed.
std::vector<double> durations(double median_ns, double noise, std::size_t n, unsigned seed) {
  std::mt19937_64 generator(seed);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::vector<double> out;
  for (std::size_t i = 0; i < n; ++i) out.push_back(median_ns * (1.0 + noise * normal(generator)));
  return out;
}

// As the GPU timer reports them: whole 32 ns ticks.
std::vector<double> quantized(std::vector<double> values) {
  for (double& v : values) v = 32.0 * std::round(v / 32.0);
  return values;
}

TimingEvidence from(const std::vector<double>& samples) { return evidence(summarize_durations(samples)); }

const TimingTolerance default_tolerance{};

TEST(TimingGate, SameDistributionPasses) {
  // Twenty pairs of independent draws of one distribution: none may be called slower or faster.
  for (unsigned seed = 1; seed <= 20; ++seed) {
    const TimingDecision d = judge_timing(from(durations(50000, 0.01, 200, seed)),
                                          from(durations(50000, 0.01, 200, seed + 100)), default_tolerance);
    EXPECT_EQ(d.verdict, Verdict::pass) << "seed " << seed << ": " << d.detail;
  }
}

TEST(TimingGate, ShiftBeyondTheToleranceIsSlower) {
  const TimingDecision d =
      judge_timing(from(durations(55000, 0.01, 200, 1)), from(durations(50000, 0.01, 200, 2)), default_tolerance);
  EXPECT_EQ(d.verdict, Verdict::slower) << d.detail;
  EXPECT_TRUE(d.significant);
  EXPECT_TRUE(d.beyond_tolerance);
  EXPECT_NEAR(d.ratio, 1.10, 0.01);
  EXPECT_LT(d.ratio_low, d.ratio);
  EXPECT_GT(d.ratio_high, d.ratio);
  EXPECT_TRUE(is_failure(d.verdict));
}

TEST(TimingGate, SignificantShiftWithinTheToleranceIsNotSlower) {
  // 1.5% slower with almost no noise: certainly real, but smaller than the 3% the test tolerates.
  const TimingDecision d =
      judge_timing(from(durations(50750, 0.001, 200, 1)), from(durations(50000, 0.001, 200, 2)), default_tolerance);
  EXPECT_TRUE(d.significant) << d.detail;
  EXPECT_FALSE(d.beyond_tolerance) << d.detail;
  EXPECT_EQ(d.verdict, Verdict::pass);
}

TEST(TimingGate, LargeShiftDrownedInNoiseIsNotSlower) {
  // 8% slower on paper, but with 30% noise and 25 samples a side the interval easily holds 1.
  const TimingDecision d =
      judge_timing(from(durations(54000, 0.30, 25, 1)), from(durations(50000, 0.30, 25, 2)), default_tolerance);
  EXPECT_FALSE(d.significant) << d.detail;
  EXPECT_EQ(d.verdict, Verdict::pass);
}

TEST(TimingGate, SpeedupIsReportedAndFailsOnlyWhenAskedTo) {
  const TimingDecision d =
      judge_timing(from(durations(45000, 0.01, 200, 1)), from(durations(50000, 0.01, 200, 2)), default_tolerance);
  EXPECT_EQ(d.verdict, Verdict::faster) << d.detail;
  EXPECT_FALSE(is_failure(d.verdict));
  EXPECT_TRUE(is_failure(d.verdict, /*fail_on_speedup=*/true));
}

TEST(TimingGate, TooFewSamplesDecideNothingAndFail) {
  const TimingDecision d = judge_timing(from(durations(90000, 0.01, min_timing_samples - 1, 1)),
                                        from(durations(50000, 0.01, 200, 2)), default_tolerance);
  EXPECT_EQ(d.verdict, Verdict::too_few_samples);
  EXPECT_NE(d.detail.find("too few"), std::string::npos) << d.detail;
  EXPECT_TRUE(is_failure(d.verdict));
  EXPECT_EQ(
      judge_timing(from(durations(50000, 0.01, 200, 1)), from(durations(50000, 0.01, 3, 2)), default_tolerance).verdict,
      Verdict::too_few_samples);
}

TEST(TimingGate, OneTimerTickOnAShortKernelIsQuantizationNotASlowdown) {
  // A 768 ns kernel read one 32 ns tick later in every launch: the medians differ by 32 ns, well inside the
  // 64 ns absolute part of the tolerance, although with identical samples the difference is "significant".
  const std::vector<double> base(200, 768.0), head(200, 800.0);
  const TimingDecision d = judge_timing(from(head), from(base), default_tolerance);
  EXPECT_TRUE(d.significant);
  EXPECT_EQ(d.verdict, Verdict::pass) << d.detail;
  // Four ticks (128 ns) exceed 3% of 768 ns plus 64 ns (87 ns).
  EXPECT_EQ(judge_timing(from(std::vector<double>(200, 896.0)), from(base), default_tolerance).verdict,
            Verdict::slower);
}

TEST(TimingGate, QuantizedNoisySamplesOfOneKernelPass) {
  for (unsigned seed = 1; seed <= 20; ++seed) {
    const TimingDecision d = judge_timing(from(quantized(durations(1900, 0.03, 300, seed))),
                                          from(quantized(durations(1900, 0.03, 300, seed + 50))), default_tolerance);
    EXPECT_EQ(d.verdict, Verdict::pass) << "seed " << seed << ": " << d.detail;
  }
}

TEST(TimingGate, ThresholdIsTheRelativePartPlusTheAbsolutePart) {
  // Baseline 1000 ns, tolerance 25% + 64 ns: a median of exactly 1314 ns is within; just above is beyond.
  const TimingTolerance tolerance{0.25, 64.0};
  const TimingEvidence base{1000.0, 0.0, 200};
  EXPECT_EQ(judge_timing({1314.0, 0.0, 200}, base, tolerance).verdict, Verdict::pass);
  EXPECT_EQ(judge_timing({just_above(1314.0), 0.0, 200}, base, tolerance).verdict, Verdict::slower);
  EXPECT_EQ(judge_timing({686.0, 0.0, 200}, base, tolerance).verdict, Verdict::pass);
  EXPECT_EQ(judge_timing({just_below(686.0), 0.0, 200}, base, tolerance).verdict, Verdict::faster);
}

TEST(TimingGate, StandardErrorsWidenTheInterval) {
  // 10% slower, but each median is uncertain by 5%: the 99% interval of the ratio reaches below 1.
  const TimingDecision d = judge_timing({1100.0, 55.0, 200}, {1000.0, 50.0, 200}, default_tolerance);
  EXPECT_FALSE(d.significant) << d.detail;
  EXPECT_LT(d.ratio_low, 1.0);
  EXPECT_EQ(d.verdict, Verdict::pass);
  EXPECT_EQ(judge_timing({1100.0, 5.5, 200}, {1000.0, 5.0, 200}, default_tolerance).verdict, Verdict::slower);
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

  // In the order that explains them (order_by_explanation: explain_order_test.cpp): the duration before counters
  // the metric table does not know, and of those the changed one first.
  const std::vector<Finding> findings = compare(baseline, measured);
  ASSERT_EQ(findings.size(), 4u);
  const Finding& duration = findings[0];
  EXPECT_EQ(duration.metric, duration_metric);
  EXPECT_TRUE(duration.timing);
  EXPECT_EQ(duration.measured, 2000.0);
  EXPECT_EQ(duration.baseline, 1000.0);
  EXPECT_EQ(duration.verdict, Verdict::slower);

  EXPECT_EQ(findings[1].metric, "b.sum");
  EXPECT_EQ(findings[2].metric, "a.sum");
  EXPECT_EQ(findings[3].metric, "c.sum");
  EXPECT_EQ(findings[1].verdict, Verdict::counter_changed);
  EXPECT_EQ(findings[2].verdict, Verdict::pass);
  EXPECT_EQ(findings[3].verdict, Verdict::pass);
  for (std::size_t i = 1; i < 4; ++i) EXPECT_FALSE(findings[i].timing) << i;
}

TEST(Compare, CountersPresentOnOneSideOnlyEachGetAFinding) {
  TestRecord baseline;
  baseline.counters["old.sum"] = {5, {}};
  baseline.counters["both.sum"] = {7, {}};
  TestRecord measured;
  measured.counters["both.sum"] = {7, {}};
  measured.counters["new.sum"] = {9, {}};

  // A counter that appeared or vanished is the largest change: those two first, in name order, then the one that stayed.
  const std::vector<Finding> findings = compare(baseline, measured);
  ASSERT_EQ(findings.size(), 3u);  // neither side has timing: no duration finding
  EXPECT_EQ(findings[0].metric, "new.sum");
  EXPECT_EQ(findings[0].verdict, Verdict::not_in_baseline);
  EXPECT_EQ(findings[1].metric, "old.sum");
  EXPECT_EQ(findings[1].verdict, Verdict::not_measured);
  EXPECT_EQ(findings[2].metric, "both.sum");
  EXPECT_EQ(findings[2].verdict, Verdict::pass);
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
  EXPECT_EQ(findings[0].tolerance,
            "median +/-5% +/-64 ns, and significant at 99%");  // the duration leads unknown counters
  EXPECT_EQ(findings[1].tolerance, "exact");
  EXPECT_EQ(findings[2].tolerance, "+/-5% (test)");
}

// A comparison takes the floor from the build it runs: the gate fails a case that raises it above its baseline's,
// so that a raised floor comes only through a refreshed, reviewed baseline.
TEST(Compare, ACaseRaisingItsComparisonFloorAboveItsBaselinesIsNamed) {
  TestRecord baseline, measured;
  baseline.timing = timing(7000);
  measured.timing = timing(7000);
  EXPECT_FALSE(floor_raised_beyond_baseline("Sync16", baseline, measured));
  measured.timing->tolerance.compare_floor = 0.015;
  const auto raised = floor_raised_beyond_baseline("Sync16", baseline, measured);
  ASSERT_TRUE(raised);
  EXPECT_TRUE(raised->loosens);
  EXPECT_EQ(raised->before, "the comparison's own");
  EXPECT_EQ(raised->after, "1.5%");
  EXPECT_EQ(raised->text(),
            "tolerance of the duration in comparisons (its floor) widened from the comparison's own to 1.5% in this "
            "change");
  baseline.timing->tolerance.compare_floor = 0.015;
  EXPECT_FALSE(floor_raised_beyond_baseline("Sync16", baseline, measured)) << "as recorded";
  measured.timing->tolerance.compare_floor = 0.0;
  EXPECT_FALSE(floor_raised_beyond_baseline("Sync16", baseline, measured)) << "lowered: the gate is not loosened";
  EXPECT_FALSE(floor_raised_beyond_baseline("Sync16", TestRecord{}, measured)) << "no timing in the baseline";
}

TEST(Compare, DescribeNamesKindAmountAndReason) {
  EXPECT_EQ(describe(Tolerance{}), "exact");
  EXPECT_EQ(describe(Tolerance{Tolerance::Kind::absolute, 2, "one replay per block"}), "+/-2 (one replay per block)");
  EXPECT_EQ(describe(Tolerance{Tolerance::Kind::relative, 0.125, "atomics"}), "+/-12.5% (atomics)");
  EXPECT_EQ(describe(TimingTolerance{0.1, 32}), "median +/-10% +/-32 ns, and significant at 99%");
}

TEST(Compare, OnlyPassAndFasterAreNotFailures) {
  EXPECT_FALSE(is_failure(Verdict::pass));
  EXPECT_FALSE(is_failure(Verdict::faster));
  EXPECT_TRUE(is_failure(Verdict::counter_changed));
  EXPECT_TRUE(is_failure(Verdict::slower));
  EXPECT_TRUE(is_failure(Verdict::not_in_baseline));
  EXPECT_TRUE(is_failure(Verdict::not_measured));
  EXPECT_TRUE(is_failure(Verdict::method_changed));
  EXPECT_TRUE(is_failure(Verdict::too_few_samples));
}

TEST(Compare, DurationsTakenAnotherWayAreNotCompared) {
  TestRecord baseline;
  baseline.timing = timing(1000);
  TestRecord measured = baseline;
  measured.timing->l2 = "cold";
  measured.timing->median_ns = 5000;  // would be SLOWER if compared at all
  Finding f = only_finding(compare(baseline, measured));
  EXPECT_EQ(f.verdict, Verdict::method_changed);
  EXPECT_NE(f.detail.find("L2 warm"), std::string::npos) << f.detail;
  EXPECT_NE(f.detail.find("refresh"), std::string::npos) << f.detail;

  measured = baseline;
  measured.timing->launches_per_sample = 16;
  EXPECT_EQ(only_finding(compare(baseline, measured)).verdict, Verdict::method_changed);
}

TEST(Compare, DurationFindingExplainsItsStatistics) {
  TestRecord baseline;
  baseline.timing = timing(1000);
  TestRecord measured = baseline;
  measured.timing->median_ns = 1200;
  const Finding f = only_finding(compare(baseline, measured));
  EXPECT_EQ(f.verdict, Verdict::slower);
  EXPECT_NE(f.detail.find("+20.00%"), std::string::npos) << f.detail;
  EXPECT_NE(f.detail.find("significant"), std::string::npos) << f.detail;
}

}  // namespace
