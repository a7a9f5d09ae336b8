#pragma once
// GateTest: the GoogleTest fixture every GPU suite derives from. gate() runs one kernel case through the
// whole path: output against the CPU reference, counters and durations from the collector, a candidate
// file for the refresh tool, and the comparison with the committed baseline.
//
// A test that cannot measure (no GPU, no counter permission, another profiler attached) is SKIPPED with the
// reason, or fails when BANKGATE_REQUIRE_GPU=1. No CUPTI header is included here or below.

#include <gtest/gtest.h>

#include <functional>
#include <optional>
#include <string>

#include <bankgate/collector.hpp>
#include <bankgate/gate/baseline.hpp>
#include <bankgate/gate/settings.hpp>
#include <bankgate/gate/expectation.hpp>

namespace bankgate::gtest {

using gate::Settings;
using gate::TimingTolerance;

struct KernelCase {
  std::string kernel_name;                                 // the CUDA function the case must launch
  std::function<void()> launch;                            // launches it once on prepared inputs
  std::function<void()> poison_output;                     // fills outputs with a pattern no kernel writes
  std::function<::testing::AssertionResult()> check_output;  // compares outputs with the CPU reference
  // What the source says the transactions per request should be; checked when given.
  std::optional<gate::SharedAccessExpectation> expected;
  // Many blocks per SM: global traffic shares the L1 data banks with shared memory and adds wavefronts that
  // the counters book as bank conflicts. On the H200 they moved between runs of unchanged code (requests never
  // moved): Transpose.SwizzledNonSquare's load wavefronts were 69178, 70018 and 70700 in three runs (2.2%),
  // and ncu and the collector differed by 2.3% on Transpose.PaddedNonSquare. Such cases gate wavefronts within
  // multi_block_wavefront_tolerance (5%: twice the spread seen; losing a tile's padding multiplies them
  // instead) and conflicts within that share of the wavefronts, and allow the expected ratio
  // contention_allowance extra.
  bool multi_block_contention = false;
  // How far above the source's figure contention may push a multi-block case's transactions per request.
  // 10% covers every multi-block kernel but the tiled products, whose every shared store follows a global
  // load of the same word, so L1 fills meet exactly those stores (their suite sets 20%, with the figures).
  double contention_allowance = 0.10;
  TimingOptions timing{};
  TimingTolerance timing_tolerance{};
};

inline constexpr double multi_block_wavefront_tolerance = 0.05;
inline constexpr const char* multi_block_reason =
    "multi-block kernel: L1 contention with global traffic adds wavefronts (and conflicts) that vary between runs";

class GateTest : public ::testing::Test {
 protected:
  void SetUp() override;
  void gate(const KernelCase& kernel_case);
  const Settings& settings() const;
};

}  // namespace bankgate::gtest
