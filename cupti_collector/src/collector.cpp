#include <bankgate/collector.hpp>

#include <cupti.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>
#include <nvtx3/nvToolsExt.h>

#include "activity_timer.hpp"
#include "check.hpp"
#include "cupti_callbacks.hpp"
#include "l2_flusher.hpp"
#include "lap_timer.hpp"
#include "module_cubins.hpp"
#include "placements.hpp"
#include "program_code.hpp"
#include "range_profiler.hpp"
#include "sass_attribution.hpp"

namespace bankgate {
namespace {

// Names the measured region in Nsight Systems / Nsight Compute timelines ("bankgate/<label>/counters").
class NvtxRange {
 public:
  NvtxRange(std::string_view label, std::string_view phase) {
    const std::string name = "bankgate/" + std::string(label) + "/" + std::string(phase);
    nvtxRangePushA(name.c_str());
  }
  ~NvtxRange() { nvtxRangePop(); }
  NvtxRange(const NvtxRange&) = delete;
  NvtxRange& operator=(const NvtxRange&) = delete;
};

}  // namespace

struct Collector::Impl {
  CollectorOptions options;
  DeviceInfo device;
  std::unique_ptr<detail::ModuleCubins> cubins;
  std::unique_ptr<detail::CuptiCallbacks> callbacks;  // made before the context, so no module loads unseen
  std::unique_ptr<detail::L2Flusher> flusher;
  std::unique_ptr<detail::RangeProfiler> profiler;
  std::unique_ptr<detail::ActivityTimer> timer;
  std::unique_ptr<detail::SassAttributor> attributor;  // made on first use: most runs never attribute
  std::optional<std::size_t> traffic_set;              // the TMA traffic alone (a second run)
  std::optional<std::size_t> combined_set;             // the gate's metrics and the TMA traffic: two passes
  bool combined = false;                               // counting with combined_set since a TMA kernel
  int combined_without_tma = 0;                        // calls in a row since then that had no TMA kernel
  std::vector<std::string> metrics;                    // every metric a record of this collector can hold
  SetupPhases setup;

  std::optional<std::size_t> add_optional_set(const std::vector<std::string>& names, std::size_t passes = 1);
  void add_traffic_sets();
  std::vector<KernelCounters> count(const std::function<void()>& launch, const CounterOptions& counter_options);
  void add_tma_traffic(const std::function<void()>& launch, const CounterOptions& counter_options,
                       std::vector<KernelCounters>& counters);
  std::vector<KernelCounters> run_again(const std::function<void()>& launch, const CounterOptions& counter_options,
                                        std::size_t set, std::size_t kernels);
};

// A set the chip may lack (no TMA or wgmma before Hopper): none there, and nothing of it to count.
std::optional<std::size_t> Collector::Impl::add_optional_set(const std::vector<std::string>& names,
                                                             std::size_t passes) {
  try {
    return profiler->add_metric_set(names, passes);
  } catch (const CollectorError& e) {
    if (e.kind() != ErrorKind::unknown_metric) throw;
    return std::nullopt;
  }
}

// The TMA traffic is hardware counters, which no pass of instrumented metrics holds, and a profiler object counts
// one set: moving to another costs a fresh object, whose first Start takes 130-170 ms on an H200. So after a TMA
// kernel the collector stays on a set of both, in two passes (about 25 ms a call), until as many calls without TMA
// have passed as one fresh object costs (bench/RESULTS-collector-speed.md).
void Collector::Impl::add_traffic_sets() {
  const std::vector<std::string> traffic = metric_names(CounterSet::tma_traffic);
  traffic_set = add_optional_set(traffic);
  if (!traffic_set) return;
  std::vector<std::string> both = options.metrics;
  both.insert(both.end(), traffic.begin(), traffic.end());
  combined_set = add_optional_set(both, 2);
  profiler->prepare(0);  // set 0 first, on the object the constructor made, with no fresh one
}

std::vector<KernelCounters> Collector::Impl::run_again(const std::function<void()>& launch,
                                                       const CounterOptions& counter_options, std::size_t set,
                                                       std::size_t kernels) {
  if (counter_options.l2 == L2State::cold) {
    flusher->enqueue();
    BANKGATE_CUDA(cudaDeviceSynchronize());
  }
  std::vector<KernelCounters> again = profiler->collect(launch, set);
  if (again.size() != kernels)
    throw CollectorError(ErrorKind::cupti_failure, "a further counter pass saw " + std::to_string(again.size()) +
                                                       " kernel launches where the "
                                                       "first saw " +
                                                       std::to_string(kernels) +
                                                       ": a case's launch must launch the same kernels "
                                                       "every time it is called");
  return again;
}

namespace {

constexpr int calls_a_fresh_object_pays_for = 6;  // 150 ms for a fresh object, 25 ms for a call of two passes

bool executed_tma(const std::vector<KernelCounters>& counters) {
  const std::string tma(metric::tma_instructions);
  return std::any_of(counters.begin(), counters.end(), [&](const KernelCounters& k) {
    const auto found = k.values.find(tma);
    return found != k.values.end() && found->second > 0.0;
  });
}

bool traffic_read(const std::vector<KernelCounters>& counters) {
  return std::all_of(counters.begin(), counters.end(), [](const KernelCounters& k) {
    return std::none_of(k.values.begin(), k.values.end(), [](const auto& value) { return std::isnan(value.second); });
  });
}

}  // namespace

// One call's counters: on the set of both while a TMA kernel was seen lately (falling back to the plain set, and
// the traffic alone, should the set of both read NaN), otherwise the gate's set and the traffic where TMA ran.
std::vector<KernelCounters> Collector::Impl::count(const std::function<void()>& launch,
                                                   const CounterOptions& counter_options) {
  if (combined) {
    std::vector<KernelCounters> both = profiler->collect(launch, *combined_set);
    if (traffic_read(both)) {
      combined_without_tma = executed_tma(both) ? 0 : combined_without_tma + 1;
      combined = combined_without_tma < calls_a_fresh_object_pays_for;
      return both;
    }
    combined = false;
    if (counter_options.l2 == L2State::cold) {
      flusher->enqueue();
      BANKGATE_CUDA(cudaDeviceSynchronize());
    }
  }
  std::vector<KernelCounters> counters = profiler->collect(launch);
  const CounterPhases phases = profiler->last_phases();
  const auto counted = std::chrono::steady_clock::now();
  add_tma_traffic(launch, counter_options, counters);
  CounterPhases with_traffic = phases;
  with_traffic.tma_traffic_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - counted).count();
  profiler->restore_phases(with_traffic);
  return counters;
}

