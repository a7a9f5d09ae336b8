#pragma once
// GateTest: the GoogleTest fixture every GPU suite derives from. gate() runs one case (one kernel, or the several
// a library call launches) through the whole path: output against the CPU reference, counters and durations from
// the collector, a candidate file for the refresh tool, and the comparison with the committed baseline. Memory
// counters are gated exactly; instruction counts and registers carry the metric table's default tolerance
// (metrics.hpp), which a case may override with a reason.
// Per-source-line figures (the SASS Metrics API) are collected when recording (BANKGATE_ATTRIBUTE=1, set by
// `bankgate record` and `refresh`) and after a counter changed, to name the lines that changed it.
//
// A test that cannot measure (no GPU, no counter permission, another profiler attached) is SKIPPED with the
// reason, or fails when BANKGATE_REQUIRE_GPU=1. No CUPTI header is included here or below.

#include <gtest/gtest.h>

#include <chrono>

#include <bankgate/gate/protocol/settings.hpp>
#include <bankgate/gtest/kernel_case.hpp>

namespace bankgate::gtest {

using gate::Settings;

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
