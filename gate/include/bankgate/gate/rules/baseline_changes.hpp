#pragma once
// What a change (a pull request) did to the baselines, against the base branch's: a baseline is the gate's own
// yardstick, so a pull request that edits it must say so in the gate's verdict. A tolerance widened, a test, a
// counter or the timing removed loosens the gate and fails it unless the user accepts it; a value changed (a
// refresh) is shown, and passes. See docs/baselines.md#changes-to-baselines.

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

}  // namespace bankgate::gate
