#pragma once
// What a recording (bankgate record, refresh) measured of the tests it selected: a test that left no measurement
// is named with its reason in the command's last lines, nothing is promoted for it, and the command exits 2, so
// that a refresh cannot end quietly with some tests left without a baseline.

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include <bankgate/gate/reports/gate_summary.hpp>

namespace bankgate::gate {

struct MeasuredCount {
  std::size_t selected = 0;                                       // the tests the run selected (ctest ran)
  std::vector<std::pair<std::string, std::string>> not_measured;  // name, why (its messages, or how it ended)
};

// The summary's tests that have no measurement of this run.
MeasuredCount count_measured(const GateSummary& summary);

// "<command>: N of M tests measured", then, where some were not, each with the first line of its reason.
std::string render_measured(const MeasuredCount& count, const std::string& command);

// exit_ok where every selected test was measured (and one was), else exit_not_measured.
int measured_exit_code(const MeasuredCount& count);

}  // namespace bankgate::gate
