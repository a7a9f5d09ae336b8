#pragma once
// One series of the history as a self-contained HTML page (history show --html): durations as their medians with
// the p10 - p90 range of each run, counters as steps; each point names its run and commit, and links to the
// commit where a link template is given.

#include <string>
#include <vector>

#include <bankgate/history/store.hpp>

namespace bankgate::history {

// `commit_url`: an http(s) address with {commit} where the commit goes; empty for no links. Every name from the
// store is HTML-encoded.
std::string trend_page(const SeriesQuery& query, const std::vector<SeriesPoint>& points, const std::string& commit_url);

}  // namespace bankgate::history
