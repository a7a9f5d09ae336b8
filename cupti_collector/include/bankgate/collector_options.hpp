#pragma once
// What a Collector measures and how: its metrics and device, how counters are read, how durations are sampled.
// Apart from the Collector itself so that the collector's own parts (the activity timer) take the options
// without the façade that is made of them.

#include <cstddef>
#include <string>
#include <vector>

#include <bankgate/metrics.hpp>
#include <bankgate/results.hpp>

namespace bankgate {

struct CollectorOptions {
  int device = 0;
  std::vector<std::string> metrics = default_metric_names();
  // For kernels that executed TMA instructions, also read the TMA traffic (CounterSet::tma_traffic: hardware
  // counters, which need a run of their own) in a second run of the launch.
  bool tma_traffic = true;
  // Kernel launches one collect_counters call may profile; more fails with ErrorKind::too_many_kernels.
  std::size_t max_kernels_per_call = 64;
  // The room CUPTI is given for a call's kernels at first. A larger room costs every call (docs/collector.md), so it
  // starts small and grows to the count of a call that launched more, which is then profiled again on a fresh
  // profiler object (about 150 ms on an H200, once per process and size of call). Launches are counted, so a room
  // the call's kernels fill exactly holds them all. Give the kernels your calls usually launch (at least 1, at most
  // max_kernels_per_call; others fail with ErrorKind::invalid_options).
  std::size_t room_for_kernels = 1;
};

// How collect_counters reads counters.
struct CounterOptions {
  // Cold (the default, as Nsight Compute's default --cache-control all): L2 is flushed before the launch.
  // The shared-memory wavefronts and conflicts of a kernel that also moves global data depend on it: with its
  // data still in L2 from earlier work, global loads return sooner and meet its shared accesses in the L1 data
  // banks more often (the figures: docs/measurement.md, "Measurements behind the code").
  L2State l2 = L2State::cold;
};

// How time_launches samples durations. The defaults are the gate's: they aim at a median known to within
// 0.5% (one standard error) in well under a second per kernel, which lets a 3% slowdown stand out clearly.
struct TimingOptions {
  // Warm: inputs stay in L2 from one launch to the next, the state a kernel called in a loop sees. Cold:
  // before every timed launch, L2 is flushed by a memset over twice its size on the legacy default stream
  // (so it orders before launches on the default stream; the memset is not a kernel and never a sample).
  L2State l2 = L2State::warm;

  // Launches averaged into one sample. A kernel of about a microsecond spans a few ticks of the 32 ns GPU
  // timer, so single durations are coarse steps; the mean of k launches has steps of 32/k ns. 0 chooses k
  // from the kernel's duration: the smallest power of two with k x duration >= batch_target_ns (at most
  // max_auto_launches_per_sample), so kernels of 20 us or more get k = 1. Powers of two keep k the same
  // when a kernel gets a little slower; the gate also pins k to the baseline's, since samples taken with
  // another k are not compared.
  int launches_per_sample = 0;
  double batch_target_ns = 20000.0;
  int max_auto_launches_per_sample = 64;

  // Warm-up: samples are taken in windows of `warmup_window_samples` and discarded until the medians of
  // the last three windows lie within `warmup_tolerance` of each other (or one tick of the GPU timer,
  // whichever is larger) and the SM clock is no longer rising; at most `max_warmup_s` of wall time.
  int warmup_window_samples = 10;
  double warmup_tolerance = 0.01;
  double max_warmup_s = 0.2;
  // On a warm device, `warm_start_samples` samples, discarded, instead: where this collector finished timing less
  // than 0.5 s before and the SM clock reads at least `min_clock_ratio` of the highest it has seen, with no slowdown
  // reported, and for the placements after the first of time_over_placements. The clock is up already; what is left
  // to warm is the caches and the test's own buffers, which the first calls do, and the median the gate judges does
  // not move for a slow sample or two. false: every timing warms up as above.
  bool short_warmup_when_warm = true;
  int warm_start_samples = 3;

  // Stopping rule, in the manner of nvbench: sample in chunks of `chunk_samples` until the estimated
  // standard error of the median, relative to it, is at most `target_relative_noise`, with at least
  // `min_samples` and at most `max_samples` samples, or until `time_budget_s` of wall time (warm-up
  // included) is spent. The estimate is 1.2533 x 1.4826 x MAD / sqrt(n), the normal-theory standard error
  // of a median with a robust spread, so a few preempted launches do not inflate it. 30 samples at least: the
  // stopping rule still holds the median's standard error to 0.5%, a sixth of the gate's default tolerance of 3%,
  // so noise alone does not carry an unchanged kernel's median past it; the least count only bounds how well the
  // spread itself is estimated. Each further sample costs a short kernel k launches of about 8 us of host time.
  double target_relative_noise = 0.005;
  int min_samples = 30;
  int max_samples = 20000;
  int chunk_samples = 15;
  double time_budget_s = 1.0;

  // Clocks (read through NVML where the driver library is present; never changed): a chunk is dropped when
  // the driver reports a slowdown (hardware slowdown, thermal, power brake, power cap) around it, or when
  // the SM clock read after it is below `min_clock_ratio` of the highest seen by this collector.
  bool drop_clocked_down = true;
  double min_clock_ratio = 0.97;
};

}  // namespace bankgate
