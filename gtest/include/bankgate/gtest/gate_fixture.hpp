#pragma once
// GateTest: the GoogleTest fixture every GPU suite derives from. gate() runs one kernel case through the
// whole path: output against the CPU reference, counters and durations from the collector, a candidate
// file for the refresh tool, and the comparison with the committed baseline. Memory counters are gated
// exactly; instruction counts and registers carry the metric table's default tolerance (metrics.hpp), which a
// case may override with a reason.
// Per-source-line figures (the SASS Metrics API) are collected when recording (BANKGATE_ATTRIBUTE=1, set by
// `bankgate record` and `refresh`) and after a counter changed, to name the lines that changed it.
//
// A test that cannot measure (no GPU, no counter permission, another profiler attached) is SKIPPED with the
// reason, or fails when BANKGATE_REQUIRE_GPU=1. No CUPTI header is included here or below.

#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <map>
#include <optional>
#include <string>

#include <bankgate/collector.hpp>
#include <bankgate/gate/baseline.hpp>
#include <bankgate/gate/settings.hpp>
#include <bankgate/expectation.hpp>

namespace bankgate::gtest {

using gate::Settings;
using gate::TimingTolerance;

struct KernelCase {
  std::string kernel_name;                                 // the CUDA function the case must launch
  std::function<void()> launch;                            // launches it once on prepared inputs
  std::function<void()> poison_output;                     // fills outputs with a pattern no kernel writes
  std::function<::testing::AssertionResult()> check_output;  // compares outputs with the CPU reference
  // What the source says its ratios (transactions or sectors per request, ...) should be; checked exactly when
  // given (the counters are SASS-instrumented: they count what the instructions do, whatever else the GPU is
  // doing).
  std::optional<AccessExpectation> expected;
  // A tolerance of the case's own for a counter (by metric name), instead of the metric table's default; any
  // but exact must give its reason, which is recorded in the baseline.
  std::map<std::string, gate::Tolerance> counter_tolerances{};
  TimingOptions timing{};
  TimingTolerance timing_tolerance{};
};

class GateTest : public ::testing::Test {
 protected:
  void SetUp() override;
  void gate(const KernelCase& kernel_case);
  const Settings& settings() const;

 private:
  void join_session();
  // When SetUp ended: the time from here to gate() is the test's own preparation (inputs, buffers, references).
  std::chrono::steady_clock::time_point set_up_at_{};
};

}  // namespace bankgate::gtest
