#include <bankgate/gate/rules/baseline_changes.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

#include <bankgate/gate/rules/comparison.hpp>
#include <bankgate/gate/rules/suite_file_table.hpp>
#include <bankgate/gate/text/number_format.hpp>
#include <bankgate/gate/text/text.hpp>
#include <bankgate/metrics.hpp>

namespace bankgate::gate {
namespace {

using nlohmann::json;
using Changes = std::vector<BaselineChange>;

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

std::string percent(double fraction) {
  return std::isfinite(fraction) ? format_number(100.0 * fraction) + "%" : "none (too few samples to decide)";
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

// The smallest slowdown, as a fraction, that a gate against `t` can fail, for a run as noisy as the baseline: the
// tolerance's, and without process modes also the one the run's significance needs (comparison.cpp's rule for
// two equal standard errors). Infinite where the baseline has too few samples to decide at all.
double smallest_failing_slowdown(const TimingSummary& t) {
  if (t.samples < min_timing_samples || !(t.median_ns > 0.0)) return std::numeric_limits<double>::infinity();
  const double tolerance = (t.tolerance.relative * t.median_ns + t.tolerance.absolute_ns) / t.median_ns;
  if (!t.tolerance.modes_ns.empty()) return tolerance;
  return std::max(tolerance, std::expm1(timing_confidence_z * std::sqrt(2.0) * t.median_se_ns / t.median_ns));
}

// A standard error measured again varies by a few percent between refreshes of the same kernel; a detection limit
// more than a tenth above the base's is a change the reviewer must see, not that noise.
constexpr double detection_noise = 1.10;

void counter_changes(const std::string& test, const KernelRecord& base, const KernelRecord& head, Changes& out) {
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

// What the judgement reads of a duration besides its tolerance: process modes, standard error and samples.
void detection_changes(const std::string& test, const TimingSummary& before, const TimingSummary& now, bool widened,
                       Changes& out) {
  if (!before.tolerance.modes_ns.empty() && now.tolerance.modes_ns.empty())
    out.push_back({test, "process modes of the duration (timing.tolerance.modes_ns)",
                   std::to_string(before.tolerance.modes_ns.size()) + " modes", "not gated", true});
  const double was = smallest_failing_slowdown(before), is = smallest_failing_slowdown(now);
  if (!widened && is > was * detection_noise)
    out.push_back({test, "smallest slowdown the gate can fail", percent(was),
                   percent(is) + " (the median's standard error " + format_number(before.median_se_ns) + " -> " +
                       format_number(now.median_se_ns) + " ns, samples " + std::to_string(before.samples) + " -> " +
                       std::to_string(now.samples) + ")",
                   true});
}

void timing_changes(const std::string& test, const KernelRecord& base, const KernelRecord& head, Changes& out) {
  if (!base.timing) return;
  if (!head.timing) {
    out.push_back({test, "duration", format_number(base.timing->median_ns) + " ns", "not gated", true});
    return;
  }
  const TimingSummary &before = *base.timing, &now = *head.timing;
  const bool widened =
      now.tolerance.relative > before.tolerance.relative || now.tolerance.absolute_ns > before.tolerance.absolute_ns;
  if (widened) out.push_back({test, "tolerance of the duration", shown(before.tolerance), shown(now.tolerance), true});
  if (auto raised = floor_raised(test, before.tolerance, now.tolerance)) out.push_back(std::move(*raised));
  detection_changes(test, before, now, widened, out);
  // A slower baseline median lets a slower kernel pass: beyond the timing tolerance's own room it is shown.
  const double room = before.tolerance.relative * before.median_ns + before.tolerance.absolute_ns;
  if (std::abs(now.median_ns - before.median_ns) > room)
    out.push_back({test, "duration (median)", format_number(before.median_ns) + " ns",
                   format_number(now.median_ns) + " ns, " + format_change(now.median_ns, before.median_ns), false});
}

const SchemaObject* table_named(std::string_view name) {
  for (const SchemaObject& object : schema_objects())
    if (object.name == name) return &object;
  return nullptr;
}

json field_of(const json& object, std::string_view key) {
  const auto it = object.find(std::string(key));
  return it == object.end() ? json() : *it;
}

// Every field of `table` that differs between the two documents, by its row's review class: the rules above have
// compared what the judgement reads (judged); what no rule knows is named as a loosening (unclassified); how a
// figure was taken is named (method). Objects and maps of a table are walked field by field.
void walk(const SchemaObject& table, const json& before, const json& after, const std::string& where,
          const std::string& test, Changes& out) {
  for (const SchemaField& field : table.fields) {
    const json b = field_of(before, field.key), a = field_of(after, field.key);
    if (b == a || field.review == Review::informative) continue;
    const std::string path = where + std::string(field.key);
    const SchemaObject* of = table_named(field.of);
    if (of != nullptr && field.type == JsonType::object && (b.is_object() || a.is_object()) &&
        (field.review == Review::nested || (b.is_object() && a.is_object()))) {
      walk(*of, b.is_object() ? b : json::object(), a.is_object() ? a : json::object(), path + ".", test, out);
    } else if (of != nullptr && field.type == JsonType::map && b.is_object() && a.is_object()) {
      for (const auto& [key, value] : b.items())
        if (a.contains(key)) walk(*of, value, a.at(key), path + "." + key + ".", test, out);
    } else if (field.review == Review::method) {
      out.push_back({test, path + " (how the duration was taken)", json_text(b, -1), json_text(a, -1), false});
    } else if (field.review == Review::unclassified) {
      out.push_back({test, path + " (a field this bankgate cannot judge)", json_text(b, -1),
                     a.is_null() ? "removed" : json_text(a, -1), true});
    }
  }
}

// One kernel of a test, against the base's kernel of the same label.
void kernel_changes(const std::string& test, const KernelRecord& base, const KernelRecord& head, Changes& out) {
  counter_changes(test, base, head, out);
  timing_changes(test, base, head, out);
  walk(schema_object(Part::kernel), kernel_document(base), kernel_document(head), "", test, out);
}

void test_changes(const std::string& test, const TestRecord& base, const TestRecord& head, Changes& out) {
  // A test of one kernel is judged against its baseline whatever the kernel's name; several are paired by label.
  if (base.kernels().size() == 1 && head.kernels().size() == 1) return kernel_changes(test, base, head, out);
  for (const std::string& label : kernel_labels(base)) {
    const KernelRecord* before = kernel_labelled(base, label);
    const KernelRecord* now = kernel_labelled(head, label);
    const std::string named = test + " (kernel " + label + ")";
    if (now == nullptr)
      out.push_back({named, "kernel " + label, "", "not gated", true});
    else
      kernel_changes(named, *before, *now, out);
  }
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
  if (loosens && !figure.ends_with("(a field this bankgate cannot judge)"))
    return figure + " rose from " + before + " to " + after + " in this change";
  return figure + " changed from " + before + " to " + after + " in this change";
}

std::vector<BaselineChange> baseline_changes(const SuiteFile& base, const SuiteFile& head) {
  Changes out;
  for (const auto& [test, before] : base.tests) {
    const auto now = head.tests.find(test);
    if (now == head.tests.end())
      out.push_back({test, "the test", "", "not gated", true});
    else
      test_changes(test, before, now->second, out);
  }
  return out;
}

}  // namespace bankgate::gate
