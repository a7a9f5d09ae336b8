// The gate summary on the console: each failed test's reason, one row per test, the run's problems, the headline.
#include <bankgate/gate/reports/gate_summary.hpp>

#include <sstream>

#include <bankgate/gate/reports/report.hpp>
#include <bankgate/gate/reports/table.hpp>
#include <bankgate/gate/protocol/run_protocol.hpp>
#include <bankgate/gate/text/text.hpp>

#include "summary_text.hpp"

namespace bankgate::gate {
namespace {

Tone tone_of(Outcome outcome) {
  switch (outcome) {
    case Outcome::passed:
      return Tone::good;
    case Outcome::skipped:
      return Tone::doubtful;  // fails the gate, yet nothing was found wrong
    case Outcome::regressed:
    case Outcome::not_measured:
      return Tone::bad;
  }
  return Tone::plain;
}

// Text from a test's report on the console: every line indented, and wrapped within the console's width, so that
// none of it can stand where the table or the headline would.
void print_indented(std::ostream& out, const std::string& text) {
  std::istringstream lines(terminal_safe(text));
  for (std::string line; std::getline(lines, line);) {
    const std::vector<std::string> parts = wrap_line(line, console_width - 6);
    for (std::size_t i = 0; i < parts.size(); ++i)
      out << (parts[i].empty() ? "" : (i == 0 ? "  " : "      ") + parts[i]) << "\n";
  }
}

// Each failed test whole, as ctest's per-test entries used to show it: what changed, by how much and against which
// tolerance first, then the test's own messages (the source lines, the command that refreshes it).
std::string failure_details(const GateSummary& s, const Palette& palette) {
  std::ostringstream out;
  for (const TestResult& t : s.tests) {
    if (t.outcome == Outcome::passed) continue;
    out << palette.paint(t.outcome == Outcome::skipped ? "[  SKIPPED ]" : "[  FAILED  ]", tone_of(t.outcome)) << " "
        << terminal_line(t.name) << "\n";
    for (const MetricChange& c : t.changes)
      print_indented(out, c.metric + ": " + c.verdict + ", " + c.baseline + " -> " + c.measured +
                              (c.change.empty() ? "" : " (" + c.change + ")") +
                              (c.tolerance.empty() || c.tolerance == "-" ? "" : ", tolerance " + c.tolerance));
    print_indented(out, t.reason);
    out << "\n";
  }
  return out.str();
}

}  // namespace

std::string render_console(const GateSummary& s, const Palette& palette) {
  std::vector<std::vector<std::string>> rows{{"test", "result", "device", "detail"}};
  TableStyle style{console_width, palette, 1, {}};
  for (const TestResult& t : s.tests) {
    // The detail whole: the table wraps it over lines to keep within the console's width.
    rows.push_back(
        {t.name, to_string(t.outcome), t.device.empty() ? "-" : t.device, summary_text::detail(t, std::string::npos)});
    style.tones.push_back(tone_of(t.outcome));
  }
  std::ostringstream out;
  out << failure_details(s, palette);
  if (!s.tests.empty()) out << format_table(rows, style);
  // Names and messages come from the tests' reports: made terminal-safe, each on its line, before any colour is
  // added, so that a name cannot start a line of its own (a forged verdict).
  for (const std::string& p : s.problems)
    out << palette.paint("problem:", Tone::bad) << " " << terminal_line(p) << "\n";
  const Tone verdict = s.exit_code() == protocol::exit_ok ? Tone::good : Tone::bad;
  out << "bankgate gate " << palette.paint(terminal_line(summary_text::headline(s)), verdict) << "\n";
  return out.str();
}

}  // namespace bankgate::gate
