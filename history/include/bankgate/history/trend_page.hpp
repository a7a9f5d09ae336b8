#pragma once
// Series of the history as a self-contained HTML page (history show --html, and the gate's page for each test it
// failed): durations as their medians with the p10 - p90 range of each run, counters as steps; each point names
// its run and commit, and links to the commit where a link template is given.

#include <string>
#include <vector>

#include <bankgate/history/store.hpp>

namespace bankgate::history {

// One plot of a page: a series and what it is of.
struct TrendSeries {
  SeriesQuery query;
  std::vector<SeriesPoint> points;
};

// A page headed `title` with a plot per series, in their order. `commit_url`: an http(s) address with {commit}
// where the commit goes; empty for no links. Every name from the store is HTML-encoded.
std::string trend_page(const std::string& title, const std::vector<TrendSeries>& series, const std::string& commit_url);
// A page of one series, headed by its test and metric.
std::string trend_page(const SeriesQuery& query, const std::vector<SeriesPoint>& points, const std::string& commit_url);

}  // namespace bankgate::history
