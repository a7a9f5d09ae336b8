#include <bankgate/gate/rules/instruction_lines.hpp>

#include <algorithm>
#include <filesystem>

#include <bankgate/gate/rules/line_comparison.hpp>
#include <bankgate/metrics.hpp>

namespace bankgate::gate {
namespace {

bool inside_project(const std::string& file, const std::string& source_dir) {
  return !source_dir.empty() && file.starts_with(source_dir + "/");
}

std::string project_relative(std::string file, const std::string& source_dir) {
  if (inside_project(file, source_dir)) return file.erase(0, source_dir.size() + 1);
  return file.empty() ? file : std::filesystem::path(file).filename().string();
}

// One instruction as one entry. An inlined instruction goes to the innermost line of the project's own code that
// called it, with its own line beside it: a helper (the project's or a library's) called from several places then
// tells its call sites apart. Where no call site is the project's, the outermost one is taken.
SourceLineFigures as_line(const InstructionFigures& i, const std::string& source_dir) {
  SourceLineFigures l;
  SourceLocation where{i.file, i.line};
  if (!i.inlined_at.empty()) {
    const auto own = std::find_if(i.inlined_at.begin(), i.inlined_at.end(),
                                  [&](const SourceLocation& s) { return inside_project(s.file, source_dir); });
    where = own != i.inlined_at.end() ? *own : i.inlined_at.back();
    l.inlined = project_relative(i.file, source_dir) + ":" + std::to_string(i.line);
  }
  l.file = project_relative(where.file, source_dir);
  l.line = where.line;
  l.kind = i.kind;
  if (l.kind != all_instructions_kind) l.opcode = i.opcode;  // a line's other opcodes would only be noise
  l.executions = i.executions;
  l.wavefronts = i.wavefronts;
  l.ideal_wavefronts = i.ideal_wavefronts;
  l.sectors = i.sectors;
  l.ideal_sectors = i.ideal_sectors;
  return l;
}

}  // namespace

std::vector<SourceLineFigures> figures_by_line(const std::vector<InstructionFigures>& instructions,
                                               const std::string& source_dir) {
  std::vector<SourceLineFigures> entries;
  for (const InstructionFigures& i : instructions) {
    SourceLineFigures l = as_line(i, source_dir);
    if (l.kind != all_instructions_kind)
      entries.push_back({.file = l.file,
                         .line = l.line,
                         .inlined = l.inlined,
                         .kind = std::string(all_instructions_kind),
                         .executions = l.executions});
    entries.push_back(std::move(l));
  }
  return merge_by_line(entries);
}

bool lacks_line_table(const std::vector<SourceLineFigures>& lines) {
  return !lines.empty() &&
         std::all_of(lines.begin(), lines.end(), [](const SourceLineFigures& l) { return l.line == 0; });
}

std::string no_line_table_note(const std::string& kernel) {
  return "kernel " + kernel +
         " has no line information, so no source line can be named for its figures: build its "
         "library with -lineinfo, e.g. bankgate_add_line_info(<target>) or LIBRARIES <target> of "
         "bankgate_add_gpu_suite";
}

std::map<std::string, double> excess_by_kind(const std::vector<SourceLineFigures>& lines) {
  std::map<std::string, double> excess;
  for (const InstructionKindTraits& kind : instruction_kind_table()) {
    const std::string name(kind.kind);
    if (kind.shared_wavefronts) excess[name + "_bank_conflicts"] = static_cast<double>(excess_wavefronts(lines, name));
    if (kind.global_sectors) excess[name + "_excess_sectors"] = static_cast<double>(excess_sectors(lines, name));
  }
  return excess;
}

}  // namespace bankgate::gate
