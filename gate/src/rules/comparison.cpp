#include <bankgate/gate/rules/comparison.hpp>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <limits>
#include <set>

#include <bankgate/gate/text/number_format.hpp>
#include <bankgate/metrics.hpp>

namespace bankgate::gate {

bool counter_within_tolerance(double measured, double baseline, const Tolerance& tolerance) {
  const double difference = std::abs(measured - baseline);
  switch (tolerance.kind) {
    case Tolerance::Kind::exact:
      return difference == 0.0;
    case Tolerance::Kind::absolute:
      return difference <= tolerance.amount;
    case Tolerance::Kind::relative:
      return difference <= tolerance.amount * std::abs(baseline);
  }
  return false;
}

TimingEvidence evidence(const TimingSummary& summary) {
  return {summary.median_ns, summary.median_se_ns, summary.samples};
}

TimingDecision judge_timing(const TimingEvidence& measured, const TimingEvidence& baseline,
                            const TimingTolerance& tolerance) {
  TimingDecision d;
  if (measured.samples < min_timing_samples || baseline.samples < min_timing_samples) {
    d.verdict = Verdict::too_few_samples;
    d.detail = "too few durations to decide: " + std::to_string(measured.samples) + " measured, " +
               std::to_string(baseline.samples) + " in the baseline; at least " + std::to_string(min_timing_samples) +
               " each are needed";
    return d;
  }
  if (!(measured.median_ns > 0.0) || !(baseline.median_ns > 0.0)) {
    d.verdict = Verdict::too_few_samples;
    d.detail = "a median duration of 0 ns cannot be compared";
    return d;
  }
  d.ratio = measured.median_ns / baseline.median_ns;
  // The log of a ratio of medians is close to normal; its variance is the sum of the relative variances.
  const double relative_se =
      std::hypot(measured.median_se_ns / measured.median_ns, baseline.median_se_ns / baseline.median_ns);
  d.ratio_low = d.ratio * std::exp(-timing_confidence_z * relative_se);
  d.ratio_high = d.ratio * std::exp(timing_confidence_z * relative_se);
  d.significant = d.ratio_low > 1.0 || d.ratio_high < 1.0;
  const double threshold_ns = baseline.median_ns * tolerance.relative + tolerance.absolute_ns;
  d.beyond_tolerance = std::abs(measured.median_ns - baseline.median_ns) > threshold_ns;
  // A kernel with modes runs at another speed in each process: a run's own samples would call any change of speed
  // significant, so the tolerance its modes set decides alone.
  const bool modes = !tolerance.modes_ns.empty();
  if (d.beyond_tolerance && (d.significant || modes)) d.verdict = d.ratio > 1.0 ? Verdict::slower : Verdict::faster;

  char text[200];
  if (modes)
    std::snprintf(text, sizeof text, "%+.2f%%, %s the tolerance of %s ns its process modes set",
                  100.0 * (d.ratio - 1.0), d.beyond_tolerance ? "beyond" : "within",
                  format_number(threshold_ns).c_str());
  else
    std::snprintf(text, sizeof text, "%+.2f%% (99%% interval %+.2f%% .. %+.2f%%), %s, %s the tolerance of %s ns",
                  100.0 * (d.ratio - 1.0), 100.0 * (d.ratio_low - 1.0), 100.0 * (d.ratio_high - 1.0),
                  d.significant ? "significant" : "not significant", d.beyond_tolerance ? "beyond" : "within",
                  format_number(threshold_ns).c_str());
  d.detail = text;
  if (!tolerance.reason.empty()) d.detail += " (" + tolerance.reason + ")";
  return d;
}

std::string describe(const Tolerance& tolerance) {
  switch (tolerance.kind) {
    case Tolerance::Kind::exact:
      return "exact";
    case Tolerance::Kind::absolute:
      return "+/-" + format_number(tolerance.amount) + " (" + tolerance.reason + ")";
    case Tolerance::Kind::relative:
      return "+/-" + format_number(tolerance.amount * 100) + "% (" + tolerance.reason + ")";
  }
  return "?";
}

std::string describe(const TimingTolerance& tolerance) {
  const std::string bounds =
      "median +/-" + format_number(tolerance.relative * 100) + "% +/-" + format_number(tolerance.absolute_ns) + " ns";
  return tolerance.modes_ns.empty() ? bounds + ", and significant at 99%" : bounds + ", which the process modes set";
}

namespace {

// One kernel's findings: one per counter of either, one for the duration where either was timed.
std::vector<Finding> compare_kernel(const KernelRecord& baseline, const KernelRecord& measured) {
  std::vector<Finding> findings;
  std::set<std::string> names;
  for (const auto& [name, unused] : baseline.counters) names.insert(name);
  for (const auto& [name, unused] : measured.counters) names.insert(name);
  for (const auto& name : names) {
    const auto b = baseline.counters.find(name);
    const auto m = measured.counters.find(name);
    Finding f{name, false, 0.0, 0.0, "exact", Verdict::pass, ""};
    if (b == baseline.counters.end()) {
      f.measured = m->second.value;
      f.verdict = Verdict::not_in_baseline;
      // A counter of the metric table that the baseline predates (recorded before bankgate counted it) and that
      // reads 0 now: the kernel does not use that path, so the baseline still describes it.
      if (f.measured == 0.0 && find_metric(name) != nullptr) {
        f.verdict = Verdict::pass;
        f.tolerance = "0, as a baseline recorded before this counter existed implies";
      }
    } else if (m == measured.counters.end()) {
      f.baseline = b->second.value;
      f.tolerance = describe(b->second.tolerance);
      f.verdict = Verdict::not_measured;
    } else {
      f.measured = m->second.value;
      f.baseline = b->second.value;
      f.tolerance = describe(b->second.tolerance);
      f.verdict = counter_within_tolerance(f.measured, f.baseline, b->second.tolerance) ? Verdict::pass
                                                                                        : Verdict::counter_changed;
    }
    findings.push_back(f);
  }
  if (baseline.timing || measured.timing) {
    Finding f{duration_metric, true, 0.0, 0.0, "", Verdict::pass, ""};
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
      const TimingSummary& b = *baseline.timing;
      const TimingSummary& m = *measured.timing;
      if (b.l2 != m.l2 || b.launches_per_sample != m.launches_per_sample) {
        f.verdict = Verdict::method_changed;
        f.detail = "the baseline was timed with L2 " + b.l2 + " and " + std::to_string(b.launches_per_sample) +
                   " launch(es) per sample, this run with L2 " + m.l2 + " and " +
                   std::to_string(m.launches_per_sample) + "; refresh the baseline after changing how a test is timed";
      } else {
        const TimingDecision d = judge_timing(evidence(m), evidence(b), b.tolerance);
        f.verdict = d.verdict;
        f.detail = d.detail;
      }
    }
    findings.push_back(f);
  }
  return findings;
}

}  // namespace

