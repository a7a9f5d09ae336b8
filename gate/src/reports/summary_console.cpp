// The gate summary on the console: one row per test, the run's problems, the headline.
#include <bankgate/gate/gate_summary.hpp>

#include <sstream>

#include <bankgate/gate/report.hpp>
#include <bankgate/gate/text.hpp>

#include "summary_text.hpp"

namespace bankgate::gate {

std::string render_console(const GateSummary& s) {
  std::vector<std::vector<std::string>> rows{{"test", "result", "device", "detail"}};
  for (const TestResult& t : s.tests)
    rows.push_back({t.name, to_string(t.outcome), t.device.empty() ? "-" : t.device, summary_text::detail(t)});
  std::ostringstream out;
  if (!s.tests.empty()) out << format_table(rows);
  for (const std::string& p : s.problems) out << "problem: " << p << "\n";
  out << "bankgate gate " << summary_text::headline(s) << "\n";
  return terminal_safe(out.str());  // names and messages come from the tests' reports
}

}  // namespace bankgate::gate
