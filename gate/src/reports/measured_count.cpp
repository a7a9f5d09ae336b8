#include <bankgate/gate/reports/measured_count.hpp>

#include <algorithm>

#include <bankgate/gate/protocol/run_protocol.hpp>
#include <bankgate/gate/text/text.hpp>

namespace bankgate::gate {

MeasuredCount count_measured(const GateSummary& summary) {
  MeasuredCount count;
  count.selected = summary.tests.size();
  for (const TestResult& t : summary.tests) {
    if (t.measured) continue;
    const std::string reason = t.reason.empty() ? "it left no measurement and no message (" + to_string(t.outcome) + ")"
                                                : t.reason.substr(0, t.reason.find('\n'));
    count.not_measured.emplace_back(t.name, reason);
  }
  return count;
}

std::string render_measured(const MeasuredCount& count, const std::string& command) {
  const std::size_t measured = count.selected - std::min(count.selected, count.not_measured.size());
  std::string text =
      command + ": " + std::to_string(measured) + " of " + counted(count.selected, "test") + " measured\n";
  if (count.not_measured.empty()) return text;
  text += "not measured (nothing of them was kept; fix the cause, then run this again):\n";
  for (const auto& [name, reason] : count.not_measured)
    text += "  " + terminal_line(name) + ": " + terminal_line(reason) + "\n";
  return text;
}

int measured_exit_code(const MeasuredCount& count) {
  return count.not_measured.empty() && count.selected > 0 ? protocol::exit_ok : protocol::exit_not_measured;
}

}  // namespace bankgate::gate
