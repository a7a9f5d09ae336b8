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
#include "parallel_evaluation.hpp"

namespace bankgate::detail {

class CuptiCallbacks;
class LapTimer;
struct LaunchCount;

// How collect() moves the profiler object to another metric set: by a fresh object (disable and enable: its first
// Start then costs 130-170 ms on an H200), or on the object it has, which reads NaN or wrong values when the sets
// differ in kind (instrumented and hardware counters) and is kept only for bench/profiler_switch_probe.cpp to show
// it (bench/RESULTS-collector-speed.md).
enum class SetSwitch { reenable, in_place };

// Of a set replayed by the caller, `count` passes (at least one) from pass `first` on run and are decoded; the metrics
// of the passes not run read NaN. CUPTI takes `first` only in a fresh object's first call: after that it runs the set's passes in
// turn, whatever is asked, so the collector always runs them all (bench/profiler_switch_probe.cpp shows it;
// bench/RESULTS-collector-speed.md).
struct Passes {
  std::size_t first = 0;
  std::size_t count = static_cast<std::size_t>(-1);
};

class RangeProfiler {
 public:
  // `metrics` is set 0, the one every collect() reads unless told otherwise; add_metric_set adds others.
  // `first_room`: the room for kernels the first calls get (room()).
  RangeProfiler(CUcontext context, int device_index, const std::vector<std::string>& metrics,
                std::size_t max_kernels_per_call, std::size_t first_room = 4);
  ~RangeProfiler();
  RangeProfiler(const RangeProfiler&) = delete;
  RangeProfiler& operator=(const RangeProfiler&) = delete;

  // Another metric list read by collect(launch, index) with the index returned, replayed by calling `launch` once
  // per pass it needs (at most `most_passes`).
  // With `replayed_by_caller` false, CUPTI replays each kernel itself, restoring memory between passes.
  std::size_t add_metric_set(const std::vector<std::string>& metrics, std::size_t most_passes = 1,
                             bool replayed_by_caller = true);
  std::vector<KernelCounters> collect(const std::function<void()>& launch, std::size_t set = 0, Passes passes = {});
  const std::string& chip_name() const { return chip_name_; }
  std::size_t passes() const { return sets_.front().config->passes(); }
  const CounterPhases& last_phases() const { return phases_; }
  void note_flush(double ms) { phases_.flush_ms = ms; }
  // Disabled until the next collect(), which enables it again (with the cost of an enable, about 0.27 s on an H200):
  // for the SASS Metrics API, which must not patch kernels while the profiler object is enabled (collector.cpp).
  void suspend() {
    disable();
    sized_set_ = static_cast<std::size_t>(-1);
  }
  void restore_phases(const CounterPhases& phases) { phases_ = phases; }
  void set_switch(SetSwitch how) { switch_ = how; }
  // false: every call initialises its counter-data image through CUPTI rather than copying the pristine one.
  void set_copy_pristine(bool copy) { copy_pristine_ = copy; }
  // Calls counted by `callbacks` from here on: a room their kernels fill exactly is known to hold them all.
  void count_launches_with(CuptiCallbacks& callbacks) { callbacks_ = &callbacks; }
  // The object made ready for `set` before its first collect, without a fresh object: only before anything was
  // profiled (the constructor and add_metric_set size the object for the set they made last).
  void prepare(std::size_t set);
  // Room for kernels per collect(). Where a call's kernels fill it, the call is profiled again in a larger room, on a
  // fresh profiler object: one as large as the call's count where launches are counted and the count says that
  // more were launched, else twice as large, past max_kernels_per_call at most once. Without a count, a full room
  // may have dropped kernels; with one, a room the call's kernels fill exactly holds them all.
  std::size_t room() const { return room_; }
  // The construction's parts, into SetupPhases' profiler_*_ms, counter_availability_ms and metric_config_ms.
  void add_setup_parts(SetupPhases& setup) const;

 private:
  // One metric list: its configuration and the counter data image CUPTI fills for it.
  struct MetricSet {
    std::unique_ptr<MetricConfig> config;
    std::vector<std::string> metrics;
    std::vector<std::uint8_t> counter_data;
    bool replayed_by_caller;  // user replay (launch called once per pass) rather than CUPTI's kernel replay
    // The counter-data image as CUPTI initialised it for the current object and room: copying it costs a fraction
    // of initialising (18 ms at a room of 64 on an H200).
    std::vector<std::uint8_t> pristine;
    std::unique_ptr<ParallelEvaluation> evaluation;  // set 0's made with it, others' on first use; uses `config`
  };
  void switch_object(MetricSet& set, std::size_t set_index);
  void size_for(MetricSet& set);
  std::size_t ranges(MetricSet& set);  // the ranges of the decoded counter data

  // collect()'s phases, in order.
  void initialize_counter_data(MetricSet& set);
  void set_config(MetricSet& set, std::size_t first_pass);
  LaunchCount profile(const std::function<void()>& launch, const MetricSet& set, Passes passes, LapTimer& laps);
  bool holds_every_kernel(const LaunchCount& launched, std::size_t kept, std::size_t dropped) const;
  std::size_t decode(LapTimer& laps);  // the ranges dropped for want of room
  void make_evaluation(MetricSet& set);
  std::vector<KernelCounters> evaluate(MetricSet& set);
  std::vector<std::uint8_t> counter_data_for(const MetricConfig& config);
  void enable();
  void disable();

  CUcontext context_;
  CUpti_RangeProfiler_Object* profiler_ = nullptr;  // enabled for the object's lifetime
  std::string chip_name_;
  std::vector<std::uint8_t> availability_;
  std::size_t max_kernels_;
  std::size_t room_;
  CuptiCallbacks* callbacks_ = nullptr;
  std::vector<MetricSet> sets_;
  std::size_t sized_set_ = 0;  // the set whose metrics the profiler object was last sized for
  SetSwitch switch_ = SetSwitch::reenable;
  bool copy_pristine_ = true;
  CounterPhases phases_;
  double initialize_ms_ = 0.0, availability_ms_ = 0.0, metric_config_ms_ = 0.0, enable_ms_ = 0.0;
};

// The current CUDA context, obtained through the runtime's driver entry point so that no binary links
// libcuda directly: that library is absent on machines without a driver, where the binaries must still load.
CUcontext current_context();

}  // namespace bankgate::detail
