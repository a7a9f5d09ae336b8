// Series as an HTML page of SVG plots (trend_page.hpp).

#include <bankgate/history/trend_page.hpp>

#include <algorithm>
#include <cstdio>
#include <map>
#include <sstream>

#include <bankgate/gate/text/source_url.hpp>
#include <bankgate/gate/text/text.hpp>

namespace bankgate::history {
namespace {

constexpr double width = 960, height = 320, margin = 48;

std::string fixed(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", v);
  return text;
}

struct Scale {
  double low = 0, high = 1;
  std::size_t count = 1;
  double x(std::size_t i) const {
    return count < 2 ? width / 2
                     : margin + (width - 2 * margin) * static_cast<double>(i) / (static_cast<double>(count) - 1.0);
  }
  double y(double v) const { return height - margin - (height - 2 * margin) * (v - low) / (high - low); }
};

Scale scale_of(const std::vector<SeriesPoint>& points) {
  Scale s;
  s.count = points.size();
  s.low = s.high = points.front().value;
  for (const SeriesPoint& p : points)
    for (const double v : {p.value, p.p10_ns.value_or(p.value), p.p90_ns.value_or(p.value)}) {
      s.low = std::min(s.low, v);
      s.high = std::max(s.high, v);
    }
  const double pad = s.high > s.low ? (s.high - s.low) * 0.05 : std::max(1.0, s.high * 0.05);
  s.low -= pad;
  s.high += pad;
  return s;
}

// A link to the commit, or nothing: only an http(s) template, and only a commit of hex digits put in it (an
// imported run's commit could be any text), percent-encoded all the same; the address HTML-encoded for its attribute.
std::string link(const std::string& url, const std::string& commit) {
  const std::size_t at = url.find("{commit}");
  if (at == std::string::npos || !(url.starts_with("https://") || url.starts_with("http://"))) return "";
  if (commit.empty() || commit.find_first_not_of("0123456789abcdef") != std::string::npos) return "";
  std::string to = url;
  to.replace(at, 8, gate::url_encoded(commit));
  return gate::html_text(to);
}

// The in-page address of a run's row in the table of runs (runs_table).
std::string run_anchor(std::int64_t run_id) { return "run-" + std::to_string(run_id); }

// Runs are labelled under their points where there is room for the labels.
constexpr std::size_t most_labelled_runs = 60;

// A point: linked to its commit where there is a link, else to its run's row; its run's number under it links to
// that row.
void draw_point(std::ostringstream& out, const Scale& s, std::size_t i, const SeriesPoint& p, const std::string& url) {
  const std::string title = "run " + std::to_string(p.run_id) + ", commit " + p.commit + ": " + fixed(p.value) +
                            (p.code_hash.empty() ? "" : ", code " + p.code_hash);
  const std::string commit_href = link(url, p.commit);
  const std::string run_href = "#" + run_anchor(p.run_id);
  out << "<a href=\"" << (commit_href.empty() ? run_href : commit_href) << "\">";
  if (p.p10_ns && p.p90_ns)
    out << "<line x1=" << fixed(s.x(i)) << " x2=" << fixed(s.x(i)) << " y1=" << fixed(s.y(*p.p10_ns))
        << " y2=" << fixed(s.y(*p.p90_ns)) << " stroke=#8c959f />";
  out << "<circle cx=" << fixed(s.x(i)) << " cy=" << fixed(s.y(p.value)) << " r=4 fill=#0969da><title>"
      << gate::html_text(title) << "</title></circle></a>";
  if (s.count <= most_labelled_runs)
    out << "<a href=\"" << run_href << "\"><text x=" << fixed(s.x(i)) << " y=" << fixed(height - margin / 2)
        << " font-size=10 text-anchor=middle>" << p.run_id << "</text></a>";
}

// Every run of the page's points, once, oldest first: its row (the target of its points' links) names its time,
// GPU, commit (linked) and parent.
void runs_table(std::ostringstream& out, const std::vector<TrendSeries>& series, const std::string& commit_url) {
  std::map<std::int64_t, const SeriesPoint*> runs;
  for (const TrendSeries& s : series)
    for (const SeriesPoint& p : s.points) runs.emplace(p.run_id, &p);
  if (runs.empty()) return;
  out << "<h2>Runs</h2><table><tr><th>run</th><th>time</th><th>GPU</th><th>commit</th><th>parent</th></tr>";
  for (const auto& [id, p] : runs) {
    const std::string href = link(commit_url, p->commit);
    const std::string commit = gate::html_text(p->commit);
    out << "<tr id=" << run_anchor(id) << "><td>" << id << "</td><td>" << gate::html_text(p->time) << "</td><td>"
        << gate::html_text(p->gpu_key) << "</td><td>"
        << (href.empty() ? commit : "<a href=\"" + href + "\">" + commit + "</a>") << "</td><td>"
        << gate::html_text(p->parent) << "</td></tr>";
  }
  out << "</table>";
}

// One series' heading, what its plot shows, and the plot.
void plot(std::ostringstream& out, const TrendSeries& series, const std::string& commit_url) {
  const SeriesQuery& query = series.query;
  const std::vector<SeriesPoint>& points = series.points;
  out << "<h2>" << gate::html_text(query.metric) << (query.kernel.empty() ? "" : " of " + gate::html_text(query.kernel))
      << "</h2><p>" << points.size() << " run(s), oldest first"
      << (query.metric == "duration" ? ": the median of each run, its p10 - p90 range as a line" : ": as steps")
      << "; each point names its run and commit and links to "
      << (commit_url.empty() ? "its run in the table below" : "its commit")
      << (points.size() <= most_labelled_runs ? ", the run's number under it to the run" : "") << ".</p>";
  if (points.empty()) return;
  const Scale s = scale_of(points);
  out << "<svg xmlns='http://www.w3.org/2000/svg' width=" << width << " height=" << height << ">"
      << "<text x=4 y=" << fixed(s.y(s.high) + 12) << ">" << fixed(s.high) << "</text><text x=4 y=" << fixed(s.y(s.low))
      << ">" << fixed(s.low) << "</text>";
  if (query.metric != "duration") {
    out << "<path fill=none stroke=#0969da d='";
    for (std::size_t i = 0; i < points.size(); ++i)
      out << (i == 0 ? "M" : " H") << fixed(s.x(i)) << (i == 0 ? "," : " V") << fixed(s.y(points[i].value));
    out << "'/>";
  }
  for (std::size_t i = 0; i < points.size(); ++i) draw_point(out, s, i, points[i], commit_url);
  out << "</svg>";
}

}  // namespace

std::string trend_page(const std::string& title, const std::vector<TrendSeries>& series,
                       const std::string& commit_url) {
  const std::string name = gate::html_text(title);
  std::ostringstream out;
  out << "<!DOCTYPE html><html><head><meta charset=utf-8><title>" << name << "</title></head><body>"
      << "<h1>" << name << "</h1>";
  for (const TrendSeries& s : series) plot(out, s, commit_url);
  runs_table(out, series, commit_url);
  out << "</body></html>\n";
  return out.str();
}

std::string trend_page(const SeriesQuery& query, const std::vector<SeriesPoint>& points,
                       const std::string& commit_url) {
  return trend_page(query.test + ": " + query.metric, {{query, points}}, commit_url);
}

}  // namespace bankgate::history
