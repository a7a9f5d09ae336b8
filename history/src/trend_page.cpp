// Series as an HTML page of SVG plots (trend_page.hpp).

#include <bankgate/history/trend_page.hpp>

#include <algorithm>
#include <cstdio>
#include <sstream>

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
    return count < 2 ? width / 2 : margin + (width - 2 * margin) * static_cast<double>(i) / (count - 1.0);
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
// imported run's commit could be any text).
std::string link(const std::string& url, const std::string& commit) {
  const std::size_t at = url.find("{commit}");
  if (at == std::string::npos || !(url.starts_with("https://") || url.starts_with("http://"))) return "";
  if (commit.empty() || commit.find_first_not_of("0123456789abcdef") != std::string::npos) return "";
  std::string to = url;
  to.replace(at, 8, commit);
  return gate::html_text(to);
}

void draw_point(std::ostringstream& out, const Scale& s, std::size_t i, const SeriesPoint& p, const std::string& url) {
  const std::string title = "run " + std::to_string(p.run_id) + ", commit " + p.commit + ": " + fixed(p.value) +
                            (p.code_hash.empty() ? "" : ", code " + p.code_hash);
  const std::string href = link(url, p.commit);
  if (!href.empty()) out << "<a href=\"" << href << "\">";
  if (p.p10_ns && p.p90_ns)
    out << "<line x1=" << fixed(s.x(i)) << " x2=" << fixed(s.x(i)) << " y1=" << fixed(s.y(*p.p10_ns))
        << " y2=" << fixed(s.y(*p.p90_ns)) << " stroke=#8c959f />";
  out << "<circle cx=" << fixed(s.x(i)) << " cy=" << fixed(s.y(p.value)) << " r=4 fill=#0969da><title>"
      << gate::html_text(title) << "</title></circle>";
  if (!href.empty()) out << "</a>";
}

// One series' heading, what its plot shows, and the plot.
void plot(std::ostringstream& out, const TrendSeries& series, const std::string& commit_url) {
  const SeriesQuery& query = series.query;
  const std::vector<SeriesPoint>& points = series.points;
  out << "<h2>" << gate::html_text(query.metric) << (query.kernel.empty() ? "" : " of " + gate::html_text(query.kernel))
      << "</h2><p>" << points.size() << " run(s), oldest first"
      << (query.metric == "duration" ? ": the median of each run, its p10 - p90 range as a line" : ": as steps")
      << "; each point names its run and commit.</p>";
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
  out << "</body></html>\n";
  return out.str();
}

std::string trend_page(const SeriesQuery& query, const std::vector<SeriesPoint>& points,
                       const std::string& commit_url) {
  return trend_page(query.test + ": " + query.metric, {{query, points}}, commit_url);
}

}  // namespace bankgate::history
