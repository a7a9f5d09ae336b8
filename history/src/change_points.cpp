// Change points of counters (exact) and durations (binary segmentation with a Welch t-test): change_points.hpp.

#include <bankgate/history/change_points.hpp>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <optional>

#include <bankgate/gate/rules/student_t.hpp>

namespace bankgate::history {
namespace {

ChangePoint change_at(const std::vector<SeriesPoint>& points, std::size_t before, std::size_t at) {
  ChangePoint c;
  c.index = at;
  c.first_changed = points[at].commit;
  c.last_unchanged = points[before].commit;
  c.exact = !points[at].parent.empty() && points[at].parent == points[before].commit;
  c.before = points[before].value;
  c.after = points[at].value;
  c.code_before = points[before].code_hash;
  c.code_after = points[at].code_hash;
  return c;
}

struct Stretch {
  double mean = 0.0, variance = 0.0;
  std::size_t n = 0;
};

Stretch stretch(const std::vector<double>& x, std::size_t from, std::size_t to) {
  Stretch s;
  s.n = to - from;
  s.mean = std::accumulate(x.begin() + static_cast<long>(from), x.begin() + static_cast<long>(to), 0.0) /
           static_cast<double>(s.n);
  for (std::size_t i = from; i < to; ++i) s.variance += (x[i] - s.mean) * (x[i] - s.mean);
  s.variance /= static_cast<double>(s.n - 1);
  return s;
}

struct Split {
  std::size_t at = 0;
  double t = 0.0, p = 1.0;
};

// Welch's t and two-sided p-value for two stretches; a difference against no spread at all is certain.
Split welch(const Stretch& a, const Stretch& b) {
  const double va = a.variance / static_cast<double>(a.n), vb = b.variance / static_cast<double>(b.n);
  if (va + vb == 0.0) return a.mean == b.mean ? Split{} : Split{0, HUGE_VAL, 0.0};
  const double t = std::fabs(a.mean - b.mean) / std::sqrt(va + vb);
  const double dof =
      (va + vb) * (va + vb) / (va * va / static_cast<double>(a.n - 1) + vb * vb / static_cast<double>(b.n - 1));
  return {0, t, 2.0 * (1.0 - gate::student_t_cdf(t, dof))};
}

// The split of x[from, to) with the largest t among those that meet the rule's size and change, its p-value
// corrected for every split tried. (The largest t, not the smallest p: far in the tail many p-values are 0.)
std::optional<Split> best_split(const std::vector<double>& x, std::size_t from, std::size_t to,
                                const DurationRule& rule) {
  if (to - from < 2 * rule.min_points) return std::nullopt;
  std::optional<Split> best;
  const std::size_t tried = to - from - 2 * rule.min_points + 1;
  for (std::size_t at = from + rule.min_points; at + rule.min_points <= to; ++at) {
    const Stretch a = stretch(x, from, at), b = stretch(x, at, to);
    if (a.mean <= 0.0 || std::fabs(b.mean - a.mean) / a.mean < rule.min_change) continue;
    Split split = welch(a, b);
    split.at = at;
    split.p = std::min(1.0, split.p * static_cast<double>(tried));
    if (!best || split.t > best->t) best = split;
  }
  if (!best || best->p >= rule.alpha) return std::nullopt;
  return best;
}

void segment(const std::vector<double>& x, std::size_t from, std::size_t to, const DurationRule& rule,
             std::vector<Split>& found) {
  const std::optional<Split> split = best_split(x, from, to, rule);
  if (!split) return;
  found.push_back(*split);
  segment(x, from, split->at, rule, found);
  segment(x, split->at, to, rule, found);
}

}  // namespace

CounterChanges counter_changes(const std::vector<SeriesPoint>& points) {
  CounterChanges out;
  for (std::size_t i = 1; i < points.size(); ++i) {
    if (points[i].value == points[i - 1].value) continue;
    if (points[i].commit == points[i - 1].commit) {
      if (out.unstable_commits.empty() || out.unstable_commits.back() != points[i].commit)
        out.unstable_commits.push_back(points[i].commit);
      continue;
    }
    out.changes.push_back(change_at(points, i - 1, i));
  }
  return out;
}

std::vector<ChangePoint> duration_changes(const std::vector<SeriesPoint>& points, const DurationRule& rule) {
  std::vector<double> x;
  for (const SeriesPoint& p : points) x.push_back(p.value);
  std::vector<Split> found;
  segment(x, 0, x.size(), rule, found);
  std::sort(found.begin(), found.end(), [](const Split& a, const Split& b) { return a.at < b.at; });
  std::vector<ChangePoint> out;
  for (std::size_t i = 0; i < found.size(); ++i) {
    ChangePoint c = change_at(points, found[i].at - 1, found[i].at);
    c.p_value = found[i].p;
    // Levels, not single runs: the mean of each stretch between neighbouring change points.
    const std::size_t from = i == 0 ? 0 : found[i - 1].at, to = i + 1 < found.size() ? found[i + 1].at : x.size();
    c.before = stretch(x, from, found[i].at).mean;
    c.after = stretch(x, found[i].at, to).mean;
    out.push_back(c);
  }
  return out;
}

}  // namespace bankgate::history
