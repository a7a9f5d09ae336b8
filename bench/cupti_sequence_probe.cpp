// The collector's CUPTI calls in the orders a suite process makes them: each argument is one step, the counter pass
// (C), the per-line attribution (A) or a timing (T) of one of a few catalogue kernels, and each step's outcome
// and host time is printed. `tools/gpu-round.sh sequence` runs the orders that tell which of CUPTI's APIs upsets which:
// a TMA kernel's traffic pass after a plain kernel's attribution failed in cuptiRangeProfilerDecodeData.
//   bankgate-cupti-sequence-probe STEP...    STEP: C:KERNEL | A:KERNEL | T:KERNEL
//   KERNEL: matmul (tiledMatmul<16>), transpose2 (two transposes), tma (a TMA bulk copy), wgmma (a TMA + wgmma GEMM)
#include <chrono>
#include <cstdio>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include <bankgate/collector.hpp>

#include "probe_kernels.hpp"

namespace {

double ms_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv) {
  bankgate::probes::ProbeBuffers buffers;
  const auto launch_of = bankgate::probes::probe_launches(buffers);
  bankgate::Collector collector;
  int failures = 0;
  for (int i = 1; i < argc; ++i) {
    const std::string step = argv[i];
    const auto kernel = launch_of.find(step.substr(2));
    if (step.size() < 3 || step[1] != ':' || kernel == launch_of.end()) {
      std::fprintf(stderr, "unknown step '%s' (C:|A:|T: and matmul, transpose2, tma, wgmma)\n", step.c_str());
      return 64;
    }
    const auto start = std::chrono::steady_clock::now();
    std::string outcome = "ok";
    try {
      if (step[0] == 'C') {
        const auto counters = collector.collect_counters(step, kernel->second);
        const auto& values = counters.at(0).values;
        const auto bytes = values.find("l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld.sum");
        if (bytes != values.end()) outcome += " (TMA load bytes " + std::to_string(bytes->second) + ")";
      } else if (step[0] == 'A') {
        const auto kernels = collector.attribute_instructions(step, kernel->second);
        outcome += " (" + std::to_string(kernels.size()) + " kernel(s))";
      } else {
        collector.time_launches(step, kernel->second);
      }
    } catch (const std::exception& e) {
      outcome = std::string("FAILED: ") + e.what();
      ++failures;
    }
    std::printf("step %d %-14s %8.1f ms  %s\n", i, step.c_str(), ms_since(start), outcome.c_str());
  }
  return failures == 0 ? 0 : 1;
}
