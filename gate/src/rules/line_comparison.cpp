#include <bankgate/gate/rules/line_comparison.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <tuple>

#include <bankgate/metrics.hpp>

namespace bankgate::gate {
namespace {

std::uint64_t amount(const SourceLineFigures& l) {
  switch (line_unit(l.kind)) {
    case LineUnit::wavefronts:
      return l.wavefronts;
    case LineUnit::sectors:
      return l.sectors;
    case LineUnit::instructions:
      break;
  }
  return l.executions;
}

std::string two_places(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f", value);
  return text;
}

bool same_figures(const SourceLineFigures& a, const SourceLineFigures& b) {
  return a.executions == b.executions && a.wavefronts == b.wavefronts && a.ideal_wavefronts == b.ideal_wavefronts &&
         a.sectors == b.sectors && a.ideal_sectors == b.ideal_sectors;
}

using LineKey = std::tuple<std::string, std::uint32_t, std::string>;
LineKey key(const SourceLineFigures& l) { return {l.file, l.line, l.kind}; }

// Lines present on one side only, paired by file, kind and opcode: the same instructions after an edit above
// them moved them. Where as many lines of a key are gone as are new, they pair in source order (a shift, maybe
// with a change); otherwise only lines with identical figures pair, so that new code is not reported as an
// old line that moved.
void pair_moved_lines(std::vector<LineChange>& unpaired) {
  using MoveKey = std::tuple<std::string, std::string, std::string>;
  std::map<MoveKey, std::vector<std::size_t>> gone, fresh;
  for (std::size_t i = 0; i < unpaired.size(); ++i) {
    const LineChange& c = unpaired[i];
    const SourceLineFigures& l = c.baseline ? *c.baseline : *c.measured;
    (c.baseline ? gone : fresh)[{l.file, l.kind, l.opcode}].push_back(i);
  }
  std::vector<bool> merged_away(unpaired.size(), false);
  const auto pair = [&](std::size_t old_line, std::size_t new_line) {
    unpaired[old_line].measured = unpaired[new_line].measured;
    merged_away[new_line] = true;
  };
  for (auto& [k, old_lines] : gone) {
    const auto it = fresh.find(k);
    if (it == fresh.end()) continue;
    const std::vector<std::size_t>& new_lines = it->second;
    if (old_lines.size() == new_lines.size()) {
      for (std::size_t n = 0; n < old_lines.size(); ++n) pair(old_lines[n], new_lines[n]);
      continue;
    }
    for (const std::size_t o : old_lines)
      for (const std::size_t n : new_lines)
        if (!merged_away[n] && same_figures(*unpaired[o].baseline, *unpaired[n].measured)) {
          pair(o, n);
          break;
        }
  }
  std::vector<LineChange> kept;
  for (std::size_t i = 0; i < unpaired.size(); ++i)
    if (!merged_away[i]) kept.push_back(std::move(unpaired[i]));
  unpaired = std::move(kept);
}

}  // namespace

LineUnit line_unit(const std::string& kind) {
  const InstructionKindTraits* traits = find_instruction_kind(kind);
  if (traits == nullptr || kind == all_instructions_kind) return LineUnit::instructions;
  if (traits->shared_wavefronts) return LineUnit::wavefronts;
  // TMA, wgmma and cluster instructions have no per-instruction traffic metric: their executions tell.
  return traits->global_sectors || traits->local_sectors ? LineUnit::sectors : LineUnit::instructions;
}

std::int64_t LineChange::change() const {
  const auto a = [](const std::optional<SourceLineFigures>& l) {
    return l ? static_cast<std::int64_t>(amount(*l)) : 0;
  };
  return a(measured) - a(baseline);
}

std::vector<LineChange> compare_lines(const std::vector<SourceLineFigures>& baseline,
                                      const std::vector<SourceLineFigures>& measured) {
  std::map<LineKey, LineChange> by_line;
  for (const SourceLineFigures& l : baseline) by_line[key(l)].baseline = l;
  for (const SourceLineFigures& l : measured) by_line[key(l)].measured = l;
  std::vector<LineChange> changes, unpaired;
  for (auto& [unused, c] : by_line) {
    if (!c.baseline || !c.measured)
      unpaired.push_back(std::move(c));
    else if (!same_figures(*c.baseline, *c.measured))
      changes.push_back(std::move(c));
  }
  pair_moved_lines(unpaired);
  for (LineChange& c : unpaired)
    if (!c.baseline || !c.measured || !same_figures(*c.baseline, *c.measured)) changes.push_back(std::move(c));
  std::stable_sort(changes.begin(), changes.end(), [](const LineChange& a, const LineChange& b) {
    return std::llabs(a.change()) > std::llabs(b.change());
  });
  return changes;
}

std::string format_line_change(const LineChange& c) {
  const SourceLineFigures& any = c.measured ? *c.measured : *c.baseline;
  const InstructionKindTraits* traits = find_instruction_kind(any.kind);
  const std::string kind = traits != nullptr ? std::string(traits->display) : any.kind;
  std::string text = any.where();
  if (c.baseline && c.measured && c.baseline->line != c.measured->line)
    text += " (was line " + std::to_string(c.baseline->line) + ")";
  text += "  " + (any.opcode.empty() ? kind : any.opcode) + "  ";
  const LineUnit unit = line_unit(any.kind);
  const auto figure = [&](const std::optional<SourceLineFigures>& l, const char* absent) {
    if (!l) return std::string(absent);
    switch (unit) {
      case LineUnit::wavefronts:
        return two_places(l->wavefronts_per_request());
      case LineUnit::sectors:
        return two_places(l->sectors_per_request());
      case LineUnit::instructions:
        break;
    }
    return std::to_string(l->executions);
  };
  text += figure(c.baseline, "(new)") + " -> " + figure(c.measured, "(gone)");
  const std::int64_t change = c.change();
  const std::string sign = change >= 0 ? "+" : "";
  switch (unit) {
    case LineUnit::wavefronts:
      text += " wavefronts per request (" + sign + std::to_string(change) + " wavefronts";
      break;
    case LineUnit::sectors: {
      text += " sectors per request (";
      if (any.executions > 0)
        text +=
            "ideal " + two_places(static_cast<double>(any.ideal_sectors) / static_cast<double>(any.executions)) + "; ";
      text += sign + std::to_string(change) + " sectors";
      break;
    }
    case LineUnit::instructions:
      text += " instructions executed (" + sign + std::to_string(change);
      break;
  }
  if (unit != LineUnit::instructions && c.baseline && c.measured && c.baseline->executions != c.measured->executions)
    text += "; requests " + std::to_string(c.baseline->executions) + " -> " + std::to_string(c.measured->executions);
  text += ")";
  if (!any.inlined.empty()) text += " [inlined from " + any.inlined + "]";
  return text;
}

std::uint64_t excess_wavefronts(const std::vector<SourceLineFigures>& lines, const std::string& kind) {
  std::uint64_t sum = 0;
  for (const SourceLineFigures& l : lines)
    if (l.kind == kind) sum += l.excess();
  return sum;
}

std::uint64_t excess_sectors(const std::vector<SourceLineFigures>& lines, const std::string& kind) {
  std::uint64_t sum = 0;
  for (const SourceLineFigures& l : lines)
    if (l.kind == kind) sum += l.excess_sectors();
  return sum;
}

}  // namespace bankgate::gate