const KernelRecord* kernel_labelled(const TestRecord& record, const std::string& label) {
  if (label.empty()) return &record;
  const std::vector<std::string> labels = kernel_labels(record);
  const std::vector<const KernelRecord*> kernels = record.kernels();
  for (std::size_t i = 0; i < labels.size(); ++i)
    if (labels[i] == label) return kernels[i];
  return nullptr;
}

namespace {
std::atomic<std::size_t> comparisons{0};
}  // namespace

std::size_t comparisons_made() { return comparisons.load(); }

std::vector<Finding> compare(const TestRecord& baseline, const TestRecord& measured) {
  ++comparisons;
  std::vector<Finding> findings;
  if (baseline.later_kernels.empty() && measured.later_kernels.empty()) {
    findings = compare_kernel(baseline, measured);
  } else {
    // The measured kernels in launch order, then those only the baseline has.
    std::vector<std::string> labels = kernel_labels(measured);
    for (const std::string& label : kernel_labels(baseline))
      if (std::find(labels.begin(), labels.end(), label) == labels.end()) labels.push_back(label);
    const KernelRecord none;
    for (const std::string& label : labels) {
      const KernelRecord* b = kernel_labelled(baseline, label);
      const KernelRecord* m = kernel_labelled(measured, label);
      for (Finding& f : compare_kernel(b ? *b : none, m ? *m : none)) {
        f.kernel = label;
        findings.push_back(std::move(f));
      }
    }
  }
  order_by_explanation(findings);
  return findings;
}

