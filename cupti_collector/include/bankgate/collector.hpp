#pragma once
// bankgate::Collector profiles a callable that launches one or more CUDA kernels and returns, per kernel
// launch, hardware counter values (CUPTI Range Profiler, kernel replay) and GPU durations (CUPTI Activity
// API), each phase inside an NVTX range named after the label, so Nsight tools show the same names.
//
//   bankgate::Collector collector;                          // device 0, shared-memory metrics
//   auto counters = collector.collect_counters("transpose", [&] { transpose<<<grid, block>>>(out, in); });
//   double tpr = bankgate::transactions_per_request(counters.at(0), bankgate::SharedOp::load);
//   auto timing = collector.time_launches("transpose", [&] { transpose<<<grid, block>>>(out, in); });
//   // timing.at(0).durations_ns: samples after an adaptive warm-up, until the median is known to 0.5%
//
// Errors are CollectorError with a kind (errors.hpp). One Collector per device and process; CUPTI allows
// only one profiling client, so ncu or nsys attached to the same process makes construction fail.
// This header is the collector's whole interface: it includes the options (collector_options.hpp) and the
// checks that need no Collector (preflight.hpp: probe_device, count_passes), which the collector's own
// sources include in its place.

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <bankgate/collector_options.hpp>
#include <bankgate/errors.hpp>
#include <bankgate/metrics.hpp>
#include <bankgate/preflight.hpp>
#include <bankgate/results.hpp>

namespace bankgate {

class Collector {
 public:
  explicit Collector(CollectorOptions options = {});
  ~Collector();
  Collector(const Collector&) = delete;
  Collector& operator=(const Collector&) = delete;

  // Runs `launch` once with counters enabled. One entry per kernel launched, in launch order.
  std::vector<KernelCounters> collect_counters(std::string_view label, const std::function<void()>& launch,
                                               const CounterOptions& options = {});

  // Calls `launch` until durations are stable (warm-up), then samples durations until the stopping rule of
  // `options` is met, and returns each kernel's samples and how they were taken. Kernels are told apart by
  // their position within one call of `launch`; every call must launch the same kernels.
  std::vector<KernelTiming> time_launches(std::string_view label, const std::function<void()>& launch,
                                          const TimingOptions& options = {});

  // The same, for kernels whose speed depends on where their buffers lie (the physical pages an allocation gets,
  // which change from one allocation, and one process, to the next): each of `placements` launches the same
  // kernels on buffers of its own. Each placement is timed in turn, with an equal share of the time budget and of
  // the samples and the first one's launches per sample (later ones warm up as a warm device does:
  // TimingOptions::warm_start_samples), and each gives the merged samples as many as the fewest did, so the median
  // is the kernels' over those placements rather than one allocation's. One placement is time_launches.
  std::vector<KernelTiming> time_over_placements(std::string_view label,
                                                 const std::vector<std::function<void()>>& placements,
                                                 const TimingOptions& options = {});

  // Runs `launch` once with its instructions patched (SASS Metrics API) and returns, per kernel, what each
  // executed instruction did (kind, executions, shared wavefronts, global and local sectors, their ideals),
  // with its source line where the kernel was built with -lineinfo and its module was loaded after this
  // collector was made. Costs more than collect_counters (patching, a flush, a line lookup per instruction):
  // meant for recording baselines and explaining a counter that changed, not for every run.
  std::vector<KernelInstructions> attribute_instructions(std::string_view label, const std::function<void()>& launch,
                                                         const CounterOptions& options = {});

  // Why kernel `kernel_name` (as KernelTiming names it) ran code that the driver compiled from the PTX of another
  // architecture instead of code the build made for this GPU, e.g. "built for sm_75, this GPU is sm_90: the driver
  // JIT-compiled PTX; set CMAKE_CUDA_ARCHITECTURES=90 (90a for wgmma)" for a suite built without
  // CMAKE_CUDA_ARCHITECTURES. Such code has other instructions and other counters than the build's. Told by the
  // modules loaded since this collector was made (what the GPU ran) and by the program's own device code (what the
  // driver had to choose from). Empty where the code is this GPU's or nothing tells.
  std::string foreign_code(const std::string& kernel_name) const;

  // The phases of the last collect_counters call.
  const CounterPhases& last_counter_phases() const;
  // The phases of this collector's construction.
  const SetupPhases& setup_phases() const;

  const DeviceInfo& device() const;
  // Every metric collect_counters may report: the configured ones and, where read, the TMA traffic.
  const std::vector<std::string>& metrics() const;
  std::size_t passes() const;  // replay passes per kernel for the configured metrics

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace bankgate
