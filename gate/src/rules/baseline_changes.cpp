#include <bankgate/gate/rules/baseline_changes.hpp>

#include <cmath>

#include <bankgate/gate/text/number_format.hpp>
#include <bankgate/metrics.hpp>

namespace bankgate::gate {
namespace {

std::string shown(const Tolerance& t) {
  switch (t.kind) {
    case Tolerance::Kind::exact:
      return "exact";
    case Tolerance::Kind::absolute:
      return "±" + format_number(t.amount);
    case Tolerance::Kind::relative:
      return "±" + format_number(100.0 * t.amount) + "%";
  }
  return "?";
}

// How far the counter may move from `value` under `t`.
double allowance(const Tolerance& t, double value) {
  switch (t.kind) {
    case Tolerance::Kind::exact:
      return 0.0;
    case Tolerance::Kind::absolute:
      return t.amount;
    case Tolerance::Kind::relative:
      return t.amount * std::abs(value);
  }
  return 0.0;
}

// Whether `now` lets a counter move further than `before` did, at any value: an exact counter given any
// tolerance, an amount raised; between a relative and an absolute tolerance, at the counter's value.
bool widens(const Tolerance& before, const Tolerance& now, double value) {
  if (now.kind == Tolerance::Kind::exact) return false;
  if (before.kind == Tolerance::Kind::exact) return true;
  if (before.kind == now.kind) return now.amount > before.amount;
  return allowance(now, value) > allowance(before, value);
}

std::string shown(const TimingTolerance& t) {
  return format_number(100.0 * t.relative) + "% + " + format_number(t.absolute_ns) + " ns";
}

const char* const floor_figure = "tolerance of the duration in comparisons (its floor)";

std::string shown_floor(const TimingTolerance& t) {
  return t.compare_floor > 0.0 ? format_number(100.0 * t.compare_floor) + "%" : "the comparison's own";
}

std::optional<BaselineChange> floor_raised(const std::string& test, const TimingTolerance& before,
                                           const TimingTolerance& now) {
  if (!(now.compare_floor > before.compare_floor)) return std::nullopt;
  return BaselineChange{test, floor_figure, shown_floor(before), shown_floor(now), true};
}

void counter_changes(const std::string& test, const TestRecord& base, const TestRecord& head,
                     std::vector<BaselineChange>& out) {
  for (const auto& [name, before] : base.counters) {
    const std::string figure(display_name(name));
    const auto after = head.counters.find(name);
    if (after == head.counters.end()) {
      out.push_back({test, figure, format_number(before.value), "not gated", true});
      continue;
    }
    const CounterValue& now = after->second;
    if (shown(now.tolerance) != shown(before.tolerance))
      out.push_back({test, "tolerance of " + figure, shown(before.tolerance), shown(now.tolerance),
                     widens(before.tolerance, now.tolerance, now.value)});
    if (now.value != before.value)
      out.push_back({test, figure, format_number(before.value), format_number(now.value), false});
  }
}

void timing_changes(const std::string& test, const TestRecord& base, const TestRecord& head,
                    std::vector<BaselineChange>& out) {
  if (!base.timing) return;
  if (!head.timing) {
    out.push_back({test, "duration", format_number(base.timing->median_ns) + " ns", "not gated", true});
    return;
  }
  const TimingSummary &before = *base.timing, &now = *head.timing;
  if (now.tolerance.relative > before.tolerance.relative || now.tolerance.absolute_ns > before.tolerance.absolute_ns)
    out.push_back({test, "tolerance of the duration", shown(before.tolerance), shown(now.tolerance), true});
  if (auto raised = floor_raised(test, before.tolerance, now.tolerance)) out.push_back(std::move(*raised));
  // A slower baseline median lets a slower kernel pass: beyond the timing tolerance's own room it is shown.
  const double room = before.tolerance.relative * before.median_ns + before.tolerance.absolute_ns;
  if (std::abs(now.median_ns - before.median_ns) > room)
    out.push_back({test, "duration (median)", format_number(before.median_ns) + " ns",
                   format_number(now.median_ns) + " ns, " + format_change(now.median_ns, before.median_ns), false});
}

}  // namespace

std::optional<BaselineChange> floor_raised_beyond_baseline(const std::string& test, const TestRecord& baseline,
                                                           const TestRecord& measured) {
  if (!baseline.timing || !measured.timing) return std::nullopt;
  return floor_raised(test, baseline.timing->tolerance, measured.timing->tolerance);
}

std::string BaselineChange::text() const {
  if (after == "not gated")
    return figure + (before.empty() ? "" : " (" + before + ")") + " is no longer gated: removed in this change";
  if (figure.starts_with("tolerance of "))
    return figure + (loosens ? " widened" : " changed") + " from " + before + " to " + after + " in this change";
  return figure + " changed from " + before + " to " + after + " in this change";
}

std::vector<BaselineChange> baseline_changes(const SuiteFile& base, const SuiteFile& head) {
  std::vector<BaselineChange> out;
  for (const auto& [test, before] : base.tests) {
    const auto now = head.tests.find(test);
    if (now == head.tests.end()) {
      out.push_back({test, "the test", "", "not gated", true});
      continue;
    }
    counter_changes(test, before, now->second, out);
    timing_changes(test, before, now->second, out);
  }
  return out;
}

}  // namespace bankgate::gate
