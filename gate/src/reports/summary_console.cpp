// The gate summary on the console: one row per test, the run's problems, the headline.
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
