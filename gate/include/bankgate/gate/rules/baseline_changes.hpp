#pragma once
// What a change (a pull request) did to the baselines, against the base branch's: a baseline is the gate's own
// yardstick, so a pull request that edits it must say so in the gate's verdict. A tolerance widened, a test, a
// counter or the timing removed loosens the gate and fails it unless the user accepts it; a value changed (a
// refresh) is shown, and passes. See docs/baselines.md#changes-to-baselines.

#include <optional>
#include <string>
#include <vector>

#include <bankgate/gate/rules/baseline.hpp>

namespace bankgate::gate {

struct BaselineChange {
  std::string test;    // the test's name in its suite
  std::string figure;  // "shared load wavefronts", "duration", "the test"
  std::string before, after;
  bool loosens = false;      // the gate lets through more than before
  std::string text() const;  // "tolerance of shared load wavefronts widened from exact to ±50% in this change"
};

// The changes from `base` (the base branch's file) to `head` (this change's), test by test, in test order.
std::vector<BaselineChange> baseline_changes(const SuiteFile& base, const SuiteFile& head);

// Where the test's source (`measured`, its record as the case gave it) sets a higher comparison floor than its
// baseline: that change. bankgate compare takes a test's floor from the build it runs, not from the baselines, so
// the gate fails such a test until its baseline is refreshed, and the refresh is then named LOOSENED for review.
std::optional<BaselineChange> floor_raised_beyond_baseline(const std::string& test, const TestRecord& baseline,
                                                           const TestRecord& measured);

}  // namespace bankgate::gate
