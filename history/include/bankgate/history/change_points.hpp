#pragma once
// Change points of a series kept in the history (store.hpp's SeriesPoint, oldest first, one GPU).
//
// Counters are exact: a change point is a fact, the first run whose value differs from the run before it. Where
// that earlier run measured the commit's parent, the change is that commit's (exact); otherwise it lies in the
// commits between the two (a range to bisect). A counter that takes two values within one commit is no property
// of the code and is reported as such, never as a change.
//
// Durations are noisy and come in per-process speed levels: a change point is a split of the series into two
// stretches of at least `min_points` runs each whose means differ by at least `min_change` (relative) and by a
// Welch t-test at `alpha` after a Bonferroni correction for the splits tried, found by binary segmentation (the
// split with the largest t, then each side again). Its false-alert rate is measured on A/A series
// (tests/unit/history_change_points_test.cpp; docs/history.md states it).

#include <cstddef>
#include <string>
#include <vector>

#include <bankgate/history/store.hpp>

namespace bankgate::history {

struct ChangePoint {
  std::size_t index = 0;       // the first point of the new value or level
  std::string first_changed;   // its commit
  std::string last_unchanged;  // the commit of the point before it
  bool exact = false;          // the point before measured first_changed's parent
  double before = 0.0, after = 0.0;
  std::string code_before, code_after;  // the kernel's code identity either side (collect.hpp), where known
  double p_value = 0.0;                 // durations: after the correction; counters: 0
};

struct CounterChanges {
  std::vector<ChangePoint> changes;
  std::vector<std::string> unstable_commits;  // commits measured with two values of the counter
};
CounterChanges counter_changes(const std::vector<SeriesPoint>& points);

struct DurationRule {
  std::size_t min_points = 4;  // per side: one slow process cannot make a stretch
  double min_change = 0.03;    // the timing gate's own relative tolerance
  double alpha = 0.001;
};
std::vector<ChangePoint> duration_changes(const std::vector<SeriesPoint>& points, const DurationRule& rule = {});

}  // namespace bankgate::history
