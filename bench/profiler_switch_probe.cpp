// How the range profiler can move between metric sets (the gate's instrumented set, the TMA traffic's hardware
// counters, both in one set of two passes) and grow its room for kernels, and what each way costs: each argument
// after the way is one step, and each step's host time, phases and values are printed, so that two runs of the same
// steps by two ways can be compared value by value (tools/gpu-round.sh switch).
//   bankgate-profiler-switch-probe reenable|in_place|reinit STEP...
//   STEP: SET[@F][/P]:KERNEL[xN]   SET: 0 (instrumented) | 1 (TMA traffic) | 2 (both: two passes, the launch
//         called once per pass) | 3 (both, replayed by CUPTI); F, P: P passes of the set from pass F on (default:
//         all from 0) run and are decoded; N: the kernel launched N times in the call (the room grows)
//   KERNEL: matmul (tiledMatmul<16>), tma (a TMA bulk copy), ldsm (a TMA tensor box read by ldmatrix), wgmma
// Lines "V <step> <metric>=<value> ..." hold every value of a step's first kernel.
#include <cuda_runtime_api.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include <bankgate/metrics.hpp>

#include "probe_kernels.hpp"
#include "range_profiler.hpp"

namespace {

void print_values(int step, const bankgate::KernelCounters& kernel) {
  std::printf("V %d", step);
  for (const auto& [name, value] : kernel.values) std::printf(" %s=%.17g", name.c_str(), value);
  std::printf("\n");
}

}  // namespace

int main(int argc, char** argv) {
  namespace d = bankgate::detail;
  const std::string way = argc > 1 ? argv[1] : "";
  const std::map<std::string, d::SetSwitch> ways{
      {"reenable", d::SetSwitch::reenable}, {"in_place", d::SetSwitch::in_place}, {"reinit", d::SetSwitch::reenable}};
  if (!ways.contains(way)) {
    std::fprintf(stderr, "usage: bankgate-profiler-switch-probe reenable|in_place|reinit STEP...\n");
    return 64;
  }
  cudaSetDevice(0);
  cudaFree(nullptr);
  bankgate::probes::ProbeBuffers buffers;
  const auto launch_of = bankgate::probes::probe_launches(buffers);
  d::RangeProfiler profiler(d::current_context(), 0, bankgate::default_metric_names(), 64);
  profiler.set_switch(ways.at(way));
  profiler.set_copy_pristine(way != "reinit");
  const std::vector<std::string> traffic = bankgate::metric_names(bankgate::CounterSet::tma_traffic);
  std::vector<std::string> both = bankgate::default_metric_names();
  both.insert(both.end(), traffic.begin(), traffic.end());
  const std::size_t sets[] = {0, profiler.add_metric_set(traffic), profiler.add_metric_set(both, 2),
                              profiler.add_metric_set(both, 2, false)};
  int failures = 0;
  for (int i = 2; i < argc; ++i) {
    const std::string step = argv[i];
    const auto start = std::chrono::steady_clock::now();
    std::string outcome = "ok";
    try {
      const std::size_t colon = step.find(':');
      const std::size_t times_at = step.find('x', colon);
      const int times = times_at == std::string::npos ? 1 : std::stoi(step.substr(times_at + 1));
      const auto& kernel = launch_of.at(
          step.substr(colon + 1, times_at == std::string::npos ? std::string::npos : times_at - colon - 1));
      d::Passes passes;
      const std::size_t at = step.find('@'), slash = step.find('/');
      if (at < colon) passes.first = std::stoul(step.substr(at + 1));
      if (slash < colon) passes.count = std::stoul(step.substr(slash + 1));
      const auto counters = profiler.collect(
          [&] {
            for (int t = 0; t < times; ++t) kernel();
          },
          sets[std::stoul(step.substr(0, 1)) % 4], passes);
      int nan = 0;
      for (const auto& [name, value] : counters.at(0).values) nan += std::isnan(value) ? 1 : 0;
      const bankgate::CounterPhases& p = profiler.last_phases();
      char phases[200];
      std::snprintf(phases, sizeof phases,
                    "room %zu; switch %.1f image %.1f config %.1f start %.1f launch %.1f stop %.1f decode %.1f "
                    "evaluate %.1f",
                    profiler.room(), p.switch_ms, p.image_ms, p.set_config_ms, p.start_ms, p.launch_ms, p.stop_ms,
                    p.decode_ms, p.evaluate_ms);
      outcome +=
          " (" + std::to_string(counters.size()) + " kernel(s), " + std::to_string(nan) + " NaN; " + phases + ")";
      print_values(i - 1, counters.at(0));
      if (nan > 0) ++failures;
    } catch (const std::exception& e) {
      outcome = std::string("FAILED: ") + e.what();
      ++failures;
    }
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    std::printf("step %d %-10s %8.1f ms  %s\n", i - 1, step.c_str(), ms, outcome.c_str());
  }
  return failures == 0 ? 0 : 1;
}
