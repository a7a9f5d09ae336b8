// The collector's timing rules that need no GPU: the stopping rule's noise estimate, the automatic number of
// launches per sample, the merge of samples taken at several placements of a kernel's buffers, and the clock monitor's reading of the driver's slowdown reasons and its behaviour
// where NVML cannot be used (no driver here; an unknown GPU on a machine with one).

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <bankgate/errors.hpp>

#include "activity_timer.hpp"
#include "clock_monitor.hpp"
#include "placements.hpp"

namespace {

using bankgate::detail::automatic_launches_per_sample;
using bankgate::detail::ClockMonitor;
using bankgate::detail::merge_placements;
using bankgate::detail::placement_share;
using bankgate::detail::relative_median_noise;

TEST(TimingRules, NoiseIsTheNormalTheoryStandardErrorOfTheMedianFromTheMad) {
  // Median 1000, MAD 10: sigma = 14.826, standard error 1.2533 * 14.826 / sqrt(4) = 9.29, relative 0.929%.
  const std::vector<double> samples{990, 1000, 1000, 1010};
  EXPECT_NEAR(relative_median_noise(samples, 0.0), 1.2533 * 1.4826 * 5.0 / 2.0 / 1000.0, 1e-12);
  std::vector<double> more;
  for (int i = 0; i < 100; ++i) more.insert(more.end(), samples.begin(), samples.end());
  EXPECT_NEAR(relative_median_noise(more, 0.0), relative_median_noise(samples, 0.0) / 10.0, 1e-12);  // 1 / sqrt(n)
}

TEST(TimingRules, IdenticalTicksDoNotPinTheMedianBelowTheTimerResolution) {
  const std::vector<double> ticks(50, 800.0);  // every launch 25 ticks: MAD 0
  const double floor = 1.2533 * (32.0 / std::sqrt(12.0)) / std::sqrt(50.0) / 800.0;
  EXPECT_NEAR(relative_median_noise(ticks, 32.0), floor, 1e-12);
  EXPECT_GT(relative_median_noise(ticks, 32.0), 0.0);
}

TEST(TimingRules, NoiseOfTooFewOrZeroSamplesIsUnknown) {
  EXPECT_TRUE(std::isinf(relative_median_noise({}, 32.0)));
  EXPECT_TRUE(std::isinf(relative_median_noise({800.0}, 32.0)));
  EXPECT_TRUE(std::isinf(relative_median_noise({0.0, 0.0, 0.0}, 32.0)));
}

TEST(TimingRules, ShortKernelsAverageEnoughLaunchesToSpan20Microseconds) {
  EXPECT_EQ(automatic_launches_per_sample(768, 20000, 64), 32);   // 24.6 us per sample
  EXPECT_EQ(automatic_launches_per_sample(1249, 20000, 64), 32);  // 16 launches: 19.98 us, just short
  EXPECT_EQ(automatic_launches_per_sample(1251, 20000, 64), 16);
  EXPECT_EQ(automatic_launches_per_sample(2000, 20000, 64), 16);  // 10 launches would do; powers of two only
  EXPECT_EQ(automatic_launches_per_sample(2529, 20000, 64), 8);
  EXPECT_EQ(automatic_launches_per_sample(11424, 20000, 64), 2);
  EXPECT_EQ(automatic_launches_per_sample(20000, 20000, 64), 1);
  EXPECT_EQ(automatic_launches_per_sample(66847, 20000, 64), 1);
  EXPECT_EQ(automatic_launches_per_sample(100, 20000, 64), 64);  // capped
  EXPECT_EQ(automatic_launches_per_sample(0, 20000, 64), 64);    // no duration: the cap, not a hang
  EXPECT_EQ(automatic_launches_per_sample(100, 20000, 48), 48);  // a cap that is no power of two holds
}

bankgate::KernelTiming part_timing(const std::string& kernel, std::vector<double> durations, int k = 4) {
  bankgate::KernelTiming t;
  t.kernel_name = kernel;
  t.durations_ns = std::move(durations);
  t.launches_per_sample = k;
  t.warmup_launches = 10;
  t.warmup_stable = true;
  t.sm_clock_mhz = 1980.0;
  t.stop_reason = "noise target reached";
  return t;
}

TEST(Placements, EachPlacementGivesAsManySamplesAsTheFewestSoEachWeighsTheSame) {
  // Two placements 10% apart, the slow one with three times the samples: pooled whole, the median would sit on the
  // slow placement; with equal shares it lies between them.
  std::vector<double> slow(150, 1100.0);
  slow[49] = 1101.0;  // the last sample the merge keeps
  slow[50] = 1102.0;  // the first it leaves out
  const std::vector<double> fast(50, 1000.0);
  bankgate::TimingOptions options;
  options.min_samples = 50;
  const auto merged = merge_placements({{part_timing("copy", fast)}, {part_timing("copy", slow)}}, options);
  ASSERT_EQ(merged.size(), 1u);
  const bankgate::KernelTiming& t = merged[0];
  ASSERT_EQ(t.durations_ns.size(), 100u);
  EXPECT_EQ(std::count(t.durations_ns.begin(), t.durations_ns.end(), 1000.0), 50);
  EXPECT_EQ(std::count(t.durations_ns.begin(), t.durations_ns.end(), 1100.0), 49);
  EXPECT_EQ(t.durations_ns.front(), 1000.0);  // in placement order, each placement's first samples
  EXPECT_EQ(t.durations_ns.back(), 1101.0);
  EXPECT_EQ(t.warmup_launches, 20u);
  EXPECT_EQ(t.launches_per_sample, 4);
  EXPECT_EQ(t.stop_reason, "over 2 placements: noise target reached");
  // The merged noise is that of the merged samples: two levels 10% apart are not known to 0.5%.
  EXPECT_NEAR(t.relative_noise, relative_median_noise(t.durations_ns, 32.0 / 4), 1e-15);
  EXPECT_FALSE(t.converged);
}

TEST(Placements, DroppedSamplesAddUpAndOneUnsettledPartMarksTheWhole) {
  auto a = part_timing("copy", std::vector<double>(60, 1000.0));
  auto b = part_timing("copy", std::vector<double>(60, 1001.0));
  auto c = part_timing("copy", std::vector<double>(60, 1002.0));
  auto d = part_timing("copy", std::vector<double>(60, 1003.0));
  b.dropped_samples = 25;
  c.dropped_samples = 5;
  b.warmup_stable = false;
  c.clocked_down = true;
  a.sm_clock_mhz = 1500.0;
  b.sm_clock_mhz = 1900.0;
  d.sm_clock_mhz = 0.0;  // not known at that placement: no part of the median
  b.stop_reason = "time budget spent";
  const auto merged = merge_placements({{a}, {b}, {c}, {d}}, {});
  ASSERT_EQ(merged.size(), 1u);
  EXPECT_EQ(merged[0].dropped_samples, 30u);
  EXPECT_FALSE(merged[0].warmup_stable);
  EXPECT_TRUE(merged[0].clocked_down);
  EXPECT_EQ(merged[0].sm_clock_mhz, 1900.0);  // the median of 1500, 1900 and 1980
  EXPECT_EQ(merged[0].stop_reason, "over 4 placements: noise target reached, time budget spent");
  EXPECT_TRUE(merged[0].converged);  // 240 samples, tightly grouped
}

TEST(Placements, EachPlacementTakesItsShareOfTheSamplesAndOfTheNoiseTarget) {
  bankgate::TimingOptions options;  // the gate's: 30 samples at least, 20000 at most, chunks of 15, 0.5%, 1 s
  const bankgate::TimingOptions part = placement_share(options, 8);
  EXPECT_EQ(part.min_samples, 4);  // 8 x 4 = 32: the merged samples still reach 30
  EXPECT_EQ(part.max_samples, 2500);
  EXPECT_EQ(part.chunk_samples, 4);  // a first chunk of 15 would take more than the share
  EXPECT_NEAR(part.target_relative_noise, 0.005 * std::sqrt(8.0), 1e-15);
  EXPECT_DOUBLE_EQ(part.time_budget_s, 0.125);
  EXPECT_EQ(part.warmup_window_samples, options.warmup_window_samples);  // the warm-up is not shared out

  const bankgate::TimingOptions whole = placement_share(options, 1);
  EXPECT_EQ(whole.min_samples, 30);
  EXPECT_EQ(whole.chunk_samples, 15);
  EXPECT_DOUBLE_EQ(whole.target_relative_noise, 0.005);

  options.min_samples = 3;  // fewer samples than placements: one each, never none
  EXPECT_EQ(placement_share(options, 8).min_samples, 1);
  EXPECT_EQ(placement_share(options, 8).chunk_samples, 1);
}

TEST(Placements, OnePlacementIsReturnedAsItIs) {
  auto only = part_timing("copy", {1000.0, 1001.0});
  only.relative_noise = 0.123;  // not recomputed
  const auto merged = merge_placements({{only}}, {});
  ASSERT_EQ(merged.size(), 1u);
  EXPECT_EQ(merged[0].stop_reason, "noise target reached");
  EXPECT_EQ(merged[0].relative_noise, 0.123);
}

TEST(Placements, KernelsAreMergedByPositionAndPartsMustAgreeOnThem) {
  const std::vector<bankgate::KernelTiming> two{part_timing("first", {1, 2, 3}), part_timing("second", {7, 8, 9})};
  const auto merged = merge_placements({two, two}, {});
  ASSERT_EQ(merged.size(), 2u);
  EXPECT_EQ(merged[1].kernel_name, "second");
  EXPECT_EQ(merged[1].durations_ns, (std::vector<double>{7, 8, 9, 7, 8, 9}));

  const auto refused = [](const std::vector<std::vector<bankgate::KernelTiming>>& parts, const std::string& says) {
    try {
      merge_placements(parts, {});
      ADD_FAILURE() << "merged parts that disagree: " << says;
    } catch (const bankgate::CollectorError& e) {
      EXPECT_NE(std::string(e.what()).find(says), std::string::npos) << e.what();
    }
  };
  refused({two, {two[0]}}, "placement 2 launched 1 kernels, the first 2");
  refused({two, {two[1], two[0]}}, "placement 2 launched second where the first launched first");
  refused({{part_timing("first", {1}, 4)}, {part_timing("first", {1}, 8)}}, "averaged 8 launches per sample");
  refused({{part_timing("first", {1}, 4)}, {part_timing("first", {}, 4)}}, "a placement gave no samples of first");
  refused({}, "needs at least one");
}

TEST(ClockMonitor, OnlySlowdownReasonsCountAsClockedDown) {
  EXPECT_FALSE(ClockMonitor::slowed_down(0x0));
  EXPECT_FALSE(ClockMonitor::slowed_down(0x1));    // GPU idle
  EXPECT_FALSE(ClockMonitor::slowed_down(0x2));    // application clocks
  EXPECT_FALSE(ClockMonitor::slowed_down(0x10));   // sync boost
  EXPECT_FALSE(ClockMonitor::slowed_down(0x100));  // display clock
  for (std::uint64_t bit : {0x4u, 0x8u, 0x20u, 0x40u, 0x80u}) EXPECT_TRUE(ClockMonitor::slowed_down(bit)) << bit;
  EXPECT_EQ(ClockMonitor::describe(0x1), "none");
  EXPECT_EQ(ClockMonitor::describe(0x4 | 0x40), "power cap, thermal (hardware)");
}

TEST(ClockMonitor, AnUnknownGpuGivesUnknownReadingsNotErrors) {
  const ClockMonitor monitor("0000:FF:1F.7");  // no such device, whether or not NVML is installed
  EXPECT_FALSE(monitor.available());
  EXPECT_FALSE(monitor.unavailable_reason().empty());
  EXPECT_FALSE(monitor.read().known);
}

}  // namespace
