#include <bankgate/gate/html_report.hpp>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>

#include <bankgate/gate/confined_folder.hpp>
#include <bankgate/gate/line_comparison.hpp>
#include <bankgate/gate/report.hpp>
#include <bankgate/metrics.hpp>

namespace bankgate::gate {
namespace {

namespace fs = std::filesystem;

std::string escape(const std::string& text) {
  std::string out;
  for (const char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string fixed(double v, int decimals) {
  char text[48];
  std::snprintf(text, sizeof text, "%.*f", decimals, v);
  return text;
}

// Source text by file and line, read once per file. The file names come from baselines and candidates, which
// anyone can edit, so text is shown only from regular files inside the project's source folder (an absolute
// name, a link or '..' that leads out, a FIFO or a huge file shows the line number without text).
class SourceText {
 public:
  explicit SourceText(const fs::path& root) {
    try {
      if (!root.empty()) folder_.emplace(root, "the project's source folder");
    } catch (const ConfinementError&) {
    }
  }
  std::string line(const std::string& file, std::uint32_t number) {
    if (!folder_ || file.empty() || number == 0) return "";
    auto it = files_.find(file);
    if (it == files_.end()) it = files_.emplace(file, read_lines(file)).first;
    if (number > it->second.size()) return "";
    std::string text = it->second[number - 1];
    text.erase(0, text.find_first_not_of(" \t"));
    return text;
  }

 private:
  static constexpr std::size_t max_source_bytes = std::size_t{8} << 20;
  std::vector<std::string> read_lines(const std::string& file) const {
    std::vector<std::string> lines;
    if (fs::path(file).is_absolute()) return lines;
    std::istringstream text;
    try {
      text.str(folder_->read(file, max_source_bytes));
    } catch (const std::exception&) {
      return lines;
    }
    for (std::string l; std::getline(text, l);) lines.push_back(l);
    return lines;
  }

  std::optional<ConfinedFolder> folder_;
  std::map<std::string, std::vector<std::string>> files_;
};

const char* css = R"(body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#1b1f24;max-width:1200px}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 8px}h3{font-size:15px;margin:0}
.verdict{font-weight:600;padding:2px 8px;border-radius:4px;color:#fff}.regressed,.not-measured{background:#c62828}
.passed{background:#2e7d32}.skipped{background:#8d6e00}
.test{border:1px solid #d0d7de;border-radius:6px;padding:12px 16px;margin:12px 0}
.test.failed{border-color:#c62828;border-width:2px}
table{border-collapse:collapse;margin:8px 0;font-size:13px}td,th{border:1px solid #d0d7de;padding:3px 8px;text-align:right}
th{background:#f6f8fa}td.l,th.l{text-align:left}tr.changed td{background:#ffebe9}
pre{background:#f6f8fa;padding:8px;overflow-x:auto;font-size:12px;white-space:pre-wrap}
code{font-size:12px}.src{font-family:monospace;text-align:left;color:#444;min-width:24em}.muted{color:#57606a}
details>summary{cursor:pointer;margin:6px 0}svg text{font:11px sans-serif})";

std::string outcome_class(Outcome o) {
  switch (o) {
    case Outcome::passed: return "passed";
    case Outcome::regressed: return "regressed";
    case Outcome::not_measured: return "not-measured";
    case Outcome::skipped: return "skipped";
  }
  return "";
}

void counter_table(std::ostringstream& out, const TestResult& t) {
  const TestRecord& run = *t.measured;
  out << "<table><tr><th class=l>counter</th><th>baseline</th><th>this run</th><th>change</th><th class=l>verdict</th></tr>";
  std::map<std::string, const MetricChange*> changed;
  for (const MetricChange& c : t.changes) changed[c.metric_name] = &c;
  for (const auto& [name, value] : run.counters) {
    const auto it = changed.find(name);
    const bool failed = it != changed.end();
    std::string baseline = "-";
    if (t.baseline)
      if (const auto b = t.baseline->counters.find(name); b != t.baseline->counters.end()) baseline = format_number(b->second.value);
    out << "<tr" << (failed ? " class=changed" : "") << "><td class=l>" << escape(std::string(display_name(name)))
        << "<br><code class=muted>" << escape(name) << "</code></td><td>" << baseline << "</td><td>" << format_number(value.value)
        << "</td><td>" << (failed ? escape(it->second->change) : "") << "</td><td class=l>"
        << (failed ? escape(it->second->verdict) : "same") << "</td></tr>";
  }
  for (const auto& [name, value] : run.derived) {
    std::string baseline = "-";
    if (t.baseline)
      if (const auto b = t.baseline->derived.find(name); b != t.baseline->derived.end()) baseline = format_number(b->second);
    out << "<tr><td class=l>" << escape(name) << "</td><td>" << baseline << "</td><td>" << format_number(value)
        << "</td><td></td><td class='l muted'>derived</td></tr>";
  }
  out << "</table>";
}

bool uses_sectors(const SourceLineFigures& l) { return line_unit(l.kind) == LineUnit::sectors; }

void line_table(std::ostringstream& out, const TestResult& t, SourceText& sources) {
  const std::vector<SourceLineFigures>& run = t.measured->lines;
  const std::vector<SourceLineFigures> none;
  const std::vector<SourceLineFigures>& base = t.baseline ? t.baseline->lines : none;
  if (run.empty() && base.empty()) return;
  // Every line of either side; changed ones (compare_lines) first, by size of change.
  std::vector<LineChange> rows = compare_lines(base, run);
  const std::size_t changed = rows.size();
  for (const SourceLineFigures& l : run) {
    const bool listed = std::any_of(rows.begin(), rows.end(), [&](const LineChange& c) {
      const SourceLineFigures& x = c.measured ? *c.measured : *c.baseline;
      return x.file == l.file && x.line == l.line && x.kind == l.kind;
    });
    if (!listed) rows.push_back({l, l});
  }
  out << "<table><tr><th class=l>source line</th><th class=l>code</th><th class=l>kind</th><th class=l>SASS</th>"
         "<th>requests</th><th>per request<br>baseline &rarr; run</th><th>wavefronts or sectors<br>baseline &rarr; run</th>"
         "<th>ideal</th><th>excess (bank conflicts, uncoalesced)<br>baseline &rarr; run</th></tr>";
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const LineChange& c = rows[i];
    const SourceLineFigures& l = c.measured ? *c.measured : *c.baseline;
    const auto pair = [&](auto get) {
      const std::string b = c.baseline ? get(*c.baseline) : std::string("new");
      const std::string r = c.measured ? get(*c.measured) : std::string("gone");
      return b == r ? r : b + " &rarr; " + r;
    };
    out << "<tr" << (i < changed ? " class=changed" : "") << "><td class=l>" << escape(l.where()) << "</td><td class=src>"
        << escape(sources.line(l.file, l.line)) << (l.inlined.empty() ? "" : "<br><span class=muted>inlined from " + escape(l.inlined) + "</span>")
        << "</td><td class=l>" << escape(l.kind) << "</td><td class=l>" << escape(l.opcode)
        << "</td><td>" << pair([](const SourceLineFigures& x) { return std::to_string(x.executions); }) << "</td><td>"
        << pair([](const SourceLineFigures& x) { return fixed(uses_sectors(x) ? x.sectors_per_request() : x.wavefronts_per_request(), 2); })
        << "</td><td>" << pair([](const SourceLineFigures& x) { return std::to_string(uses_sectors(x) ? x.sectors : x.wavefronts); })
        << "</td><td>" << pair([](const SourceLineFigures& x) { return std::to_string(uses_sectors(x) ? x.ideal_sectors : x.ideal_wavefronts); })
        << "</td><td>" << pair([](const SourceLineFigures& x) { return std::to_string(uses_sectors(x) ? x.excess_sectors() : x.excess()); })
        << "</td></tr>";
  }
  out << "</table>";
  if (base.empty()) out << "<p class=muted>The baseline has no per-line figures (a refresh records them).</p>";
}

// Cumulative distributions: the run's samples as a step line, the baseline's from its percentiles.
void duration_plot(std::ostringstream& out, const TestResult& t) {
  std::vector<double> run = t.measured->samples_ns;
  std::vector<double> base = t.baseline && t.baseline->timing ? t.baseline->timing->quantiles_ns : std::vector<double>{};
  if (run.empty() && base.empty()) return;
  std::sort(run.begin(), run.end());
  double low = 1e300, high = 0;
  for (const auto* v : {&run, &base})
    if (!v->empty()) low = std::min(low, v->front()), high = std::max(high, v->back());
  if (high <= low) high = low + 1;
  const double pad = (high - low) * 0.05;
  low -= pad, high += pad;
  constexpr double w = 560, h = 200, left = 60, top = 10, bottom = 30;
  const auto x = [&](double v) { return left + (v - low) / (high - low) * (w - left - 40); };
  const auto y = [&](double p) { return top + (1 - p) * (h - top - bottom); };
  out << "<svg width=" << w << " height=" << h << " role=img aria-label='duration distributions'>"
      << "<rect x=" << left << " y=" << top << " width=" << w - left - 40 << " height=" << h - top - bottom
      << " fill=none stroke=#d0d7de />";
  for (int i = 0; i <= 4; ++i) {
    const double v = low + (high - low) * i / 4;
    out << "<text x=" << fixed(x(v), 1) << " y=" << h - 12 << " text-anchor=middle>" << fixed(v, 0) << "</text>";
  }
  out << "<text x=" << w / 2 + 20 << " y=" << h - 1 << " text-anchor=middle>duration [ns]</text>"
      << "<text x=4 y=" << top + 8 << ">100%</text><text x=12 y=" << h - bottom << ">0%</text>";
  const auto polyline = [&](const std::vector<double>& v, const char* colour, const char* dash) {
    if (v.empty()) return;
    out << "<polyline fill=none stroke=" << colour << " stroke-width=2" << dash << " points='";
    for (std::size_t i = 0; i < v.size(); ++i)
      out << fixed(x(v[i]), 1) << "," << fixed(y(v.size() == 1 ? 1.0 : static_cast<double>(i) / static_cast<double>(v.size() - 1)), 1) << " ";
    out << "'/>";
  };
  polyline(base, "#57606a", " stroke-dasharray='5 3'");
  polyline(run, "#0969da", "");
  out << "</svg><p class=muted>Cumulative share of duration samples: <span style='color:#0969da'>&#9644; this run ("
      << run.size() << " samples" << (t.median_ns ? ", median " + format_number(*t.median_ns) + " ns" : "") << ")</span>";
  if (!base.empty())
    out << ", <span style='color:#57606a'>- - baseline (its 5% percentiles, " << t.baseline->timing->samples
        << " samples, median " << format_number(t.baseline->timing->median_ns) << " ns)</span>";
  out << "</p>";
}

void test_section(std::ostringstream& out, const TestResult& t, SourceText& sources) {
  const bool failed = t.outcome == Outcome::regressed || t.outcome == Outcome::not_measured;
  out << "<div class='test" << (failed ? " failed" : "") << "' id='" << escape(t.name) << "'><h3>" << escape(t.name)
      << " <span class='verdict " << outcome_class(t.outcome) << "'>" << escape(to_string(t.outcome)) << "</span></h3>";
  if (t.measured) out << "<p class=muted>kernel <code>" << escape(t.measured->kernel) << "</code>"
                      << (t.gpu.empty() ? "" : " on " + escape(t.gpu)) << "</p>";
  if (!t.reason.empty() && t.outcome != Outcome::passed) out << "<pre>" << escape(t.reason) << "</pre>";
  if (t.measured) {
    counter_table(out, t);
    line_table(out, t, sources);
    duration_plot(out, t);
  }
  if (t.outcome != Outcome::passed) out << "<p>If intended, refresh: <code>" << escape(t.refresh) << "</code></p>";
  out << "</div>";
}

}  // namespace

std::string render_html(const GateSummary& s, const fs::path& sources_root, const std::string& title) {
  SourceText sources(sources_root);
  std::ostringstream out;
  const auto count = [&](Outcome o) { return std::count_if(s.tests.begin(), s.tests.end(), [&](const TestResult& t) { return t.outcome == o; }); };
  out << "<!DOCTYPE html><html lang=en><head><meta charset=utf-8><title>" << escape(title) << ": " << verdict_word(s.exit_code())
      << "</title><style>" << css << "</style></head><body>";
  out << "<h1>" << escape(title) << ": <span class='verdict " << (s.exit_code() == 0 ? "passed" : "regressed") << "'>"
      << verdict_word(s.exit_code()) << "</span></h1><p>" << count(Outcome::passed) << " passed, " << count(Outcome::regressed)
      << " regressed, " << count(Outcome::not_measured) << " could not be measured, " << count(Outcome::skipped)
      << " skipped, of " << s.tests.size() << " GPU tests.</p>";
  for (const std::string& p : s.problems) out << "<p><b>problem:</b> " << escape(p) << "</p>";
  std::vector<const TestResult*> failing, rest;
  for (const TestResult& t : s.tests) (t.outcome == Outcome::passed ? rest : failing).push_back(&t);
  if (!failing.empty()) {
    out << "<h2>Failures</h2>";
    for (const TestResult* t : failing) test_section(out, *t, sources);
  }
  if (!rest.empty()) {
    out << "<h2>Passed</h2>";
    for (const TestResult* t : rest) {
      out << "<details><summary>" << escape(t->name) << (t->median_ns ? " &mdash; median " + format_number(*t->median_ns) + " ns" : "")
          << "</summary>";
      test_section(out, *t, sources);
      out << "</details>";
    }
  }
  out << "</body></html>\n";
  return out.str();
}

}  // namespace bankgate::gate
