#include <bankgate/gate/reports/report.hpp>

#include <bankgate/gate/rules/instruction_lines.hpp>
#include <bankgate/gate/rules/line_comparison.hpp>

#include <sstream>

#include <bankgate/metrics.hpp>

namespace bankgate::gate {

std::string refresh_command(const RefreshContext& how, const std::string& suite, const std::string& test) {
  std::vector<CommandWord> words{how.command, "refresh"};
  // A relative folder whose name starts with '-' would be read as an option.
  const std::string build = how.build_dir.starts_with('-') ? "./" + how.build_dir : how.build_dir;
  if (!build.empty()) words.insert(words.end(), {"--build", build});
  // The test's name as a filter that selects it alone, quoted: a name is whatever the pull request made it.
  words.insert(words.end(), {"--filter", quoted_name(filter_literal(suite + "." + test))});
  return command_line(words);
}

namespace {

// The instruction kind whose per-line figures explain a counter (the metric table's); empty for none.
std::string kind_of(const std::string& metric) {
  const MetricTraits* traits = find_metric(metric);
  return traits != nullptr ? std::string(traits->kind) : std::string();
}

// The source lines behind a changed counter, when both sides carry per-line figures.
std::string where_it_changed(const std::string& metric, const KernelRecord& measured, const KernelRecord& baseline) {
  if (measured.lines.empty()) return "";
  if (lacks_line_table(measured.lines)) return "  lines      " + no_line_table_note(measured.kernel) + "\n";
  if (baseline.lines.empty())
    return "  lines      the baseline has no per-line figures to compare with; a refresh records them\n";
  const std::string kind = kind_of(metric);
  if (kind.empty() && find_metric(metric) != nullptr) return "";  // a launch figure: no line explains it
  const auto of_kind = [&](const std::vector<SourceLineFigures>& lines) {
    std::vector<SourceLineFigures> kept;
    for (const auto& l : lines)
      if (kind.empty() || l.kind == kind) kept.push_back(l);
    return kept;
  };
  const std::vector<LineChange> changes = compare_lines(of_kind(baseline.lines), of_kind(measured.lines));
  if (changes.empty()) return "  lines      no source line's figures changed\n";
  std::string text = "  lines      (baseline -> run)\n";
  constexpr std::size_t shown = 8;
  for (std::size_t i = 0; i < changes.size() && i < shown; ++i) text += "    " + format_line_change(changes[i]) + "\n";
  if (changes.size() > shown) text += "    ... and " + std::to_string(changes.size() - shown) + " more lines\n";
  return text;
}

}  // namespace

std::string format_failure(const TestLocation& where, const Finding& f, const TestRecord& measured_test,
                           const TestRecord& baseline_test) {
  // The kernel the finding is about (of a test of several, the one it names); one a side lacks compares with nothing.
  const KernelRecord none;
  const KernelRecord* measured_kernel = kernel_labelled(measured_test, f.kernel);
  const KernelRecord* baseline_kernel = kernel_labelled(baseline_test, f.kernel);
  const KernelRecord& measured = measured_kernel != nullptr ? *measured_kernel : none;
  const KernelRecord& baseline = baseline_kernel != nullptr ? *baseline_kernel : none;
  const std::string kernel = f.kernel.empty() ? measured_test.kernel : f.kernel;
  std::ostringstream out;
  const std::string what = f.timing ? "duration" : std::string(display_name(f.metric));
  out << "[bankgate] " << terminal_line(where.suite + "." + where.test) << " (kernel " << terminal_line(kernel)
      << "): " << what << " " << (f.verdict == Verdict::slower ? "regressed" : to_string(f.verdict)) << "\n";
  out << "  metric     " << f.metric << (f.timing ? " [ns]" : "") << "\n";
  out << "  measured   " << (f.verdict == Verdict::not_measured ? "-" : format_number(f.measured)) << "\n";
  out << "  baseline   " << (f.verdict == Verdict::not_in_baseline ? "-" : format_number(f.baseline)) << "\n";
  if (f.verdict == Verdict::counter_changed || f.verdict == Verdict::slower || f.verdict == Verdict::faster)
    out << "  change     " << format_change(f.measured, f.baseline) << "\n";
  out << "  tolerance  " << (f.tolerance.empty() ? "-" : f.tolerance) << "\n";
  if (!f.detail.empty()) out << "  statistics " << f.detail << "\n";
  // Transactions per request is how the seed documents reason; show it when it moved.
  for (const auto& [name, value] : measured.derived) {
    const auto b = baseline.derived.find(name);
    if (b != baseline.derived.end() && b->second != value)
      out << "  " << name << ": " << format_number(value) << " (baseline " << format_number(b->second) << ")\n";
  }
  if (!f.timing) out << where_it_changed(f.metric, measured, baseline);
  out << "  baseline file  " << terminal_line(where.baseline_file.string()) << "\n";
  out << "  if intended, refresh: " << refresh_command(where.refresh, where.suite, where.test);
  return terminal_safe(out.str());  // names on one line each; the rest comes from the project's sources too
}

}  // namespace bankgate::gate
