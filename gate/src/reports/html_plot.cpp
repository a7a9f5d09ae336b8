// The HTML report's duration plot: the run's samples and the baseline's percentiles as cumulative
// distributions, on an axis that shows both (duration_axis.hpp).
#include "html_parts.hpp"

#include <algorithm>
#include <cstdio>

#include <bankgate/gate/reports/duration_axis.hpp>
#include <bankgate/gate/text/number_format.hpp>

namespace bankgate::gate::html {
namespace {

// The plot's frame inside the SVG, in pixels.
struct Frame {
  double width = 600, height = 230;
  double left = 64, right = 24, top = 12, bottom = 48;
  double inner_width() const { return width - left - right; }
  double inner_height() const { return height - top - bottom; }
};

std::string tick_label(double ns) {
  char text[32];
  std::snprintf(text, sizeof text, "%.8g", ns);
  return text;
}

// The frame of each span, the break between two, the ticks and the axis labels.
void draw_axes(std::ostream& out, const DurationAxis& axis, const Frame& f) {
  const auto x = [&](double share) { return f.left + share * f.inner_width(); };
  for (const AxisSpan& span : axis.spans) {
    const double from = x(axis.position(span.low)), to = x(axis.position(span.high));
    out << "<rect x=" << fixed(from, 1) << " y=" << f.top << " width=" << fixed(to - from, 1)
        << " height=" << f.inner_height() << " fill=none stroke=#d0d7de />";
  }
  if (axis.broken()) {
    const double middle = x(0.5), bottom = f.top + f.inner_height();
    for (const double y : {f.top, bottom})
      out << "<path d='M" << fixed(middle - 7, 1) << "," << fixed(y + 5, 1) << " l6,-10 M" << fixed(middle + 1, 1)
          << "," << fixed(y + 5, 1) << " l6,-10' stroke=#57606a />";
  }
  for (const double tick : axis.ticks()) {
    const double at = x(axis.position(tick));
    out << "<line x1=" << fixed(at, 1) << " x2=" << fixed(at, 1) << " y1=" << f.top + f.inner_height()
        << " y2=" << f.top + f.inner_height() + 4 << " stroke=#57606a /><text x=" << fixed(at, 1)
        << " y=" << f.top + f.inner_height() + 16 << " text-anchor=middle>" << tick_label(tick) << "</text>";
  }
  out << "<text x=" << fixed(x(0.5), 1) << " y=" << f.height - 6 << " text-anchor=middle>kernel duration [ns]"
      << (axis.broken() ? " (axis broken between the two distributions)" : "") << "</text>"
      << "<text x=" << f.left - 6 << " y=" << f.top + 8 << " text-anchor=end>100%</text><text x=" << f.left - 6
      << " y=" << f.top + f.inner_height() / 2 + 4 << " text-anchor=end>50%</text><text x=" << f.left - 6
      << " y=" << f.top + f.inner_height() << " text-anchor=end>0%</text><text transform='translate(14,"
      << fixed(f.top + f.inner_height() / 2, 1) << ") rotate(-90)' text-anchor=middle>share of samples</text>";
}

// More points than the plot has pixels across show nothing more: a curve is drawn from at most this many of its
// quantiles, so a run of millions of samples makes a plot of the same few kilobytes.
constexpr std::size_t max_curve_points = 1001;

// `sorted` thinned to at most max_curve_points values at equal steps of share, its ends kept.
std::vector<double> thinned(const std::vector<double>& sorted) {
  if (sorted.size() <= max_curve_points) return sorted;
  std::vector<double> points;
  for (std::size_t i = 0; i < max_curve_points; ++i)
    points.push_back(sorted[i * (sorted.size() - 1) / (max_curve_points - 1)]);
  return points;
}

// One distribution as a cumulative step line: sorted values at equal steps of share.
void draw_curve(std::ostream& out, const std::vector<double>& all, const DurationAxis& axis, const Frame& f,
                const char* style) {
  if (all.empty()) return;
  const std::vector<double> sorted = thinned(all);
  out << "<polyline fill=none stroke-width=2 " << style << " points='";
  for (std::size_t i = 0; i < sorted.size(); ++i) {
    const double share = sorted.size() == 1 ? 1.0 : static_cast<double>(i) / static_cast<double>(sorted.size() - 1);
    out << fixed(f.left + axis.position(sorted[i]) * f.inner_width(), 1) << ","
        << fixed(f.top + (1 - share) * f.inner_height(), 1) << " ";
  }
  out << "'/>";
}

std::size_t beyond_ends(const std::vector<double>& values, const DurationAxis& axis) {
  return static_cast<std::size_t>(std::count_if(values.begin(), values.end(), [&](double v) {
    return v < axis.spans.front().low || v > axis.spans.back().high;
  }));
}

void legend(std::ostream& out, const TestResult& t, const std::vector<double>& run, const std::vector<double>& base,
            std::size_t beyond) {
  out << "<p class=muted>Cumulative share of duration samples: <span style='color:#0969da'>&#9644; this run ("
      << run.size() << " samples" << (t.median_ns ? ", median " + format_number(*t.median_ns) + " ns" : "")
      << ")</span>";
  if (!base.empty()) {
    const TimingSummary& timing = *t.baseline->timing;
    out << ", <span style='color:#57606a'>- - baseline (its 5% percentiles, " << timing.samples << " samples, median "
        << format_number(timing.median_ns) << " ns)</span>";
    if (t.median_ns && timing.median_ns > 0)
      out << "; the run's median is " << fixed(*t.median_ns / timing.median_ns, 2) << "&times; the baseline's";
  }
  out << ". The axis spans each side's 1st to 99th percentile";
  if (beyond > 0)
    out << "; " << beyond << " value" << (beyond == 1 ? " lies" : "s lie") << " beyond it, drawn at its ends";
  out << ".</p>";
}

}  // namespace

void duration_plot(std::ostream& out, const TestResult& t) {
  std::vector<double> run = t.measured->samples_ns;
  const std::vector<double> base =
      t.baseline && t.baseline->timing ? t.baseline->timing->quantiles_ns : std::vector<double>{};
  if (run.empty() && base.empty()) return;
  std::sort(run.begin(), run.end());
  const DurationAxis axis = duration_axis(run, base);
  const Frame f;
  out << "<h4>Duration</h4><svg width=" << f.width << " height=" << f.height
      << " role=img aria-label='duration distributions'>";
  draw_axes(out, axis, f);
  draw_curve(out, base, axis, f, "stroke=#57606a stroke-dasharray='5 3'");
  draw_curve(out, run, axis, f, "stroke=#0969da");
  out << "</svg>";
  legend(out, t, run, base, beyond_ends(run, axis) + beyond_ends(base, axis));
}

}  // namespace bankgate::gate::html
