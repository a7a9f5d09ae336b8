#include "baseline_review.hpp"

#include <bankgate/harness/report.hpp>
#include <bankgate/metrics.hpp>

namespace bankgate::tools {
namespace {

bool glob(const char* pattern, const char* text) {
  if (*pattern == '\0') return *text == '\0';
  if (*pattern == '*') return glob(pattern + 1, text) || (*text != '\0' && glob(pattern, text + 1));
  if (*text == '\0') return false;
  return (*pattern == '?' || *pattern == *text) && glob(pattern + 1, text + 1);
}

bool matches_any(const std::string& name, const std::string& patterns) {
  std::size_t start = 0;
  while (start <= patterns.size()) {
    const std::size_t end = std::min(patterns.find(':', start), patterns.size());
    if (glob(patterns.substr(start, end - start).c_str(), name.c_str())) return true;
    start = end + 1;
  }
  return false;
}

}  // namespace

bool matches_filter(const std::string& name, const std::string& filter) {
  if (filter.empty()) return true;
  const std::size_t minus = filter.find('-');
  const std::string positive = minus == std::string::npos ? filter : filter.substr(0, minus);
  const std::string negative = minus == std::string::npos ? "" : filter.substr(minus + 1);
  const bool included = positive.empty() || matches_any(name, positive);
  return included && (negative.empty() || !matches_any(name, negative));
}

std::vector<ReviewRow> review(const std::map<std::string, harness::SuiteFile>& candidates,
                              const std::map<std::string, harness::SuiteFile>& baselines) {
  std::vector<ReviewRow> rows;
  for (const auto& [suite, candidate] : candidates) {
    const auto b = baselines.find(suite);
    for (const auto& [test, measured] : candidate.tests) {
      const harness::TestRecord empty;
      const harness::TestRecord* baseline = &empty;
      if (b != baselines.end())
        if (const auto t = b->second.tests.find(test); t != b->second.tests.end()) baseline = &t->second;
      for (const harness::Finding& f : harness::compare(*baseline, measured)) rows.push_back({suite, test, measured.correct, f});
    }
  }
  return rows;
}

std::string render(const std::vector<ReviewRow>& rows, bool only_changes) {
  std::vector<std::vector<std::string>> table{{"test", "metric", "old", "new", "change", "verdict"}};
  for (const ReviewRow& r : rows) {
    const harness::Finding& f = r.finding;
    if (only_changes && f.verdict == harness::Verdict::pass && f.measured == f.baseline) continue;
    const bool has_old = f.verdict != harness::Verdict::not_in_baseline;
    const bool has_new = f.verdict != harness::Verdict::not_measured;
    const std::string metric = f.timing ? "duration median [ns]" : std::string(display_name(f.metric));
    table.push_back({r.suite + "." + r.test + (r.correct ? "" : " (WRONG OUTPUT)"), metric,
                     has_old ? harness::format_number(f.baseline) : "-", has_new ? harness::format_number(f.measured) : "-",
                     has_old && has_new ? harness::format_change(f.measured, f.baseline) : "new",
                     harness::to_string(f.verdict)});
  }
  return harness::format_table(table);
}

harness::SuiteFile promote(const harness::SuiteFile* baseline, const harness::SuiteFile& candidate,
                           const std::vector<std::string>& tests, const harness::Provenance& provenance) {
  harness::SuiteFile result = baseline != nullptr ? *baseline : harness::SuiteFile{};
  result.schema_version = harness::current_schema_version;
  result.suite = candidate.suite;
  result.gpu = candidate.gpu;
  result.provenance = provenance;
  for (const auto& test : tests) {
    harness::TestRecord record = candidate.tests.at(test);
    record.samples_ns.clear();
    // Tolerances travel with the candidate: they are set, with their reasons, in the test's code (KernelCase),
    // so a refresh writes what the test asks for now, and the baseline diff shows a changed tolerance.
    result.tests[test] = record;
  }
  return result;
}

}  // namespace bankgate::tools
