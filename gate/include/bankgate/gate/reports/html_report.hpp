#pragma once
// One self-contained HTML page for a gate run. First the verdict, where the results come from (bankgate's
// version, the host and date of the report, the measured commit and GPUs, the baselines' commits) and an
// overview of what did not pass; then each such test once: a table of what changed against its baseline, its
// per-source-line figures beside the source text (linked to the source where a template is given), its
// duration samples against the baseline's distribution as a plot, and its console text folded away; then the
// tests that passed, folded. Inline CSS and SVG only: it runs no script and fetches nothing.

#include <filesystem>
#include <map>
#include <string>

#include <bankgate/gate/reports/gate_summary.hpp>

namespace bankgate::gate {

struct HtmlOptions {
  // The project's source folder, where the per-line figures' files are looked up to show their text; empty or
  // missing files leave the text out.
  std::filesystem::path sources;
  // Names the run, e.g. "bankgate gate" or "bankgate compare: head against base".
  std::string title = "bankgate gate";
  // A source link template (source_url.hpp); empty: no links. Throws SourceUrlError where it is unusable.
  std::string source_url;
  // Each failed test's page of its history (the gate writes them where a history store is kept), by test name: an
  // address relative to the report, linked from the test's section.
  std::map<std::string, std::string> trend_pages;
};

std::string render_html(const GateSummary& summary, const HtmlOptions& options);

}  // namespace bankgate::gate
