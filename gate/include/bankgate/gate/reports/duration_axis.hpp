#pragma once
// The duration axis of the HTML report's plot, chosen so that the run's distribution and the baseline's are
// both visible whatever their distance: each is represented by its 1st to 99th percentile (the baseline's,
// kept as 5% steps, by its 5th to 95th), so a slow outlier does not squeeze the rest against one edge; and two
// distributions far apart get a broken axis, one span each, instead of one span in which each is a vertical
// line at an edge.
//
// Why a broken axis and not a logarithmic one: durations of one kernel are narrow (a spread of a few percent),
// so at 1 us against 3 us a log axis still draws each as a vertical line; only a span per distribution shows
// their shapes. The break is drawn and each span has its own tick labels, so the distance stays readable.

#include <vector>

namespace bankgate::gate {

struct AxisSpan {
  double low = 0.0, high = 0.0;  // ns
};

struct DurationAxis {
  std::vector<AxisSpan> spans;  // one, or two (the lower distribution's, then the higher's) with a break between
  // Where `ns` lies along the axis, from 0 (left) to 1 (right): monotonic, values in the break across the
  // break, values beyond the ends at the ends.
  double position(double ns) const;
  // Round values to label the axis with: two to six inside each span.
  std::vector<double> ticks() const;
  bool broken() const { return spans.size() == 2; }
  // The share of the axis the break takes, between the two spans.
  static constexpr double break_share = 0.08;
};

// The axis for two distributions, each given as its samples or as percentiles at equal steps (the baseline's
// 0th, 5th, ..., 100th), in any order; either may be empty. Both empty: one span around 0.
DurationAxis duration_axis(std::vector<double> measured, std::vector<double> baseline);

// The value at share `p` (0..1) of sorted `values`, interpolated between neighbours.
double percentile_of_sorted(const std::vector<double>& values, double p);

}  // namespace bankgate::gate
