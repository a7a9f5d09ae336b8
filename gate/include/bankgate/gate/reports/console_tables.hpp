#pragma once
// The console tables of review and compare: one row per finding, within the console's width, each verdict
// coloured as it counts in the command's exit code.

#include <string>
#include <vector>

#include <bankgate/gate/reports/colour.hpp>
#include <bankgate/gate/reports/gate_summary.hpp>
#include <bankgate/gate/rules/baseline_review.hpp>
#include <bankgate/gate/rules/run_comparison.hpp>

namespace bankgate::gate {

// test, metric, old, new, change, verdict, within the console's width; each verdict coloured by `palette` (off
// by default) as the row counts in review's exit code.
std::string render(const std::vector<ReviewRow>& rows, bool only_changes, const Palette& palette = {});

// The rows of that table for a summary's tests: the one comparison the summary made of each measurement, shown as
// it was made (record's table), never made again.
std::vector<ReviewRow> review_rows(const GateSummary& summary);

// test, base, head, change, verdict: one line per test (its duration), then one per counter that changed;
// within the console's width, each verdict coloured by `palette` (off by default) as it counts in the exit code.
std::string render_comparison(const std::vector<ComparisonRow>& rows, bool fail_on_speedup,
                              const Palette& palette = {});

}  // namespace bankgate::gate
