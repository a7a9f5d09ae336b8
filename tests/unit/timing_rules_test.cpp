// The collector's timing rules that need no GPU: the stopping rule's noise estimate, the automatic number of
// launches per sample, and the clock monitor's reading of the driver's slowdown reasons and its behaviour
// where NVML cannot be used (no driver here; an unknown GPU on a machine with one).

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "activity_timer.hpp"
#include "clock_monitor.hpp"

namespace {

using bankgate::detail::automatic_launches_per_sample;
using bankgate::detail::ClockMonitor;
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
