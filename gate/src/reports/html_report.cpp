// The HTML report's page: the verdict, provenance and overview first (html_overview.cpp), then each test that
// did not pass once, as a section of tables (what changed, its source lines, its durations) with its console
// text folded away, then the tests that passed, folded.
#include <bankgate/gate/reports/html_report.hpp>

#include <cctype>
#include <algorithm>
#include <cstdio>
#include <map>
#include <sstream>

#include <bankgate/gate/text/number_format.hpp>
#include <bankgate/metrics.hpp>

#include "html_parts.hpp"
#include "summary_text.hpp"

namespace bankgate::gate {
namespace html {

std::string fixed(double value, int decimals) {
  char text[48];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
}

std::string anchor(const TestResult& t) {
  std::string id = "test-" + t.name;
  for (char& c : id)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '_' && c != '-') c = '-';
  return id;
}

// The outcome's id as a CSS class: "not-measured" for not_measured.
std::string outcome_class(Outcome outcome) {
  std::string id = outcome_id(outcome);
  std::replace(id.begin(), id.end(), '_', '-');
  return id;
}

}  // namespace html

namespace {

const char* css = R"(body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#1b1f24;max-width:1200px}
h1{font-size:22px;margin:0 0 8px}h2{font-size:17px;margin:24px 0 8px}h3{font-size:15px;margin:0 0 4px}h4{font-size:13px;margin:14px 0 2px}
.verdict{font-weight:600;padding:2px 8px;border-radius:4px;color:#fff}.regressed,.not-measured{background:#c62828}
.passed{background:#2e7d32}.skipped{background:#8d6e00}
.test{border:1px solid #d0d7de;border-radius:6px;padding:12px 16px;margin:12px 0}
.test.failed{border-color:#c62828;border-width:2px}
table{border-collapse:collapse;margin:8px 0;font-size:13px}td,th{border:1px solid #d0d7de;padding:3px 8px;text-align:right}
th{background:#f6f8fa}td.l,th.l{text-align:left}tr.changed td{background:#ffebe9}
table.changes td{white-space:nowrap}table.changes td.tolerance{white-space:normal;min-width:18em}table.provenance th{width:7em}table.counts th{text-align:center}table.counts td{font-size:16px;font-weight:600;text-align:center;min-width:6em}
td.regressed-count,td.not-measured-count{color:#c62828}td.skipped-count{color:#8d6e00}td.passed-count{color:#2e7d32}
.why{font-weight:600}.advice code{background:#f6f8fa;padding:1px 4px}
pre{background:#f6f8fa;padding:8px;overflow-x:auto;font-size:12px;white-space:pre-wrap}
code{font-size:12px}.src{font-family:monospace;text-align:left;color:#444;min-width:24em}.muted{color:#57606a}
details>summary{cursor:pointer;margin:6px 0}svg text{font:11px sans-serif}
@media print{body{margin:0;max-width:none}table{font-size:10px}.src{min-width:0}})";

// One kernel's counters of the run against the baseline's, then its derived ratios. `label` names the kernel in the
// test's findings (empty for a test of one kernel).
void kernel_counter_table(std::ostream& out, const TestResult& t, const KernelRecord& run, const std::string& label) {
  const KernelRecord* base = t.baseline ? kernel_labelled(*t.baseline, label) : nullptr;
  out << "<table><tr><th class=l>counter</th><th>baseline</th><th>this run</th><th>change</th><th "
         "class=l>verdict</th></tr>";
  std::map<std::string, const MetricChange*> changed;
  for (const MetricChange& c : t.changes)
    if (c.finding && c.finding->kernel == label) changed[c.metric_name] = &c;
  for (const auto& [name, value] : run.counters) {
    const auto it = changed.find(name);
    const bool failed = it != changed.end();
    std::string baseline = "-";
    if (base)
      if (const auto b = base->counters.find(name); b != base->counters.end())
        baseline = format_number(b->second.value);
    out << "<tr" << (failed ? " class=changed" : "") << "><td class=l>" << html_text(std::string(display_name(name)))
        << "<br><code class=muted>" << html_text(name) << "</code></td><td>" << baseline << "</td><td>"
        << format_number(value.value) << "</td><td>" << (failed ? html_text(it->second->change) : "")
        << "</td><td class=l>" << (failed ? html_text(it->second->verdict) : "same") << "</td></tr>";
  }
  for (const auto& [name, value] : run.derived) {
    std::string baseline = "-";
    if (base)
      if (const auto b = base->derived.find(name); b != base->derived.end()) baseline = format_number(b->second);
    out << "<tr><td class=l>" << html_text(name) << "</td><td>" << baseline << "</td><td>" << format_number(value)
        << "</td><td></td><td class='l muted'>derived</td></tr>";
  }
  out << "</table>";
}

// Every counter of the run against the baseline's; a table per kernel where the test launched several.
void counter_table(std::ostream& out, const TestResult& t) {
  const std::vector<const KernelRecord*> kernels = t.measured->kernels();
  if (kernels.size() == 1) return kernel_counter_table(out, t, *t.measured, "");
  const std::vector<std::string> labels = kernel_labels(*t.measured);
  for (std::size_t i = 0; i < kernels.size(); ++i) {
    out << "<p>kernel <code>" << html_text(labels[i]) << "</code></p>";
    kernel_counter_table(out, t, *kernels[i], labels[i]);
  }
}

// What differs from the baseline, one row per change, in the order a reader compares them.
void changes_table(std::ostream& out, const TestResult& t) {
  out << "<table class=changes><tr><th class=l>metric</th><th>baseline</th><th>measured</th><th>change</th>"
         "<th class=l>tolerance</th><th class=l>verdict</th></tr>";
  for (const MetricChange& c : t.changes)
    out << "<tr class=changed><td class=l>" << html_text(c.metric)
        << (c.metric_name.empty() ? "" : "<br><code class=muted>" + html_text(c.metric_name) + "</code>") << "</td><td>"
        << html_text(c.baseline) << "</td><td>" << html_text(c.measured) << "</td><td>" << html_text(c.change)
        << "</td><td class=\"l tolerance\">" << html_text(c.tolerance) << "</td><td class=l>" << html_text(c.verdict)
        << "</td></tr>";
  out << "</table>";
}

// Where the test ran and against which file.
void test_facts(std::ostream& out, const TestResult& t) {
  std::string facts;
  if (t.measured) {
    const std::vector<std::string> labels = kernel_labels(*t.measured);
    facts += labels.size() == 1 ? "kernel " : "kernels ";
    for (std::size_t i = 0; i < labels.size(); ++i)
      facts += (i ? ", " : "") + std::string("<code>") + html_text(labels[i]) + "</code>";
  }
  if (!t.gpu.empty()) facts += (facts.empty() ? "on " : " on ") + html_text(t.gpu);
  if (!t.device.empty()) facts += (facts.empty() ? "device " : ", device ") + html_text(t.device);
  if (!t.baseline_file.empty())
    facts += (facts.empty() ? "" : "; ") + std::string("baseline <code>") + html_text(t.baseline_file) + "</code>";
  if (!facts.empty()) out << "<p class=muted>" << facts << "</p>";
}

// The remedy, only where it is one: a refresh for an intended change, a first recording on a new GPU.
void advice(std::ostream& out, const TestResult& t) {
  if (summary_text::refresh_fixes(t))
    out << "<p class=advice>If intended, refresh: <code>" << html_text(t.refresh) << "</code></p>";
  else if (summary_text::needs_first_baseline(t))
    out << "<p class=advice>Record a baseline on this GPU: <code>" << html_text(t.refresh) << "</code></p>";
}

// A test that did not pass, once: heading, what changed, the remedy, its lines and durations, then what else
// there is to read, folded.
void failure_section(std::ostream& out, const TestResult& t, html::SourceLines& sources,
                     const std::string& trend_page) {
  out << "<section class='test failed' id='" << html_text(html::anchor(t)) << "'><h3>" << html_text(t.name)
      << " <span class='verdict " << html::outcome_class(t.outcome) << "'>" << html_text(to_string(t.outcome))
      << "</span></h3>";
  test_facts(out, t);
  if (!t.changes.empty())
    changes_table(out, t);
  else if (!t.reason.empty())
    out << "<p class=why>" << html_text(summary_text::first_line(t.reason, std::string::npos)) << "</p>";
  advice(out, t);
  if (!trend_page.empty())
    out << "<p class=advice>Its history, run by run: <a class=trend href='" << html_text(trend_page)
        << "'>trend page</a></p>";
  if (t.measured) {
    html::line_table(out, t, sources);
    html::duration_plot(out, t);
    out << "<details><summary>every counter of this run</summary>";
    counter_table(out, t);
    out << "</details>";
  }
  if (!t.reason.empty())
    out << "<details><summary>the test's console output</summary><pre>" << html_text(t.reason) << "</pre></details>";
  out << "</section>";
}

void passed_section(std::ostream& out, const TestResult& t, html::SourceLines& sources) {
  out << "<details id='" << html_text(html::anchor(t)) << "'><summary>" << html_text(t.name)
      << (t.median_ns ? " &mdash; median " + format_number(*t.median_ns) + " ns" : "")
      << "</summary><section class=test>";
  test_facts(out, t);
  if (t.measured) {
    counter_table(out, t);
    html::line_table(out, t, sources);
    html::duration_plot(out, t);
  }
  out << "</section></details>";
}

}  // namespace

std::string render_html(const GateSummary& s, const HtmlOptions& options) {
  html::SourceLines sources(options.sources, options.source_url.empty() ? SourceUrl() : SourceUrl(options.source_url),
                            s.provenance);
  std::ostringstream out;
  const std::string verdict = verdict_word(s.exit_code());
  out << "<!DOCTYPE html><html lang=en><head><meta charset=utf-8><title>" << html_text(options.title) << ": " << verdict
      << "</title><style>" << css << "</style></head><body>";
  out << "<h1>" << html_text(options.title) << ": <span class='verdict "
      << (s.exit_code() == 0 ? "passed" : "regressed") << "'>" << verdict << "</span></h1>";
  html::provenance_block(out, s);
  out << "<h2>Overview</h2>";
  html::overview(out, s);
  // Regressions first, then the tests that could not be measured, then the skipped ones.
  bool heading = false;
  for (const Outcome o : {Outcome::regressed, Outcome::not_measured, Outcome::skipped})
    for (const TestResult& t : s.tests)
      if (t.outcome == o) {
        if (!heading) out << "<h2>Failures</h2>";
        heading = true;
        const auto trend = options.trend_pages.find(t.name);
        failure_section(out, t, sources, trend == options.trend_pages.end() ? "" : trend->second);
      }
  if (summary_text::count(s, Outcome::passed) > 0) out << "<h2>Passed</h2>";
  for (const TestResult& t : s.tests)
    if (t.outcome == Outcome::passed) passed_section(out, t, sources);
  out << "</body></html>\n";
  return out.str();
}

}  // namespace bankgate::gate
