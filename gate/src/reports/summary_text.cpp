#include "summary_text.hpp"

#include <algorithm>
#include <set>

#include <bankgate/gate/number_format.hpp>
#include <bankgate/gate/run_protocol.hpp>

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
      std::string text = c.metric + ": " + c.baseline + " -> " + c.measured + (c.change.empty() ? "" : " (" + c.change + ")");
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
  return static_cast<std::size_t>(std::count_if(s.tests.begin(), s.tests.end(), [&](const TestResult& t) { return t.outcome == o; }));
}

std::string headline(const GateSummary& s) {
  const std::size_t failed = s.tests.size() - count(s, Outcome::passed);
  const std::string gpus = gpus_of(s);
  switch (s.exit_code()) {
    case protocol::exit_ok:
      return "passed: " + std::to_string(s.tests.size()) + " GPU tests" + (gpus.empty() ? "" : " on " + gpus);
    case protocol::exit_regression:
      return "FAILED: " + std::to_string(failed) + " of " + std::to_string(s.tests.size()) + " GPU tests failed, " +
             std::to_string(count(s, Outcome::regressed)) + " of them regressed";
    default:
      if (s.tests.empty()) return "FAILED: no GPU test ran";
      return "FAILED: could not measure " + std::to_string(failed) + " of " + std::to_string(s.tests.size()) + " GPU tests" +
             (failed == 0 ? " (see the problems below)" : "");
  }
}

}  // namespace bankgate::gate::summary_text
