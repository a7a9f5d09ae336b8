#include <bankgate/gate/run_comparison.hpp>

#include <bankgate/gate/baseline_folder.hpp>

#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include <bankgate/gate/report.hpp>
#include <bankgate/gate/statistics.hpp>
#include <bankgate/metrics.hpp>

#include <bankgate/gate/baseline_review.hpp>

namespace bankgate::gate {
namespace {

namespace fs = std::filesystem;
namespace h = bankgate::gate;

// Rounds of one build must agree on everything but durations; otherwise pooling would hide a difference.
void check_same_kind(const h::TestRecord& first, const h::TestRecord& next, const std::string& name, const fs::path& file) {
  if (first.kernel != next.kernel || first.correct != next.correct)
    throw std::runtime_error(file.string() + ": " + name + " differs from an earlier round in kernel or correctness");
  if (first.timing.has_value() != next.timing.has_value() ||
      (first.timing && (first.timing->l2 != next.timing->l2 ||
                        first.timing->launches_per_sample != next.timing->launches_per_sample)))
    throw std::runtime_error(file.string() + ": " + name + " was timed differently from an earlier round");
}

}  // namespace

PooledRuns pooled_candidates(const fs::path& root, const std::string& filter) {
  if (!fs::is_directory(root)) throw std::runtime_error(root.string() + " is not a folder of candidate files");
  PooledRuns runs;
  std::map<std::string, h::TestRecord>& pooled = runs.records;
  std::map<std::string, std::size_t> dropped;
  // Read inside the folder (confined_folder.hpp); files_below sorts: rounds in a fixed order, so the first round
  // is the same every time.
  const h::ConfinedFolder folder(root, "the candidates folder");
  std::vector<std::string> problems;
  const auto files = folder.files_below(".", [](const std::string& name) { return name.ends_with(".json"); }, problems);
  if (!problems.empty()) throw std::runtime_error(problems.front());
  for (const fs::path& relative : files) {
    const fs::path file = folder.display(relative);
    h::SuiteFile one;
    try {
      one = h::read_suite_file(folder, relative);
    } catch (const h::OldSchemaError& e) {
      throw std::runtime_error(file.string() + ": a candidate of schema " + std::to_string(e.version()) +
                               ", written by an older bankgate than this one (schema " + std::to_string(h::current_schema_version) +
                               "): both builds of a comparison must measure with the same schema; compare against a base "
                               "commit that already has this bankgate");
    }
    bool pooled_one = false;
    for (const auto& [test, record] : one.tests) {
      const std::string name = one.suite + "." + test;
      if (!matches_filter(name, filter)) continue;
      pooled_one = true;
      auto [it, first] = pooled.try_emplace(name, record);
      if (!first) {
        check_same_kind(it->second, record, name, file);
        it->second.samples_ns.insert(it->second.samples_ns.end(), record.samples_ns.begin(), record.samples_ns.end());
      }
      if (record.timing) {
        dropped[name] += record.timing->dropped_samples;
        RoundTimes& times = runs.rounds[name];
        times.medians_ns.push_back(record.timing->median_ns);
      }
    }
    if (pooled_one) runs.provenance.push_back(one.provenance);
  }
  for (auto& [name, record] : pooled) {
    if (!record.timing) continue;
    if (record.samples_ns.empty())
      throw std::runtime_error(name + ": a candidate under " + root.string() + " has a timing summary but no samples_ns");
    h::TimingSummary summary = h::summarize_durations(record.samples_ns);
    summary.tolerance = record.timing->tolerance;
    summary.l2 = record.timing->l2;
    summary.launches_per_sample = record.timing->launches_per_sample;
    summary.warmup_launches = record.timing->warmup_launches;
    summary.sm_clock_mhz = record.timing->sm_clock_mhz;
    summary.dropped_samples = dropped[name];
    record.timing = summary;
  }
  return runs;
}

namespace {

// The duration's finding judged by the rounds' own noise, where both sides have two rounds or more and were
// sampled alike (compare() refused anything else already).
void judge_by_rounds(h::Finding& f, const RoundTimes& base, const RoundTimes& head, int launches_per_sample,
                     const NoisePolicy& policy) {
  if (base.medians_ns.size() < 2 || head.medians_ns.size() < 2) return;
  if (f.verdict == h::Verdict::method_changed || f.verdict == h::Verdict::too_few_samples) return;
  const RoundDecision d = judge_rounds({base.medians_ns, head.medians_ns, launches_per_sample}, policy);
  f.verdict = d.verdict;
  f.detail = d.detail;
  char floor[64];
  std::snprintf(floor, sizeof floor, "noise-based: beyond %.2f%% and significant at 99.99%%", 100.0 * d.floor);
  f.tolerance = floor;
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
        if (f.timing) judge_by_rounds(f, b->second, hr->second, record.timing->launches_per_sample, policy);
    rows[name] = std::move(row);
  }
  for (const auto& [name, record] : head.records)
    if (!base.records.count(name)) rows[name] = {name, record.correct, h::compare(none, record)};
  std::vector<ComparisonRow> out;
  for (auto& [name, row] : rows) out.push_back(std::move(row));
  return out;
}

bool any_inconclusive(const std::vector<ComparisonRow>& rows) {
  for (const ComparisonRow& row : rows)
    for (const h::Finding& f : row.findings)
      if (f.verdict == h::Verdict::inconclusive) return true;
  return false;
}

std::string render_comparison(const std::vector<ComparisonRow>& rows, bool fail_on_speedup, const Palette& palette) {
  std::vector<std::vector<std::string>> table{{"test", "base", "head", "change", "verdict"}};
  h::TableStyle style{h::console_width, palette, 4, {}};
  std::vector<std::string> notes;
  for (const ComparisonRow& row : rows) {
    bool shown = false;
    for (const h::Finding& f : row.findings) {
      const bool has_base = f.verdict != h::Verdict::not_in_baseline;
      const bool has_head = f.verdict != h::Verdict::not_measured;
      if (!f.timing && f.verdict == h::Verdict::pass) continue;  // unchanged counters stay out of the way
      const std::string unit = f.timing ? " ns" : "";
      const std::string kernel = f.kernel.empty() ? "" : " " + f.kernel + ":";
      const std::string label = (f.timing ? row.test + kernel : row.test + kernel + " " + std::string(display_name(f.metric))) +
                                (row.head_correct ? "" : " (WRONG OUTPUT in head)");
      std::string verdict = h::to_string(f.verdict);
      if (f.verdict == h::Verdict::faster && fail_on_speedup) verdict += " (fails: BANKGATE_FAIL_ON_SPEEDUP)";
      table.push_back({label, has_base ? h::format_number(f.baseline) + unit : "-",
                       has_head ? h::format_number(f.measured) + unit : "-",
                       has_base && has_head ? h::format_change(f.measured, f.baseline) : "-", verdict});
      style.tones.push_back(h::tone_of(f.verdict, row.head_correct, fail_on_speedup));
      if (f.timing && f.verdict != h::Verdict::pass && !f.detail.empty()) notes.push_back(row.test + (kernel.empty() ? ":" : kernel) + " " + f.detail);
      shown = true;
    }
    if (!shown) {
      table.push_back({row.test, "-", "-", "-", "no duration"});
      style.tones.push_back(row.head_correct ? h::Tone::plain : h::Tone::bad);
    }
  }
  std::string text = h::format_table(table, style);
  for (const std::string& note : notes) text += "  " + h::terminal_safe(note) + "\n";  // names from candidate files
  return text;
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
