#include <bankgate/gate/rules/run_comparison.hpp>

#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include <bankgate/gate/rules/statistics.hpp>
#include <bankgate/gate/text/number_format.hpp>
#include <bankgate/metrics.hpp>

namespace bankgate::gate {

namespace h = bankgate::gate;

namespace {

// The duration's finding judged by the rounds' own noise, where both sides have two rounds or more and were
// sampled alike (compare() refused anything else already).
// The test's own floor is the base's: a change cannot loosen the comparison that judges it.
void judge_by_rounds(h::Finding& f, const RoundTimes& base, const RoundTimes& head, const TimingSummary& base_timing,
                     const NoisePolicy& policy) {
  if (base.medians_ns.size() < 2 || head.medians_ns.size() < 2) return;
  if (f.verdict == h::Verdict::method_changed || f.verdict == h::Verdict::too_few_samples) return;
  const RoundDecision d = judge_rounds(
      {base.medians_ns, head.medians_ns, base_timing.launches_per_sample, base_timing.tolerance.compare_floor}, policy);
  f.verdict = d.verdict;
  f.detail = d.detail;
  char floor[96];
  std::snprintf(floor, sizeof floor, "noise-based: beyond %.2f%%%s and significant at 99.99%%", 100.0 * d.floor,
                d.floor_of_test ? " (the test's own floor)" : "");
  f.tolerance = floor;
}

std::size_t round_count(const PooledRuns& runs, const std::string& test) {
  const auto it = runs.rounds.find(test);
  return it == runs.rounds.end() ? 0 : it->second.medians_ns.size();
}

}  // namespace

std::vector<ComparisonRow> compare_runs(const PooledRuns& base, const PooledRuns& head, const NoisePolicy& policy) {
  std::map<std::string, ComparisonRow> rows;
  const h::TestRecord none;
  for (const auto& [name, record] : base.records) {
    const auto other = head.records.find(name);
    ComparisonRow row{name, other == head.records.end() || other->second.correct,
                      h::compare(record, other == head.records.end() ? none : other->second)};
    const auto b = base.rounds.find(name), hr = head.rounds.find(name);
    if (other != head.records.end() && b != base.rounds.end() && hr != head.rounds.end() && record.timing)
      for (h::Finding& f : row.findings)
        if (f.timing) judge_by_rounds(f, b->second, hr->second, *record.timing, policy);
    rows[name] = std::move(row);
  }
  for (const auto& [name, record] : head.records)
    if (!base.records.count(name)) rows[name] = {name, record.correct, h::compare(none, record)};
  std::vector<ComparisonRow> out;
  for (auto& [name, row] : rows) {
    row.base_rounds = round_count(base, name);
    row.head_rounds = round_count(head, name);
    out.push_back(std::move(row));
  }
  return out;
}

std::string own_floors_line(const PooledRuns& base) {
  std::string tests;
  for (const auto& [name, record] : base.records)
    if (record.timing && record.timing->tolerance.compare_floor > 0.0)
      tests += (tests.empty() ? "" : ", ") + name + " " +
               format_number(100.0 * record.timing->tolerance.compare_floor) + "%";
  return tests.empty() ? ""
                       : "floors of their own (timing_tolerance.compare_floor; where larger than the comparison's, "
                         "smaller changes count as none): " +
                             tests;
}

bool any_inconclusive(const std::vector<ComparisonRow>& rows) {
  for (const ComparisonRow& row : rows)
    for (const h::Finding& f : row.findings)
      if (f.verdict == h::Verdict::inconclusive) return true;
  return false;
}

bool any_failure(const std::vector<ComparisonRow>& rows, bool fail_on_speedup) {
  for (const ComparisonRow& row : rows) {
    if (!row.head_correct) return true;
    for (const h::Finding& f : row.findings)
      if (h::is_failure(f.verdict, fail_on_speedup)) return true;
  }
  return false;
}

}  // namespace bankgate::gate
