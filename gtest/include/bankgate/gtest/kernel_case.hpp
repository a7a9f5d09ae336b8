#pragma once
// KernelCase: what a gated test hands GateTest::gate() (gate_fixture.hpp): the kernel(s) it launches, how to launch
// them, poison and check their outputs, what their source says they should cost, and how they are judged.

#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <bankgate/collector.hpp>
#include <bankgate/expectation.hpp>
#include <bankgate/gate/rules/baseline.hpp>

namespace bankgate::gtest {

using gate::TimingTolerance;

// One gated case. gate() checks it before anything runs and names each field that is missing or wrong; each
// kernel it names must be in the program's device code where that can be read (no GPU needed). Required:
// `kernel_name` (or `kernel_names`), `launch`, `poison_output` and `check_output`.
struct KernelCase {
  // The CUDA function the case launches, as results name it: without namespace, return type or parameters, with its
  // template arguments ("tiledMatmul<16>"), or without them where that is unambiguous ("tiledMatmul").
  std::string kernel_name;
  // Instead, for a case that launches several kernels (a library call: CUB, cuBLAS, CUTLASS device-level APIs): each
  // in launch order, named as above. Each is recorded and gated as its own kernel of the test.
  std::vector<std::string> kernel_names{};
  std::function<void()> launch;  // launches the kernel(s) once on prepared inputs
  // For kernels whose speed depends on where their buffers lie in memory (the physical pages an allocation gets,
  // which differ from one allocation, and one process, to the next): more launches of the same kernel(s), each on
  // buffers of its own, allocated alongside those `launch` uses. Durations are then sampled at `launch` and at
  // each of these in equal parts (Collector::time_over_placements), so the median is the kernel's over several
  // placements and repeats agree better across processes. Counters, the output check and per-line figures use
  // `launch` alone: give every placement the same input data. The time budget is shared among the placements.
  std::vector<std::function<void()>> more_placements{};
  std::function<void()> poison_output;                       // fills outputs with a pattern no kernel writes
  std::function<::testing::AssertionResult()> check_output;  // compares outputs with the CPU reference
  // What the source says its ratios (transactions or sectors per request, ...) should be; checked exactly when
  // given (the counters are SASS-instrumented: they count what the instructions do, whatever else the GPU is
  // doing). For a case of one kernel.
  std::optional<AccessExpectation> expected;
  // The same for a case of several kernels: each kernel's, by its name as `kernel_names` gives it.
  std::map<std::string, AccessExpectation> expected_of{};
  // A tolerance of the case's own for a counter (by metric name), instead of the metric table's default; any
  // but exact must give its reason, which is recorded in the baseline.
  std::map<std::string, gate::Tolerance> counter_tolerances{};
  TimingOptions timing{};
  TimingTolerance timing_tolerance{};
};

}  // namespace bankgate::gtest
