// The HTML report's per-line table: every source line of either side with its figures, baseline against run,
// beside the line's text and a link to it.
#include "html_parts.hpp"

#include <algorithm>
#include <sstream>

#include <bankgate/gate/rules/line_comparison.hpp>

namespace bankgate::gate::html {
namespace {

namespace fs = std::filesystem;

// The one commit a link can point at: "" where unknown or where several are joined ("a, b").
std::string single_commit(const std::string& commit) {
  return commit.find(',') == std::string::npos && commit != "unknown" ? commit : "";
}

bool uses_sectors(const SourceLineFigures& l) { return line_unit(l.kind) == LineUnit::sectors; }

// The link around a line's name, where there is one.
std::string linked(const std::string& text, const std::string& address) {
  if (address.empty()) return html_text(text);
  return "<a href='" + html_text(address) + "'>" + html_text(text) + "</a>";
}

// The source line's cells: its name (linked) and its text. A line only the baseline has shows no text of
// today's file: its number there now holds something else (a removed LDS would sit beside a '}').
void source_cells(std::ostream& out, const LineChange& c, SourceLines& sources) {
  if (!c.measured) {
    const SourceLineFigures& l = *c.baseline;
    out << "<td class=l>" << linked(l.where(), sources.baseline_link(l.file, l.line))
        << "</td><td class='src muted'>(only in the baseline)";
  } else {
    const SourceLineFigures& l = *c.measured;
    out << "<td class=l>" << linked(l.where(), sources.measured_link(l.file, l.line)) << "</td><td class=src>"
        << html_text(sources.text(l.file, l.line));
  }
  const SourceLineFigures& l = c.measured ? *c.measured : *c.baseline;
  if (!l.inlined.empty()) out << "<br><span class=muted>inlined from " << html_text(l.inlined) << "</span>";
  out << "</td>";
}

void line_row(std::ostream& out, const LineChange& c, bool changed, SourceLines& sources) {
  const SourceLineFigures& l = c.measured ? *c.measured : *c.baseline;
  // "baseline &rarr; run" where they differ; "new" and "gone" for a side that lacks the line.
  const auto pair = [&](auto get) {
    const std::string b = c.baseline ? get(*c.baseline) : std::string("new");
    const std::string r = c.measured ? get(*c.measured) : std::string("gone");
    return b == r ? r : b + " &rarr; " + r;
  };
  out << "<tr" << (changed ? " class=changed" : "") << ">";
  source_cells(out, c, sources);
  out << "<td class=l>" << html_text(l.kind) << "</td><td class=l>" << html_text(l.opcode) << "</td><td>"
      << pair([](const SourceLineFigures& x) { return std::to_string(x.executions); }) << "</td><td>"
      << pair([](const SourceLineFigures& x) {
           return fixed(uses_sectors(x) ? x.sectors_per_request() : x.wavefronts_per_request(), 2);
         })
      << "</td><td>"
      << pair([](const SourceLineFigures& x) { return std::to_string(uses_sectors(x) ? x.sectors : x.wavefronts); })
      << "</td><td>" << pair([](const SourceLineFigures& x) {
           return std::to_string(uses_sectors(x) ? x.ideal_sectors : x.ideal_wavefronts);
         })
      << "</td><td>" << pair([](const SourceLineFigures& x) {
           return std::to_string(uses_sectors(x) ? x.excess_sectors() : x.excess());
         })
      << "</td></tr>";
}

}  // namespace

SourceLines::SourceLines(const fs::path& root, const SourceUrl& url, const RunProvenance& provenance)
    : url_(url), measured_commit_(single_commit(provenance.commit)) {
  if (provenance.baseline_commits.size() == 1) baseline_commit_ = single_commit(provenance.baseline_commits.front());
  try {
    if (!root.empty()) folder_.emplace(root, "the project's source folder");
  } catch (const ConfinementError&) {
  }
}

std::string SourceLines::text(const std::string& file, std::uint32_t number) {
  const std::vector<std::string>& lines = lines_of(file);
  if (number == 0 || number > lines.size()) return "";
  std::string text = lines[number - 1];
  text.erase(0, text.find_first_not_of(" \t"));
  return text;
}

std::string SourceLines::measured_link(const std::string& file, std::uint32_t number) {
  // With the sources at hand, only their own files are linked: a header outside the project is named by its
  // file name alone, which is no path in the project's repository.
  if (folder_ && lines_of(file).empty()) return "";
  return url_.link(measured_commit_, file, number);
}

std::string SourceLines::baseline_link(const std::string& file, std::uint32_t number) const {
  if (url_.needs_commit() && baseline_commit_.empty()) return "";
  return url_.link(baseline_commit_, file, number);
}

// Source text by file, read once per file. The file names come from baselines and candidates, which anyone can
// edit, so text is read only from regular files inside the project's source folder (an absolute name, a link
// or '..' that leads out, a FIFO or a huge file gives no text).
const std::vector<std::string>& SourceLines::lines_of(const std::string& file) {
  static const std::vector<std::string> none;
  if (!folder_ || file.empty()) return none;
  auto it = files_.find(file);
  if (it != files_.end()) return it->second;
  std::vector<std::string>& lines = files_[file];
  if (fs::path(file).is_absolute()) return lines;
  constexpr std::size_t max_source_bytes = std::size_t{8} << 20;
  std::istringstream text;
  try {
    text.str(folder_->read(file, max_source_bytes));
  } catch (const std::exception&) {
    return lines;
  }
  for (std::string l; std::getline(text, l);) lines.push_back(l);
  return lines;
}

void line_table(std::ostream& out, const TestResult& t, SourceLines& sources) {
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
  out << "<h4>Source lines</h4><table class=lines><tr><th class=l>source line</th><th class=l>code</th><th "
         "class=l>kind</th>"
         "<th class=l>SASS</th><th>requests</th><th>per request<br>baseline &rarr; run</th>"
         "<th>wavefronts or sectors<br>baseline &rarr; run</th><th>ideal</th>"
         "<th>excess (bank conflicts, uncoalesced)<br>baseline &rarr; run</th></tr>";
  for (std::size_t i = 0; i < rows.size(); ++i) line_row(out, rows[i], i < changed, sources);
  out << "</table>";
  if (base.empty()) out << "<p class=muted>The baseline has no per-line figures (a refresh records them).</p>";
}

}  // namespace bankgate::gate::html
