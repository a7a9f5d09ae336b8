#include <bankgate/collector.hpp>

#include <cupti.h>

#include <algorithm>
#include <chrono>
#include <nvtx3/nvToolsExt.h>

#include "activity_timer.hpp"
#include "check.hpp"
#include "l2_flusher.hpp"
#include "lap_timer.hpp"
#include "module_cubins.hpp"
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
  std::unique_ptr<detail::ModuleCubins> cubins;  // made before the context, so no module loads unseen
  std::unique_ptr<detail::L2Flusher> flusher;
  std::unique_ptr<detail::RangeProfiler> profiler;
  std::unique_ptr<detail::ActivityTimer> timer;
  std::unique_ptr<detail::SassAttributor> attributor;  // made on first use: most runs never attribute
  SetupPhases setup;
};

Collector::Collector(CollectorOptions options) : impl_(std::make_unique<Impl>()) {
  impl_->options = std::move(options);
  detail::LapTimer laps;
  DeviceProbe probe = probe_device(impl_->options.device);
  if (!probe.available) throw CollectorError(ErrorKind::no_gpu, probe.reason);
  impl_->device = probe.info;
  laps.add_lap(impl_->setup.probe_ms);
  BANKGATE_CUDA(cudaSetDevice(impl_->options.device));
  impl_->cubins = std::make_unique<detail::ModuleCubins>();
  BANKGATE_CUDA(cudaFree(nullptr));  // creates the primary context CUPTI attaches to
  laps.add_lap(impl_->setup.context_ms);
  BANKGATE_CUPTI(cuptiGetVersion(&impl_->device.cupti_version));
  impl_->profiler = std::make_unique<detail::RangeProfiler>(detail::current_context(), impl_->options.device,
                                                            impl_->options.metrics, impl_->options.max_kernels_per_call);
  impl_->device.chip_name = impl_->profiler->chip_name();
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
  std::vector<KernelCounters> counters = impl_->profiler->collect(launch);
  impl_->profiler->note_flush(flush_ms);
  return counters;
}

std::vector<KernelTiming> Collector::time_launches(std::string_view label, const std::function<void()>& launch,
                                                   const TimingOptions& options) {
  const NvtxRange range(label, "timing");
  BANKGATE_CUDA(cudaSetDevice(impl_->options.device));
  return impl_->timer->time(launch, options);
}

std::vector<KernelInstructions> Collector::attribute_instructions(std::string_view label, const std::function<void()>& launch,
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
  return impl_->attributor->attribute(launch);
}

std::string Collector::foreign_code(const std::string& kernel_name) const {
  const auto reason = [&](const std::vector<detail::Fatbin>& sources) {
    for (const detail::Fatbin& offered : sources) {
      const bool defines = std::any_of(offered.begin(), offered.end(),
                                       [&](const detail::DeviceCode& c) { return detail::defines_kernel(c, kernel_name); });
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
const std::vector<std::string>& Collector::metrics() const { return impl_->options.metrics; }
std::size_t Collector::passes() const { return impl_->profiler->passes(); }

}  // namespace bankgate
