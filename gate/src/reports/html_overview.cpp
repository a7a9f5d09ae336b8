// The top of the HTML report, under its verdict: where the results come from (provenance) and what did not
// pass (an overview linking to each such test's section), so that a reader has both before any detail.
#include "html_parts.hpp"

#include "summary_text.hpp"

namespace bankgate::gate::html {
namespace {

void provenance_row(std::ostream& out, const std::string& what, const std::string& html) {
  out << "<tr><th class=l>" << what << "</th><td class=l>" << html << "</td></tr>";
}

std::string code(const std::string& text) { return "<code>" + html_text(text) + "</code>"; }

std::string or_unknown(const std::string& text) {
  return text.empty() ? "<span class=muted>unknown</span>" : html_text(text);
}

}  // namespace

void provenance_block(std::ostream& out, const GateSummary& s) {
  const RunProvenance& p = s.provenance;
  out << "<table class=provenance>";
  provenance_row(out, "report",
                 "made by bankgate " + html_text(p.tool_version) + " on " + or_unknown(p.created) + ", host " +
                     or_unknown(p.host));
  std::string measured = p.commit.empty() ? "<span class=muted>commit unknown</span>" : "commit " + code(p.commit);
  if (p.dirty) measured += " <b>with uncommitted changes</b>";
  if (!p.measured.empty()) measured += ", on " + html_text(p.measured);
  provenance_row(out, "measured", measured);
  std::string gpus;
  for (const MeasuredGpu& gpu : p.gpus) gpus += (gpus.empty() ? "" : "<br>") + html_text(summary_text::gpu_text(gpu));
  provenance_row(out, p.gpus.size() > 1 ? "GPUs" : "GPU", gpus.empty() ? or_unknown("") : gpus);
  std::string baselines;
  for (const std::string& c : p.baseline_commits) baselines += (baselines.empty() ? "" : ", ") + code(c);
  provenance_row(out, "baselines", baselines.empty() ? "<span class=muted>none read</span>" : "commit " + baselines);
  out << "</table>";
}

void overview(std::ostream& out, const GateSummary& s) {
  out << "<table class=counts><tr><th>passed</th><th>regressed</th><th>not measured</th><th>skipped</th></tr><tr>";
  for (const Outcome o : {Outcome::passed, Outcome::regressed, Outcome::not_measured, Outcome::skipped})
    out << "<td class=" << outcome_class(o) << "-count>" << summary_text::count(s, o) << "</td>";
  out << "</tr></table>";
  for (const std::string& p : s.problems) out << "<p class=problem><b>problem:</b> " << html_text(p) << "</p>";
  bool header = false;
  for (const Outcome o : {Outcome::regressed, Outcome::not_measured, Outcome::skipped})
    for (const TestResult& t : s.tests) {
      if (t.outcome != o) continue;
      if (!header)
        out << "<table class=overview><tr><th class=l>test</th><th class=l>outcome</th><th class=l>why</th></tr>";
      header = true;
      out << "<tr><td class=l><a href='#" << html_text(anchor(t)) << "'>" << html_text(t.name)
          << "</a></td><td class=l><span class='verdict " << outcome_class(o) << "'>" << html_text(to_string(o))
          << "</span></td><td class=l>" << html_text(summary_text::detail(t, 160)) << "</td></tr>";
    }
  if (header) out << "</table>";
}

}  // namespace bankgate::gate::html