// The TMA traffic (hardware counters of the L1's crossbar ports, which no instrumented metric has) in a second
// run of the launch, only when a kernel executed TMA instructions: a kernel that executed none moved no byte
// through the engine and gets 0 without the run.
void Collector::Impl::add_tma_traffic(const std::function<void()>& launch, const CounterOptions& counter_options,
                                      std::vector<KernelCounters>& counters) {
  if (!traffic_set) return;
  if (!executed_tma(counters)) {
    for (KernelCounters& k : counters)
      for (const std::string& name : metric_names(CounterSet::tma_traffic)) k.values[name] = 0.0;
    return;
  }
  std::vector<KernelCounters> again;
  if (combined_set) {
    again = run_again(launch, counter_options, *combined_set, counters.size());
    combined = traffic_read(again);
    combined_without_tma = 0;
  }
  if (!combined) again = run_again(launch, counter_options, *traffic_set, counters.size());
  for (std::size_t i = 0; i < counters.size(); ++i)
    for (const std::string& name : metric_names(CounterSet::tma_traffic))
      counters[i].values[name] = again[i].values.at(name);
}

Collector::Collector(CollectorOptions options) : impl_(std::make_unique<Impl>()) {
  impl_->options = std::move(options);
  const CollectorOptions& o = impl_->options;
  if (o.room_for_kernels == 0 || o.room_for_kernels > o.max_kernels_per_call)
    throw CollectorError(ErrorKind::invalid_options, "CollectorOptions::room_for_kernels is " +
                                                         std::to_string(o.room_for_kernels) +
                                                         "; give at least 1 and at most max_kernels_per_call (" +
                                                         std::to_string(o.max_kernels_per_call) + ")");
  detail::LapTimer laps;
  DeviceProbe probe = probe_device(impl_->options.device);
  if (!probe.available) throw CollectorError(ErrorKind::no_gpu, probe.reason);
  impl_->device = probe.info;
  laps.add_lap(impl_->setup.probe_ms);
  BANKGATE_CUDA(cudaSetDevice(impl_->options.device));
  impl_->cubins = std::make_unique<detail::ModuleCubins>();
  impl_->callbacks = std::make_unique<detail::CuptiCallbacks>(*impl_->cubins);
  BANKGATE_CUDA(cudaFree(nullptr));  // creates the primary context CUPTI attaches to
  laps.add_lap(impl_->setup.context_ms);
  BANKGATE_CUPTI(cuptiGetVersion(&impl_->device.cupti_version));
  impl_->profiler =
      std::make_unique<detail::RangeProfiler>(detail::current_context(), impl_->options.device, impl_->options.metrics,
                                              impl_->options.max_kernels_per_call, impl_->options.room_for_kernels);
  impl_->profiler->count_launches_with(*impl_->callbacks);
  impl_->device.chip_name = impl_->profiler->chip_name();
  const auto& metrics = impl_->options.metrics;
  if (impl_->options.tma_traffic &&
      std::find(metrics.begin(), metrics.end(), metric::tma_instructions) != metrics.end())
    impl_->add_traffic_sets();
  impl_->metrics = metrics;
  if (impl_->traffic_set)
    for (const std::string& name : metric_names(CounterSet::tma_traffic)) impl_->metrics.push_back(name);
  laps.add_lap(impl_->setup.profiler_ms);
  impl_->profiler->add_setup_parts(impl_->setup);
  impl_->flusher = std::make_unique<detail::L2Flusher>(impl_->options.device);
  laps.add_lap(impl_->setup.flusher_ms);
  impl_->timer = std::make_unique<detail::ActivityTimer>(impl_->device.pci_bus_id, *impl_->flusher);
  laps.add_lap(impl_->setup.timer_ms);
}

