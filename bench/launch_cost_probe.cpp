// bankgate-launch-cost-probe: the host time of one kernel launch in each state a suite process puts CUDA in, to
// tell what a timed call costs beyond the launch itself (tools/gpu-round.sh launches).
//
//   bankgate-launch-cost-probe [ITERATIONS]
//
// A short kernel (kernels/tunable_work.cu, ITERATIONS of work, default 64: about a microsecond) is launched 4,000
// times in a row, then the device synchronised, in these states, in this order:
//   plain        no CUPTI in the process yet
//   timed        the same launches timed by the collector's timer (activity records of each kernel)
//   profiler     the range profiler enabled on the context, as the collector keeps it, not started
//   profiler+timed
//   counted      after one profiled call (the range profiler has configured and instrumented the kernel)
//   counted+timed
//   disabled     the range profiler disabled again
//   disabled+timed
// "timed" rows run ActivityTimer::time with the gate's default options and report its host time by part; the
// others report microseconds per launch. Drives the collector's private classes, as the profiler switch probe does.

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include <bankgate/collector_options.hpp>
#include <bankgate/kernels/device_buffer.hpp>
#include <bankgate/kernels/tunable_work.cuh>
#include <bankgate/metrics.hpp>
#include <bankgate/order_statistics.hpp>
#include <bankgate/preflight.hpp>

#include "activity_timer.hpp"
#include "l2_flusher.hpp"
#include "range_profiler.hpp"

namespace {

namespace d = bankgate::detail;
using clock_type = std::chrono::steady_clock;

constexpr int launches = 4000;

double us_per_launch(const std::function<void()>& launch) {
  cudaDeviceSynchronize();
  const auto start = clock_type::now();
  for (int i = 0; i < launches; ++i) launch();
  const auto launched = clock_type::now();
  cudaDeviceSynchronize();
  return std::chrono::duration<double, std::micro>(launched - start).count() / launches;
}

void plain_row(const char* state, const std::function<void()>& launch) {
  std::printf("%-16s launch %6.2f us a call\n", state, us_per_launch(launch));
}

// Each after a pause longer than warm_device_gap, so every row warms up as the first does and their totals compare.
void timed_row(const char* state, d::ActivityTimer& timer, const std::function<void()>& launch) {
  std::this_thread::sleep_for(d::warm_device_gap + std::chrono::milliseconds(100));
  const auto start = clock_type::now();
  const std::vector<bankgate::KernelTiming> t = timer.time(launch, bankgate::TimingOptions{});
  const double total_ms = std::chrono::duration<double, std::milli>(clock_type::now() - start).count();
  const bankgate::TimingPhases& h = t.front().host;
  std::printf(
      "%-16s launch %6.2f us a call; %zu calls, k %d, %zu samples, median %.1f ns; host %.2f ms: launch %.2f, wait "
      "%.2f, records %.2f, clock %.2f\n",
      state, 1000.0 * h.launch_ms / static_cast<double>(h.calls), h.calls, t.front().launches_per_sample,
      t.front().durations_ns.size(), t.front().durations_ns.empty() ? 0.0 : bankgate::median(t.front().durations_ns),
      total_ms, h.launch_ms, h.wait_ms, h.records_ms, h.clock_ms);
}

}  // namespace

int main(int argc, char** argv) {
  const int iterations = argc > 1 ? std::atoi(argv[1]) : 64;
  const bankgate::DeviceProbe probe = bankgate::probe_device(0);
  if (!probe.available) {
    std::fprintf(stderr, "no GPU: %s\n", probe.reason.c_str());
    return 2;
  }
  cudaSetDevice(0);
  cudaFree(nullptr);
  bankgate::kernels::DeviceBuffer<float> out(bankgate::kernels::tunable_work_threads);
  const std::function<void()> launch = [&] { bankgate::kernels::launch_tunable_work(out.get(), iterations, 1); };
  launch();
  cudaDeviceSynchronize();
  plain_row("plain", launch);

  d::L2Flusher flusher(0);
  d::ActivityTimer timer(probe.info.pci_bus_id, flusher);
  timed_row("timed", timer, launch);

  d::RangeProfiler profiler(d::current_context(), 0, bankgate::default_metric_names(), 8);
  plain_row("profiler", launch);
  timed_row("profiler+timed", timer, launch);

  profiler.collect(launch);
  plain_row("counted", launch);
  timed_row("counted+timed", timer, launch);

  profiler.suspend();
  plain_row("disabled", launch);
  timed_row("disabled+timed", timer, launch);
  plain_row("plain again", launch);
  return 0;
}
