#pragma once
// What a gated case measured, as the record a candidate and a baseline hold (bankgate/gate/baseline.hpp): each
// kernel's counters with their tolerances (the case's own, else the metric table's), the launch figures, derived
// ratios, timing summary and samples; the source's expectation; per-line figures once attributed.

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <bankgate/gate/rules/baseline.hpp>
#include <bankgate/gtest/kernel_case.hpp>

namespace bankgate::gtest {

// The record of a case whose kernels the collector measured, one KernelTiming and one KernelCounters per kernel in
// launch order (as many of each). `correct`: the output matched the CPU reference.
gate::TestRecord case_record(const std::vector<KernelTiming>& timings, const std::vector<KernelCounters>& counters,
                             bool correct, const KernelCase& kc);

// Each kernel's per-line figures (files relative to `source_dir`), with the bank conflicts and uncoalesced sectors
// they imply. A function launched twice in one case gets its lines with its first launch: the attribution sums a
// function's launches.
void attach_lines(gate::TestRecord& record, const std::vector<KernelInstructions>& kernels,
                  const std::string& source_dir);

// The driver's figures of a launch, as counters.
std::vector<std::pair<std::string_view, double>> launch_counters(const LaunchFigures& launch);

}  // namespace bankgate::gtest
