#pragma once
// The HTML report's parts, each in a file of its own: the page and each test's section (html_report.cpp), the
// provenance block and the overview (html_overview.cpp), the per-line table with its source text and links
// (html_lines.cpp), the duration plot (html_plot.cpp). Private to the gate layer.

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <bankgate/gate/store/confined_folder.hpp>
#include <bankgate/gate/reports/gate_summary.hpp>
#include <bankgate/gate/text/source_url.hpp>
#include <bankgate/gate/text/text.hpp>  // html_text: every text from outside goes through it

namespace bankgate::gate::html {

std::string fixed(double value, int decimals);
// The id of a test's section, for links to it: "test-" and its name, with characters outside [A-Za-z0-9._-]
// as '-'.
std::string anchor(const TestResult& t);
std::string outcome_class(Outcome outcome);  // the CSS class of an outcome's label

// The source text and the link of each line the per-line tables name.
class SourceLines {
 public:
  // `root`: the project's source folder (empty or unusable: no text); `url`: the link template (empty: no links);
  // `provenance`: the commits the links point at.
  SourceLines(const std::filesystem::path& root, const SourceUrl& url, const RunProvenance& provenance);
  // The current text of `file`'s line `number`, without its indentation; "" where unknown.
  std::string text(const std::string& file, std::uint32_t number);
  // The address of a line of the measured source, or of a line only the baseline has (at the baseline's
  // commit, where it is one known commit); "" where there is none to give.
  std::string measured_link(const std::string& file, std::uint32_t number);
  std::string baseline_link(const std::string& file, std::uint32_t number) const;

 private:
  const std::vector<std::string>& lines_of(const std::string& file);

  std::optional<ConfinedFolder> folder_;
  std::map<std::string, std::vector<std::string>> files_;
  SourceUrl url_;
  std::string measured_commit_, baseline_commit_;
};

void provenance_block(std::ostream& out, const GateSummary& s);
void overview(std::ostream& out, const GateSummary& s);
void line_table(std::ostream& out, const TestResult& t, SourceLines& sources);
void duration_plot(std::ostream& out, const TestResult& t);

}  // namespace bankgate::gate::html
