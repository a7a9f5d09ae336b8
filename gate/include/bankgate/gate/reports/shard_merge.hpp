#pragma once
// One verdict from a gate split over runners (shard_plan.hpp): `bankgate summary --shards DIR` over the report
// folders the parts left (each CI job's <build>/bankgate/gate/, downloaded side by side into DIR). Each folder's
// files are read as its own gate read them (summarize, gate_summary.hpp), and the summaries are joined in the
// order of the parts. The parts must make up one whole split: every part of 1..N exactly once, all of the same
// N and the same catalogue, every suite in one part, no test reported by two. Anything else is refused before a
// report is written: a verdict over part of the suites would pass what was never measured.

#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include <bankgate/gate/reports/gate_summary.hpp>

namespace bankgate::gate {

class ShardMergeError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A part's report folder and what its summary.json says it is.
struct ShardReport {
  std::filesystem::path folder;
  ShardRecord record;
};

// Every gate report folder (a folder holding summary.json) at or below `root`, a few levels deep, sorted by path.
// Throws ShardMergeError where there is none, or one that cannot be read or is no part of a split gate.
std::vector<ShardReport> find_shard_reports(const std::filesystem::path& root);

// Throws ShardMergeError naming every way in which `reports` are not the parts of one split (above).
void check_shard_reports(const std::vector<ShardReport>& reports);

// The parts' summaries joined, in the order of their numbers; `common` gives what every part is read with (the
// baselines folder, the refresh command), each part its own files. A part that had no suite to run is a problem
// of the whole. Checks the reports first (check_shard_reports); throws ShardMergeError for a test in two parts.
GateSummary merge_shard_reports(const std::vector<ShardReport>& reports, const GateInputs& common);

}  // namespace bankgate::gate
