#include <bankgate/gate/reports/duration_axis.hpp>

#include <algorithm>
#include <cmath>
#include <optional>
#include <utility>

namespace bankgate::gate {
namespace {

// The 1st to 99th percentile of a distribution: where its curve rises. Never nearer the ends than one step of
// the values given: between the baseline's 95th and 100th percentile lies only its slowest sample, which may be
// an outlier many times the rest (and so between a run's two slowest samples). Widened to at least 1% of its
// value (or 1 ns), so that a distribution of equal samples still has a span to be drawn in.
struct Spread {
  double low = 0.0, high = 0.0;
  double width() const { return high - low; }
};

std::optional<Spread> spread_of(std::vector<double>& values) {
  if (values.empty()) return std::nullopt;
  std::sort(values.begin(), values.end());
  const double tail = values.size() < 3 ? 0.0 : std::max(0.01, 1.0 / static_cast<double>(values.size() - 1));
  Spread s{percentile_of_sorted(values, tail), percentile_of_sorted(values, 1.0 - tail)};
  const double least = std::max(0.01 * std::abs(s.low + s.high) / 2, 1.0);
  if (s.width() < least) {
    const double middle = (s.low + s.high) / 2;
    s = {middle - least / 2, middle + least / 2};
  }
  return s;
}

// A span around [low, high] with `share` of its width either side; durations are never negative.
AxisSpan with_margin(double low, double high, double share) {
  const double margin = (high - low) * share;
  return {std::max(0.0, low - margin), high + margin};
}

// Where `ns` lies in `span`, 0 to 1, clamped.
double within(const AxisSpan& span, double ns) {
  return std::clamp((ns - span.low) / (span.high - span.low), 0.0, 1.0);
}

// 1, 2 or 5 times a power of ten: the largest such step that still puts two ticks or more into `width` (and so
// at most six).
double round_step(double width) {
  const double most = width / 2;
  const double power = std::pow(10.0, std::floor(std::log10(most)));
  for (const double factor : {5.0, 2.0, 1.0})
    if (factor * power <= most) return factor * power;
  return power;
}

}  // namespace

double percentile_of_sorted(const std::vector<double>& values, double p) {
  if (values.empty()) return 0.0;
  const double at = std::clamp(p, 0.0, 1.0) * static_cast<double>(values.size() - 1);
  const auto below = static_cast<std::size_t>(std::floor(at));
  const std::size_t above = std::min(below + 1, values.size() - 1);
  return values[below] + (values[above] - values[below]) * (at - static_cast<double>(below));
}

DurationAxis duration_axis(std::vector<double> measured, std::vector<double> baseline) {
  // Named for their order, which the swap below makes true.
  std::optional<Spread> lower = spread_of(measured), higher = spread_of(baseline);
  DurationAxis axis;
  if (!lower && !higher) {
    axis.spans = {{0.0, 1.0}};
    return axis;
  }
  if (!lower || !higher) {
    const Spread& only = lower ? *lower : *higher;
    axis.spans = {with_margin(only.low, only.high, 0.1)};
    return axis;
  }
  if (higher->low < lower->low) std::swap(lower, higher);
  // Break the axis where one span over both would be more than half empty between them: there each curve
  // would be drawn as a near-vertical line. The margins (15% of each width) then cannot meet in the break.
  if (higher->low - lower->high > lower->width() + higher->width()) {
    axis.spans = {with_margin(lower->low, lower->high, 0.15), with_margin(higher->low, higher->high, 0.15)};
    return axis;
  }
  axis.spans = {with_margin(std::min(lower->low, higher->low), std::max(lower->high, higher->high), 0.08)};
  return axis;
}

double DurationAxis::position(double ns) const {
  if (spans.empty()) return 0.0;
  if (!broken()) return within(spans[0], ns);
  const double share = (1.0 - break_share) / 2;
  const AxisSpan& low = spans[0];
  const AxisSpan& high = spans[1];
  if (ns <= low.high) return share * within(low, ns);
  if (ns >= high.low) return share + break_share + share * within(high, ns);
  return share + break_share * (ns - low.high) / (high.low - low.high);
}

std::vector<double> DurationAxis::ticks() const {
  std::vector<double> ticks;
  for (const AxisSpan& span : spans) {
    const double step = round_step(span.high - span.low);
    for (double v = std::ceil(span.low / step) * step; v <= span.high + step * 1e-9; v += step) ticks.push_back(v);
  }
  return ticks;
}

}  // namespace bankgate::gate
