#pragma once
// Kernel durations from the CUPTI Activity API: the GPU's own start/end timestamps of each launch, so host
// launch overhead and the gaps between launches never enter the numbers. Around them: an adaptive warm-up,
// a stopping rule on the noise of the median, optional L2 flushing, and SM clock checks (TimingOptions).

#include <chrono>
#include <cstddef>
#include <cuda_runtime_api.h>

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <bankgate/collector_options.hpp>

#include "clock_monitor.hpp"
#include "l2_flusher.hpp"

namespace bankgate::detail {

// Whether the device is known to be warm: it has just run timed kernels (the placements after the first of
// time_over_placements, or a measurement that ended moments ago with the clock still up). Then the warm-up is
// TimingOptions::warm_start_samples samples, discarded, to bring the call's own kernels and buffers into the caches;
// otherwise windows until the durations and the clock have settled. TimingOptions::short_warmup_when_warm false
// makes every start cold.
enum class WarmupStart { cold_device, warm_device };

class ActivityTimer {
 public:
  ActivityTimer(const std::string& pci_bus_id, L2Flusher& flusher);
  ActivityTimer(const ActivityTimer&) = delete;
  ActivityTimer& operator=(const ActivityTimer&) = delete;

  std::vector<KernelTiming> time(const std::function<void()>& launch, const TimingOptions& options,
                                 WarmupStart start = WarmupStart::cold_device);

 private:
  bool still_warm(const TimingOptions& options) const;

  ClockMonitor clocks_;
  L2Flusher& flusher_;              // for L2State::cold
  cudaDeviceProp device_{};         // the current device's limits, for the occupancy of each timed kernel
  double highest_clock_mhz_ = 0.0;  // over this collector's life: the clock an unthrottled GPU reaches
  std::optional<std::chrono::steady_clock::time_point> last_end_;  // of the latest measurement
};

// How long after a measurement the device still counts as warm, where its clock is still up: a suite's
// tests leave it idle for a few to a few hundred milliseconds between timings (counters, output checks).
inline constexpr std::chrono::milliseconds warm_device_gap{500};

// The GPU timer's tick on Hopper (and the Activity API's timestamps with it): durations are multiples of it.
inline constexpr double timer_tick_ns = 32.0;

// The stopping rule's noise estimate: 1.2533 x sigma / sqrt(n) / median with sigma = 1.4826 x MAD, but
// never below the spread that quantization by `resolution_ns` alone gives (resolution / sqrt(12)): a
// sample of identical ticks does not pin the median down to better than a tick. Infinity when undefined.
double relative_median_noise(const std::vector<double>& samples, double resolution_ns);

// The automatic launches per sample for a kernel of `duration_ns` (see TimingOptions::launches_per_sample).
int automatic_launches_per_sample(double duration_ns, double target_ns, int max_launches);

}  // namespace bankgate::detail
