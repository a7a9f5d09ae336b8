#pragma once
// Counter collection with the CUDA 13 Range Profiler: auto ranges (one range per kernel launch) and kernel
// replay (CUPTI replays each kernel as often as the metric passes need, restoring memory in between).

#include <cuda.h>

#include <functional>
#include <memory>
#include <cstdint>
#include <string>
#include <vector>

#include <bankgate/results.hpp>

struct CUpti_RangeProfiler_Object;

#include "metric_config.hpp"

namespace bankgate::detail {

class LapTimer;

class RangeProfiler {
 public:
  RangeProfiler(CUcontext context, int device_index, const std::vector<std::string>& metrics,
                std::size_t max_kernels_per_call);
  ~RangeProfiler();
  RangeProfiler(const RangeProfiler&) = delete;
  RangeProfiler& operator=(const RangeProfiler&) = delete;

  std::vector<KernelCounters> collect(const std::function<void()>& launch);
  const std::string& chip_name() const { return chip_name_; }
  std::size_t passes() const { return config_->passes(); }
  const CounterPhases& last_phases() const { return phases_; }
  bool single_pass() const { return config_->passes() == 1; }
  void note_flush(double ms) { phases_.flush_ms = ms; }
  // The construction's parts, into SetupPhases' profiler_*_ms, counter_availability_ms and metric_config_ms.
  void add_setup_parts(SetupPhases& setup) const;

 private:
  // collect()'s phases, in order.
  void initialize_counter_data();
  void set_config();
  void profile(const std::function<void()>& launch, LapTimer& laps);
  void decode(LapTimer& laps);
  std::vector<KernelCounters> evaluate();

  CUcontext context_;
  CUpti_RangeProfiler_Object* profiler_ = nullptr;  // enabled for the object's lifetime
  std::vector<std::uint8_t> counter_data_;
  std::string chip_name_;
  std::vector<std::string> metrics_;
  std::size_t max_kernels_;
  std::unique_ptr<MetricConfig> config_;
  CounterPhases phases_;
  double initialize_ms_ = 0.0, availability_ms_ = 0.0, metric_config_ms_ = 0.0, enable_ms_ = 0.0;
};

// The current CUDA context, obtained through the runtime's driver entry point so that no binary links
// libcuda directly: that library is absent on machines without a driver, where the binaries must still load.
CUcontext current_context();

}  // namespace bankgate::detail
