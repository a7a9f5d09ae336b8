#pragma once
// The gate's pages of history: for each test it failed, a trend page (history/trend_page.hpp) of the test's
// duration and of each of its counters over the runs the history store holds of this GPU, this run's included,
// written beside the gate's reports so that the HTML report links to it and the CI artifact keeps it.

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <bankgate/gate/reports/gate_summary.hpp>

#include "history_append.hpp"

namespace bankgate::cli {

// Writes the page of each test `summary` regressed into protocol::run_trend_pages(reports), from the store the run
// was `appended` to; each point links to its commit where `source_url` (the HTML report's source link template, a
// valid one or empty) says the forge's commit pages (SourceUrl::commit_template). Returns each page's address
// relative to `reports`, by test name. Never throws: a store that cannot be read or a page that cannot be written
// is said on standard error and costs only its pages (the verdict stands).
std::map<std::string, std::string> write_trend_pages(const Appended& appended, const gate::GateSummary& summary,
                                                     const std::filesystem::path& reports,
                                                     const std::string& source_url);

// A gate split over runners: the pages its parts drew (each part's report folder, `parts`) of the tests the merged
// `summary` regressed, copied into protocol::run_trend_pages(reports) for the merged report to link. Returns each
// page's address relative to `reports`, by test name. Only plain files are copied (an artifact's link to elsewhere
// is not followed). Never throws: a page that cannot be copied is said and costs only itself.
std::map<std::string, std::string> merged_trend_pages(const std::vector<std::filesystem::path>& parts,
                                                      const gate::GateSummary& summary,
                                                      const std::filesystem::path& reports);

}  // namespace bankgate::cli
