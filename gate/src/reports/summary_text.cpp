#include "summary_text.hpp"

#include <algorithm>
#include <set>

#include <bankgate/gate/rules/comparison.hpp>
#include <bankgate/gate/text/number_format.hpp>
#include <bankgate/gate/text/text.hpp>
#include <bankgate/gate/protocol/run_protocol.hpp>

namespace bankgate::gate::summary_text {
namespace {

std::string gpus_of(const GateSummary& s) {
  std::set<std::string> names;
  for (const TestResult& t : s.tests)
    if (!t.gpu.empty()) names.insert(t.gpu);
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

}  // namespace

std::string first_line(const std::string& text, std::size_t width) {
  std::string line = text.substr(0, text.find('\n'));
  if (line.size() > width) line = line.substr(0, width - 3) + "...";
  return line;
}

std::string detail(const TestResult& t, std::size_t width) {
  switch (t.outcome) {
    case Outcome::passed:
      return t.median_ns ? "median " + format_number(*t.median_ns) + " ns" : "";
    case Outcome::regressed: {
      if (t.changes.empty()) return first_line(t.reason, width);
      const MetricChange& c = t.changes.front();
      std::string text =
          c.metric + ": " + c.baseline + " -> " + c.measured + (c.change.empty() ? "" : " (" + c.change + ")");
      if (t.changes.size() > 1) text += " and " + std::to_string(t.changes.size() - 1) + " more";
      return text;
    }
    case Outcome::not_measured:
    case Outcome::skipped:
      return first_line(t.reason, width);
  }
  return "";
}

std::size_t count(const GateSummary& s, Outcome o) {
  return static_cast<std::size_t>(
      std::count_if(s.tests.begin(), s.tests.end(), [&](const TestResult& t) { return t.outcome == o; }));
}

std::string headline(const GateSummary& s) {
  const std::size_t failed = s.tests.size() - count(s, Outcome::passed);
  const std::string gpus = gpus_of(s);
  switch (s.exit_code()) {
    case protocol::exit_ok:
      return "passed: " + counted(s.tests.size(), "GPU test") + (gpus.empty() ? "" : " on " + gpus);
    case protocol::exit_regression:
      return "FAILED: " + std::to_string(failed) + " of " + counted(s.tests.size(), "GPU test") + " failed, " +
             std::to_string(count(s, Outcome::regressed)) + " of them regressed";
    default:
      if (s.tests.empty()) return "FAILED: no GPU test ran";
      if (failed == 0)
        return "FAILED: all " + counted(s.tests.size(), "GPU test") + " measured, but a problem below stops the gate";
      return "FAILED: could not measure " + std::to_string(failed) + " of " + counted(s.tests.size(), "GPU test");
  }
}

bool refresh_fixes(const TestResult& t) {
  if (t.outcome != Outcome::regressed || t.changes.empty() || t.refresh.empty() || (t.measured && !t.measured->correct))
    return false;
  // The verdicts a new recording settles (comparison.hpp's Verdict, as to_string() words them).
  static const std::set<std::string> recordable{to_string(Verdict::counter_changed), to_string(Verdict::slower),
                                                to_string(Verdict::faster), to_string(Verdict::not_in_baseline),
                                                to_string(Verdict::method_changed)};
  return std::all_of(t.changes.begin(), t.changes.end(),
                     [](const MetricChange& c) { return recordable.count(c.verdict) > 0; });
}

bool needs_first_baseline(const TestResult& t) {
  return t.outcome == Outcome::not_measured && !t.refresh.empty() &&
         (t.refresh.find("--new-gpu") != std::string::npos || t.reason.starts_with("no baseline"));
}

std::string gpu_text(const MeasuredGpu& gpu) {
  if (gpu.name.empty()) return "";
  std::string details;
  if (!gpu.driver_release.empty()) details = "driver " + gpu.driver_release;
  if (gpu.driver_version > 0)
    details += (details.empty() ? "" : ", ") + std::string("CUDA ") + std::to_string(gpu.driver_version / 1000) + "." +
               std::to_string(gpu.driver_version % 1000 / 10);
  return gpu.name + (details.empty() ? "" : " (" + details + ")");
}

std::string gpus_text(const RunProvenance& p) {
  std::string out;
  for (const MeasuredGpu& gpu : p.gpus) out += (out.empty() ? "" : "; ") + gpu_text(gpu);
  return out;
}

std::string short_commit(const std::string& commit) {
  std::string out;
  for (std::size_t start = 0; start < commit.size();) {
    const std::size_t end = std::min(commit.find(", ", start), commit.size());
    out += (out.empty() ? "" : ", ") + commit.substr(start, std::min<std::size_t>(end - start, 12));
    start = end + 2;
  }
  return out;
}

std::string provenance_line(const RunProvenance& p) {
  std::string line = "bankgate " + p.tool_version;
  line += ", commit " + (p.commit.empty() ? std::string("unknown") : short_commit(p.commit)) +
          (p.dirty ? " (uncommitted changes)" : "");
  if (const std::string gpus = gpus_text(p); !gpus.empty()) line += ", " + gpus;
  return line;
}

}  // namespace bankgate::gate::summary_text