Collector::~Collector() = default;

std::vector<KernelCounters> Collector::collect_counters(std::string_view label, const std::function<void()>& launch,
                                                        const CounterOptions& options) {
  const NvtxRange range(label, "counters");
  BANKGATE_CUDA(cudaSetDevice(impl_->options.device));
  const auto start = std::chrono::steady_clock::now();
  if (options.l2 == L2State::cold) {
    impl_->flusher->enqueue();
    BANKGATE_CUDA(cudaDeviceSynchronize());  // done before the profiler starts: never part of a range
  }
  const double flush_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  std::vector<KernelCounters> counters = impl_->count(launch, options);
  impl_->profiler->note_flush(flush_ms);
  return counters;
}

std::vector<KernelTiming> Collector::time_launches(std::string_view label, const std::function<void()>& launch,
                                                   const TimingOptions& options) {
  const NvtxRange range(label, "timing");
  BANKGATE_CUDA(cudaSetDevice(impl_->options.device));
  return impl_->timer->time(launch, options);
}

std::vector<KernelTiming> Collector::time_over_placements(std::string_view label,
                                                          const std::vector<std::function<void()>>& placements,
                                                          const TimingOptions& options) {
  if (placements.empty()) throw CollectorError(ErrorKind::invalid_options, "time_over_placements: no placement");
  const NvtxRange range(label, "timing");
  BANKGATE_CUDA(cudaSetDevice(impl_->options.device));
  TimingOptions part = detail::placement_share(options, placements.size());
  std::vector<std::vector<KernelTiming>> parts;
  for (const std::function<void()>& launch : placements) {
    // After the first placement the device has just run these kernels, its clocks up: a later placement only
    // needs its own buffers brought into the caches, which the short warm-up of a warm device does (unless the
    // options say no: the timer decides).
    const auto start = parts.empty() ? detail::WarmupStart::cold_device : detail::WarmupStart::warm_device;
    parts.push_back(impl_->timer->time(launch, part, start));
    if (!parts.front().empty()) part.launches_per_sample = parts.front().front().launches_per_sample;
  }
  return detail::merge_placements(parts, options);
}

std::vector<KernelInstructions> Collector::attribute_instructions(std::string_view label,
                                                                  const std::function<void()>& launch,
                                                                  const CounterOptions& options) {
  const NvtxRange range(label, "attribution");
  BANKGATE_CUDA(cudaSetDevice(impl_->options.device));
  if (!impl_->attributor)
    impl_->attributor = std::make_unique<detail::SassAttributor>(detail::current_context(), impl_->options.device,
                                                                 impl_->device.chip_name, *impl_->cubins);
  if (options.l2 == L2State::cold) {
    impl_->flusher->enqueue();
    BANKGATE_CUDA(cudaDeviceSynchronize());
  }
  // The range profiler stays disabled while the SASS Metrics API patches the launch: patching a kernel that the
  // range profiler has instrumented while its object is enabled leaves that object unable to decode the counters
  // of the next other kernel (cuptiRangeProfilerDecodeData: CUPTI_ERROR_UNKNOWN; CUDA 13.0, driver 580, H200;
  // bench/cupti_sequence_probe.cpp, bench/RESULTS-hopper-suites.md). The next collect enables it again.
  impl_->profiler->suspend();
  return impl_->attributor->attribute(launch);
}

std::string Collector::foreign_code(const std::string& kernel_name) const {
  const auto reason = [&](const std::vector<detail::Fatbin>& sources) {
    for (const detail::Fatbin& offered : sources) {
      const bool defines = std::any_of(offered.begin(), offered.end(), [&](const detail::DeviceCode& c) {
        return detail::defines_kernel(c, kernel_name);
      });
      if (!defines) continue;
      const std::string why = detail::foreign_code_reason(offered, impl_->device.compute_capability_major,
                                                          impl_->device.compute_capability_minor);
      if (!why.empty()) return "kernel " + kernel_name + " was " + why;
    }
    return std::string();
  };
  // The loaded module tells where its cubin names the PTX it came from; the program's own device code tells where
  // it holds no cubin for this GPU at all, whatever the module says.
  const std::string loaded = reason(impl_->cubins->loaded_code());
  return loaded.empty() ? reason(detail::program_code().fatbins) : loaded;
}

const CounterPhases& Collector::last_counter_phases() const { return impl_->profiler->last_phases(); }
const SetupPhases& Collector::setup_phases() const { return impl_->setup; }

const DeviceInfo& Collector::device() const { return impl_->device; }
const std::vector<std::string>& Collector::metrics() const { return impl_->metrics; }
std::size_t Collector::passes() const { return impl_->profiler->passes(); }

}  // namespace bankgate
