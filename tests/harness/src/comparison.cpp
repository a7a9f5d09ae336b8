#include <bankgate/harness/comparison.hpp>

#include <cmath>
#include <set>

#include <bankgate/harness/report.hpp>

namespace bankgate::harness {

bool counter_within_tolerance(double measured, double baseline, const Tolerance& tolerance) {
  const double difference = std::abs(measured - baseline);
  switch (tolerance.kind) {
    case Tolerance::Kind::exact: return difference == 0.0;
    case Tolerance::Kind::absolute: return difference <= tolerance.amount;
    case Tolerance::Kind::relative: return difference <= tolerance.amount * std::abs(baseline);
  }
  return false;
}

Verdict judge_timing(double measured_median_ns, const TimingSummary& baseline) {
  const TimingTolerance& t = baseline.tolerance;
  const double slack = baseline.median_ns * t.relative + t.absolute_ns;
  if (measured_median_ns > baseline.median_ns + slack) return Verdict::slower;
  if (measured_median_ns < baseline.median_ns - slack) return Verdict::faster;
  return Verdict::pass;
}

std::string describe(const Tolerance& tolerance) {
  switch (tolerance.kind) {
    case Tolerance::Kind::exact: return "exact";
    case Tolerance::Kind::absolute: return "+/-" + format_number(tolerance.amount) + " (" + tolerance.reason + ")";
    case Tolerance::Kind::relative:
      return "+/-" + format_number(tolerance.amount * 100) + "% (" + tolerance.reason + ")";
  }
  return "?";
}

std::string describe(const TimingTolerance& tolerance) {
  return "median +/-" + format_number(tolerance.relative * 100) + "% +/-" + format_number(tolerance.absolute_ns) + " ns";
}

std::vector<Finding> compare(const TestRecord& baseline, const TestRecord& measured) {
  std::vector<Finding> findings;
  std::set<std::string> names;
  for (const auto& [name, unused] : baseline.counters) names.insert(name);
  for (const auto& [name, unused] : measured.counters) names.insert(name);
  for (const auto& name : names) {
    const auto b = baseline.counters.find(name);
    const auto m = measured.counters.find(name);
    Finding f{name, false, 0.0, 0.0, "exact", Verdict::pass};
    if (b == baseline.counters.end()) {
      f.measured = m->second.value;
      f.verdict = Verdict::not_in_baseline;
    } else if (m == measured.counters.end()) {
      f.baseline = b->second.value;
      f.tolerance = describe(b->second.tolerance);
      f.verdict = Verdict::not_measured;
    } else {
      f.measured = m->second.value;
      f.baseline = b->second.value;
      f.tolerance = describe(b->second.tolerance);
      f.verdict = counter_within_tolerance(f.measured, f.baseline, b->second.tolerance) ? Verdict::pass : Verdict::counter_changed;
    }
    findings.push_back(f);
  }
  if (baseline.timing || measured.timing) {
    Finding f{duration_metric, true, 0.0, 0.0, "", Verdict::pass};
    if (!baseline.timing) {
      f.measured = measured.timing->median_ns;
      f.verdict = Verdict::not_in_baseline;
    } else if (!measured.timing) {
      f.baseline = baseline.timing->median_ns;
      f.verdict = Verdict::not_measured;
    } else {
      f.measured = measured.timing->median_ns;
      f.baseline = baseline.timing->median_ns;
      f.tolerance = describe(baseline.timing->tolerance);
      f.verdict = judge_timing(f.measured, *baseline.timing);
    }
    findings.push_back(f);
  }
  return findings;
}

bool is_failure(Verdict verdict) { return verdict != Verdict::pass && verdict != Verdict::faster; }

std::string to_string(Verdict verdict) {
  switch (verdict) {
    case Verdict::pass: return "ok";
    case Verdict::counter_changed: return "CHANGED";
    case Verdict::slower: return "SLOWER";
    case Verdict::faster: return "faster";
    case Verdict::not_in_baseline: return "NOT IN BASELINE";
    case Verdict::not_measured: return "NOT MEASURED";
  }
  return "?";
}

}  // namespace bankgate::harness
