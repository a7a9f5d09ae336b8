#include <bankgate/gate/line_comparison.hpp>

#include <algorithm>
#include <cstdio>
#include <map>
#include <tuple>

namespace bankgate::gate {
namespace {

using LineKey = std::tuple<std::string, std::uint32_t, std::string>;
LineKey key(const SourceLineFigures& l) { return {l.file, l.line, l.access}; }

std::string per_request(const SourceLineFigures& l) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f", l.wavefronts_per_request());
  return text;
}

bool same_figures(const SourceLineFigures& a, const SourceLineFigures& b) {
  return a.executions == b.executions && a.wavefronts == b.wavefronts && a.ideal_wavefronts == b.ideal_wavefronts;
}

}  // namespace

std::int64_t LineChange::wavefront_change() const {
  const auto w = [](const std::optional<SourceLineFigures>& l) { return l ? static_cast<std::int64_t>(l->wavefronts) : 0; };
  return w(measured) - w(baseline);
}

std::vector<LineChange> compare_lines(const std::vector<SourceLineFigures>& baseline, const std::vector<SourceLineFigures>& measured) {
  std::map<LineKey, LineChange> by_line;
  for (const SourceLineFigures& l : baseline) by_line[key(l)].baseline = l;
  for (const SourceLineFigures& l : measured) by_line[key(l)].measured = l;
  std::vector<LineChange> changes;
  for (auto& [unused, c] : by_line)
    if (!c.baseline || !c.measured || !same_figures(*c.baseline, *c.measured)) changes.push_back(std::move(c));
  std::stable_sort(changes.begin(), changes.end(), [](const LineChange& a, const LineChange& b) {
    return std::llabs(a.wavefront_change()) > std::llabs(b.wavefront_change());
  });
  return changes;
}

std::string format_line_change(const LineChange& c) {
  const SourceLineFigures& any = c.measured ? *c.measured : *c.baseline;
  const std::string opcode = any.opcode.empty() ? "shared " + any.access : any.opcode;
  std::string text = any.where() + "  " + opcode + "  ";
  text += c.baseline ? per_request(*c.baseline) : std::string("(new)");
  text += " -> ";
  text += c.measured ? per_request(*c.measured) : std::string("(gone)");
  const std::int64_t change = c.wavefront_change();
  text += " wavefronts per request (" + std::string(change >= 0 ? "+" : "") + std::to_string(change) + " wavefronts";
  if (c.baseline && c.measured && c.baseline->executions != c.measured->executions)
    text += "; requests " + std::to_string(c.baseline->executions) + " -> " + std::to_string(c.measured->executions);
  return text + ")";
}

std::uint64_t excess_wavefronts(const std::vector<SourceLineFigures>& lines, const std::string& access) {
  std::uint64_t sum = 0;
  for (const SourceLineFigures& l : lines)
    if (l.access == access) sum += l.excess();
  return sum;
}

}  // namespace bankgate::gate
