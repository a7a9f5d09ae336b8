// The HTML report's page: the verdict, provenance and overview first (html_overview.cpp), then each test that
// did not pass once, as a section of tables (what changed, its source lines, its durations) with its console
// text folded away, then the tests that passed, folded.
#include <bankgate/gate/html_report.hpp>

#include <cctype>
#include <algorithm>
#include <cstdio>
#include <map>
#include <sstream>

#include <bankgate/gate/number_format.hpp>
#include <bankgate/metrics.hpp>

#include "html_parts.hpp"
#include "summary_text.hpp"

namespace bankgate::gate {
namespace html {

std::string escape(const std::string& text) {
  std::string out;
  for (const char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

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

using html::escape;

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

// Every counter of the run against the baseline's, then the derived ratios.
void counter_table(std::ostream& out, const TestResult& t) {
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

// What differs from the baseline, one row per change, in the order a reader compares them.
void changes_table(std::ostream& out, const TestResult& t) {
  out << "<table class=changes><tr><th class=l>metric</th><th>baseline</th><th>measured</th><th>change</th>"
         "<th class=l>tolerance</th><th class=l>verdict</th></tr>";
  for (const MetricChange& c : t.changes)
    out << "<tr class=changed><td class=l>" << escape(c.metric)
        << (c.metric_name.empty() ? "" : "<br><code class=muted>" + escape(c.metric_name) + "</code>") << "</td><td>"
        << escape(c.baseline) << "</td><td>" << escape(c.measured) << "</td><td>" << escape(c.change) << "</td><td class=\"l tolerance\">"
        << escape(c.tolerance) << "</td><td class=l>" << escape(c.verdict) << "</td></tr>";
  out << "</table>";
}

// Where the test ran and against which file.
void test_facts(std::ostream& out, const TestResult& t) {
  std::string facts;
  if (t.measured) facts += "kernel <code>" + escape(t.measured->kernel) + "</code>";
  if (!t.gpu.empty()) facts += (facts.empty() ? "on " : " on ") + escape(t.gpu);
  if (!t.device.empty()) facts += (facts.empty() ? "device " : ", device ") + escape(t.device);
  if (!t.baseline_file.empty()) facts += (facts.empty() ? "" : "; ") + std::string("baseline <code>") + escape(t.baseline_file) + "</code>";
  if (!facts.empty()) out << "<p class=muted>" << facts << "</p>";
}

// The remedy, only where it is one: a refresh for an intended change, a first recording on a new GPU.
void advice(std::ostream& out, const TestResult& t) {
  if (summary_text::refresh_fixes(t)) out << "<p class=advice>If intended, refresh: <code>" << escape(t.refresh) << "</code></p>";
  else if (summary_text::needs_first_baseline(t))
    out << "<p class=advice>Record a baseline on this GPU: <code>" << escape(t.refresh) << "</code></p>";
}

// A test that did not pass, once: heading, what changed, the remedy, its lines and durations, then what else
// there is to read, folded.
void failure_section(std::ostream& out, const TestResult& t, html::SourceLines& sources) {
  out << "<section class='test failed' id='" << escape(html::anchor(t)) << "'><h3>" << escape(t.name) << " <span class='verdict "
      << html::outcome_class(t.outcome) << "'>" << escape(to_string(t.outcome)) << "</span></h3>";
  test_facts(out, t);
  if (!t.changes.empty()) changes_table(out, t);
  else if (!t.reason.empty()) out << "<p class=why>" << escape(summary_text::first_line(t.reason, std::string::npos)) << "</p>";
  advice(out, t);
  if (t.measured) {
    html::line_table(out, t, sources);
    html::duration_plot(out, t);
    out << "<details><summary>every counter of this run</summary>";
    counter_table(out, t);
    out << "</details>";
  }
  if (!t.reason.empty()) out << "<details><summary>the test's console output</summary><pre>" << escape(t.reason) << "</pre></details>";
  out << "</section>";
}

void passed_section(std::ostream& out, const TestResult& t, html::SourceLines& sources) {
  out << "<details id='" << escape(html::anchor(t)) << "'><summary>" << escape(t.name)
      << (t.median_ns ? " &mdash; median " + format_number(*t.median_ns) + " ns" : "") << "</summary><section class=test>";
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
  html::SourceLines sources(options.sources, options.source_url.empty() ? SourceUrl() : SourceUrl(options.source_url), s.provenance);
  std::ostringstream out;
  const std::string verdict = verdict_word(s.exit_code());
  out << "<!DOCTYPE html><html lang=en><head><meta charset=utf-8><title>" << escape(options.title) << ": " << verdict
      << "</title><style>" << css << "</style></head><body>";
  out << "<h1>" << escape(options.title) << ": <span class='verdict " << (s.exit_code() == 0 ? "passed" : "regressed") << "'>"
      << verdict << "</span></h1>";
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
        failure_section(out, t, sources);
      }
  if (summary_text::count(s, Outcome::passed) > 0) out << "<h2>Passed</h2>";
  for (const TestResult& t : s.tests)
    if (t.outcome == Outcome::passed) passed_section(out, t, sources);
  out << "</body></html>\n";
  return out.str();
}

}  // namespace bankgate::gate
