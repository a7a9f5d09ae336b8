#include "case_record.hpp"

#include <set>

#include <bankgate/gate/rules/instruction_lines.hpp>
#include <bankgate/gate/rules/statistics.hpp>
#include <bankgate/metrics.hpp>

namespace bankgate::gtest {

using namespace bankgate::gate;

namespace {

// A counter's tolerance: the case's own where it gives one, else the metric table's default.
Tolerance tolerance_for(const std::string& name, const KernelCase& kc) {
  if (const auto own = kc.counter_tolerances.find(name); own != kc.counter_tolerances.end()) return own->second;
  const MetricTraits* traits = find_metric(name);
  if (traits == nullptr || traits->tolerance.relative == 0.0) return {};
  return {Tolerance::Kind::relative, traits->tolerance.relative, std::string(traits->tolerance.reason)};
}

// Median, spread and the median's standard error from the samples; how they were taken from the collector, so that
// a baseline taken another way (L2 state, launches per sample) is refused rather than compared.
TimingSummary timing_summary(const KernelTiming& timing, const KernelCase& kc) {
  TimingSummary t = summarize_durations(timing.durations_ns);
  t.tolerance = kc.timing_tolerance;
  t.l2 = to_string(timing.l2);
  t.launches_per_sample = timing.launches_per_sample;
  t.warmup_launches = timing.warmup_launches;
  t.dropped_samples = timing.dropped_samples;
  t.sm_clock_mhz = timing.sm_clock_mhz;
  return t;
}

void record_kernel(const KernelTiming& timing, const KernelCounters& counters, const KernelCase& kc, KernelRecord& r) {
  r.kernel = timing.kernel_name;
  for (const auto& [name, value] : counters.values) r.counters[name] = {value, tolerance_for(name, kc)};
  // The launch figures go with the default (SASS-instrumented) set, whose rows they share in the metric table.
  if (counters.values.contains(std::string(metric::shared_load_requests)))
    for (const auto& [name, value] : launch_counters(timing.launch))
      r.counters[std::string(name)] = {value, tolerance_for(std::string(name), kc)};
  for (auto& [name, value] : derived_ratios(counters)) r.derived[name] = value;
  r.derived[std::string(ratio::shared_load)] = transactions_per_request(counters, SharedOp::load);
  r.derived[std::string(ratio::shared_store)] = transactions_per_request(counters, SharedOp::store);
  r.timing = timing_summary(timing, kc);
  r.samples_ns = timing.durations_ns;
}

}  // namespace

TestRecord case_record(const std::vector<KernelTiming>& timings, const std::vector<KernelCounters>& counters,
                       bool correct, const KernelCase& kc) {
  TestRecord r;
  r.correct = correct;
  for (std::size_t i = 0; i < timings.size() && i < counters.size(); ++i) {
    KernelRecord& kernel = i == 0 ? static_cast<KernelRecord&>(r) : r.later_kernels.emplace_back();
    record_kernel(timings[i], counters[i], kc, kernel);
    // The source's expectation travels with the measurement, so the baselines (and the kernel tables
    // `bankgate readme-table` generates from them) show expected beside measured.
    const AccessExpectation* stated = nullptr;
    if (kc.kernel_names.size() <= 1 && i == 0 && kc.expected) stated = &*kc.expected;
    if (i < kc.kernel_names.size())
      if (const auto it = kc.expected_of.find(kc.kernel_names[i]); it != kc.expected_of.end()) stated = &it->second;
    if (stated != nullptr) {
      ExpectedRatios expected{{}, std::string(stated->why)};
      for (const ExpectedRatio& e : stated->ratios) expected.ratios[std::string(e.ratio)] = e.value;
      kernel.expected = std::move(expected);
    }
  }
  return r;
}

void attach_lines(TestRecord& record, const std::vector<KernelInstructions>& kernels, const std::string& source_dir) {
  std::set<std::string> attached;
  for (KernelRecord* kernel : record.kernels()) {
    if (!attached.insert(kernel->kernel).second) continue;
    std::vector<InstructionFigures> instructions;
    for (const KernelInstructions& k : kernels)
      if (k.kernel_name == kernel->kernel)
        instructions.insert(instructions.end(), k.instructions.begin(), k.instructions.end());
    kernel->lines = figures_by_line(instructions, source_dir);
    for (const auto& [name, value] : excess_by_kind(kernel->lines)) kernel->derived[name] = value;
  }
}

std::vector<std::pair<std::string_view, double>> launch_counters(const LaunchFigures& launch) {
  return {{metric::registers_per_thread, launch.registers_per_thread},
          {"launch__shared_mem_per_block_static", launch.static_shared_bytes},
          {"launch__shared_mem_per_block_dynamic", launch.dynamic_shared_bytes},
          {metric::local_memory_per_thread, launch.local_bytes_per_thread},
          {metric::resident_blocks_per_sm, launch.resident_blocks_per_sm}};
}

}  // namespace bankgate::gtest