namespace {

// How well a finding's kind explains a change, 0 first: memory traffic of shared, global and local memory, each
// before its requests (instructions of that kind, CUPTI's inst_executed metrics: the traffic says what they cost),
// then the duration, the launch figures and the instruction counts. wgmma's operands and a cluster's distributed
// shared memory are shared-memory traffic; TMA moves global memory.
int explanation_rank(const Finding& f) {
  if (f.timing) return 6;
  const MetricTraits* traits = find_metric(f.metric);
  if (traits == nullptr) return 9;  // a counter this bankgate does not know: after every known one
  const bool requests = f.metric.find("inst_executed") != std::string::npos;
  switch (traits->group) {
    case CounterGroup::shared:
    case CounterGroup::wgmma:
    case CounterGroup::cluster:
      return requests ? 1 : 0;
    case CounterGroup::global:
    case CounterGroup::tma:
      return requests ? 3 : 2;
    case CounterGroup::local:
      return requests ? 5 : 4;
    case CounterGroup::launch:
      return 7;
    case CounterGroup::instructions:
      return 8;
  }
  return 9;
}

// The change relative to the baseline; a value that appeared, vanished or left zero is the largest change there is.
double relative_change(const Finding& f) {
  if (f.verdict == Verdict::not_in_baseline || f.verdict == Verdict::not_measured)
    return std::numeric_limits<double>::infinity();
  if (f.measured == f.baseline) return 0.0;
  if (f.baseline == 0.0) return std::numeric_limits<double>::infinity();
  return std::abs(f.measured - f.baseline) / std::abs(f.baseline);
}

}  // namespace

void order_by_explanation(std::vector<Finding>& findings) {
  std::stable_sort(findings.begin(), findings.end(), [](const Finding& a, const Finding& b) {
    const int rank_a = explanation_rank(a), rank_b = explanation_rank(b);
    if (rank_a != rank_b) return rank_a < rank_b;
    return relative_change(a) > relative_change(b);
  });
}

bool is_failure(Verdict verdict, bool fail_on_speedup) {
  if (verdict == Verdict::inconclusive) return false;  // its own outcome (exit_inconclusive), never a pass or a failure
  return verdict != Verdict::pass && (verdict != Verdict::faster || fail_on_speedup);
}

std::string to_string(Verdict verdict) {
  switch (verdict) {
    case Verdict::pass:
      return "ok";
    case Verdict::counter_changed:
      return "CHANGED";
    case Verdict::slower:
      return "SLOWER";
    case Verdict::faster:
      return "faster";
    case Verdict::not_in_baseline:
      return "NOT IN BASELINE";
    case Verdict::not_measured:
      return "NOT MEASURED";
    case Verdict::method_changed:
      return "TIMED DIFFERENTLY";
    case Verdict::too_few_samples:
      return "TOO FEW SAMPLES";
    case Verdict::inconclusive:
      return "INCONCLUSIVE";
  }
  return "?";
}

std::string verdict_id(Verdict verdict) {
  switch (verdict) {
    case Verdict::pass:
      return "pass";
    case Verdict::counter_changed:
      return "counter_changed";
    case Verdict::slower:
      return "slower";
    case Verdict::faster:
      return "faster";
    case Verdict::not_in_baseline:
      return "not_in_baseline";
    case Verdict::not_measured:
      return "not_measured";
    case Verdict::method_changed:
      return "method_changed";
    case Verdict::too_few_samples:
      return "too_few_samples";
    case Verdict::inconclusive:
      return "inconclusive";
  }
  return "unknown";
}

}  // namespace bankgate::gate
