#pragma once
// bankgate::Collector profiles a callable that launches one or more CUDA kernels and returns, per kernel
// launch, hardware counter values (CUPTI Range Profiler, kernel replay) and GPU durations (CUPTI Activity
// API), each phase inside an NVTX range named after the label, so Nsight tools show the same names.
//
//   bankgate::Collector collector;                          // device 0, shared-memory metrics
//   auto counters = collector.collect_counters("transpose", [&] { transpose<<<grid, block>>>(out, in); });
//   double tpr = bankgate::transactions_per_request(counters.at(0), bankgate::SharedOp::load);
//   auto timing = collector.time_launches("transpose", [&] { transpose<<<grid, block>>>(out, in); });
//
// Errors are CollectorError with a kind (errors.hpp). One Collector per device and process; CUPTI allows
// only one profiling client, so ncu or nsys attached to the same process makes construction fail.

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <bankgate/errors.hpp>
#include <bankgate/metrics.hpp>
#include <bankgate/results.hpp>

namespace bankgate {

struct CollectorOptions {
  int device = 0;
  std::vector<std::string> metrics = default_metric_names();
  // Kernel launches one collect_counters call may profile; more fails with ErrorKind::too_many_kernels.
  std::size_t max_kernels_per_call = 64;
};

struct TimingOptions {
  int warmup_launches = 20;  // untimed calls of the callable before sampling
  int timed_launches = 200;  // timed calls; each yields one duration per kernel it launches
};

class Collector {
 public:
  explicit Collector(CollectorOptions options = {});
  ~Collector();
  Collector(const Collector&) = delete;
  Collector& operator=(const Collector&) = delete;

  // Runs `launch` once with counters enabled. One entry per kernel launched, in launch order.
  std::vector<KernelCounters> collect_counters(std::string_view label, const std::function<void()>& launch);

  // Calls `launch` for warm-up, then `timed_launches` times, and returns each kernel's durations. Kernels are
  // told apart by their position within one call of `launch`.
  std::vector<KernelTiming> time_launches(std::string_view label, const std::function<void()>& launch,
                                          const TimingOptions& options = {});

  const DeviceInfo& device() const;
  const std::vector<std::string>& metrics() const;
  std::size_t passes() const;  // replay passes per kernel for the configured metrics

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Whether a usable CUDA device exists at `index`, without touching CUPTI (CUPTI calls have been seen to
// crash when no driver is present). `reason` says why not, in words a user can act on.
struct DeviceProbe {
  bool available = false;
  std::string reason;
  DeviceInfo info;
};
DeviceProbe probe_device(int index);

// Host-only metric configuration, needs no GPU: the number of replay passes `metrics` need on `chip_name`
// (e.g. "GH100"). Throws CollectorError(unknown_metric) naming the first metric the chip does not know.
std::size_t count_passes(const std::string& chip_name, const std::vector<std::string>& metrics);

}  // namespace bankgate
