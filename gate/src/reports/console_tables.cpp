#include <bankgate/gate/reports/console_tables.hpp>

#include <bankgate/gate/reports/report.hpp>
#include <bankgate/gate/reports/table.hpp>
#include <bankgate/metrics.hpp>

namespace bankgate::gate {

namespace h = bankgate::gate;

std::string render(const std::vector<ReviewRow>& rows, bool only_changes, const Palette& palette) {
  std::vector<std::vector<std::string>> table{{"test", "metric", "old", "new", "change", "verdict"}};
  TableStyle style{console_width, palette, 5, {}};
  for (const ReviewRow& r : rows) {
    const gate::Finding& f = r.finding;
    if (only_changes && f.verdict == gate::Verdict::pass && f.measured == f.baseline) continue;
    const bool has_old = f.verdict != gate::Verdict::not_in_baseline;
    const bool has_new = f.verdict != gate::Verdict::not_measured;
    const std::string what = f.timing ? "duration median [ns]" : std::string(display_name(f.metric));
    const std::string metric = f.kernel.empty() ? what : f.kernel + ": " + what;
    table.push_back({r.suite + "." + r.test + (r.correct ? "" : " (WRONG OUTPUT)"), metric,
                     has_old ? gate::format_number(f.baseline) : "-", has_new ? gate::format_number(f.measured) : "-",
                     has_old && has_new ? gate::format_change(f.measured, f.baseline) : "new",
                     gate::to_string(f.verdict)});
    style.tones.push_back(tone_of(f.verdict, r.correct));
  }
  return gate::format_table(table, style);
}

std::vector<ReviewRow> review_rows(const GateSummary& summary) {
  std::vector<ReviewRow> rows;
  for (const TestResult& t : summary.tests)
    for (const Finding& f : t.comparison) rows.push_back({t.suite, t.test, t.measured && t.measured->correct, f});
  return rows;
}

std::string render_comparison(const std::vector<ComparisonRow>& rows, bool fail_on_speedup, const Palette& palette) {
  std::vector<std::vector<std::string>> table{{"test", "base", "head", "change", "verdict"}};
  h::TableStyle style{h::console_width, palette, 4, {}};
  std::vector<std::string> notes;
  for (const ComparisonRow& row : rows) {
    bool shown = false;
    for (const h::Finding& f : row.findings) {
      const bool has_base = f.verdict != h::Verdict::not_in_baseline;
      const bool has_head = f.verdict != h::Verdict::not_measured;
      if (!f.timing && f.verdict == h::Verdict::pass) continue;  // unchanged counters stay out of the way
      const std::string unit = f.timing ? " ns" : "";
      const std::string kernel = f.kernel.empty() ? "" : " " + f.kernel + ":";
      const std::string label =
          (f.timing ? row.test + kernel : row.test + kernel + " " + std::string(display_name(f.metric))) +
          (row.head_correct ? "" : " (WRONG OUTPUT in head)");
      std::string verdict = h::to_string(f.verdict);
      if (f.verdict == h::Verdict::faster && fail_on_speedup) verdict += " (fails: --fail-on-speedup)";
      table.push_back({label, has_base ? h::format_number(f.baseline) + unit : "-",
                       has_head ? h::format_number(f.measured) + unit : "-",
                       has_base && has_head ? h::format_change(f.measured, f.baseline) : "-", verdict});
      style.tones.push_back(h::tone_of(f.verdict, row.head_correct, fail_on_speedup));
      if (f.timing && f.verdict != h::Verdict::pass && !f.detail.empty())
        notes.push_back(row.test + (kernel.empty() ? ":" : kernel) + " " + f.detail);
      shown = true;
    }
    if (!shown) {
      table.push_back({row.test, "-", "-", "-", "no duration"});
      style.tones.push_back(row.head_correct ? h::Tone::plain : h::Tone::bad);
    }
  }
  std::string text = h::format_table(table, style);
  for (const std::string& note : notes) text += "  " + h::terminal_safe(note) + "\n";  // names from candidate files
  return text;
}

}  // namespace bankgate::gate
