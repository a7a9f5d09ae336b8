#pragma once
// The gate's verdict and its result tables, a fold over what the run's measuring runs left in its results folder:
// the plans (protocol/test_plan.hpp: which tests were to run) and each test's result record
// (protocol/test_result.hpp: what the suite process reported). Each planned test is judged once, here, by
// bankgate (protocol/judgement.hpp) from its candidate (what was measured) against the baseline read here; a
// record's own outcome never stands over that judgement, and a planned test without a record was not measured.
// ctest's JUnit report is read by nothing: the JUnit this writes is an output only. The baselines are judged
// themselves too, against the base branch's (a loosened tolerance fails its test).
//
//   bankgate summary --gtest-results DIR [--candidates DIR] [--baselines DIR] [--markdown FILE]
//
// Prints a compact table of all tests; with --markdown, appends a Markdown summary to FILE (failures first,
// each with measured against baseline and its refresh command; ci/gate.sh passes $GITHUB_STEP_SUMMARY).
// Exit codes, as ci/gate.sh's: 0 every test passed; 1 a test regressed (a counter changed, a kernel got
// slower, a wrong output); 2 nothing regressed but something could not be measured: a test failed before
// measuring or without a baseline to compare with, a test was skipped or not run, no test ran at all, or an
// input is unreadable.

#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include <bankgate/gate/protocol/environment.hpp>
#include <bankgate/gate/protocol/test_result.hpp>
#include <bankgate/gate/reports/colour.hpp>
#include <bankgate/gate/reports/report.hpp>
#include <bankgate/gate/rules/run_comparison.hpp>
#include <bankgate/gate/rules/run_provenance.hpp>

namespace bankgate::gate {

struct GateInputs {
  // The run's plans and the tests' result records, <build>/bankgate/gtest-results (absent: nothing ran)
  std::filesystem::path gtest_results;
  std::filesystem::path candidates;  // the run's, e.g. <build>/bankgate/gate/candidates (may be absent)
  std::filesystem::path baselines;   // empty: each candidate's own baselines folder (from its suite)
  // The source folder the build was configured from: a candidate's own baselines folder is read only where it
  // lies inside (candidate_baselines_folder). Empty: unknown, so only `baselines` is read.
  std::filesystem::path project;
  // The base branch's text of a baseline (`relative` inside the baselines folder `folder`), where a base is
  // known; nullopt where the base has no such file. Unset: what the change did to its baselines is not looked at.
  // Each baseline a test is gated against is compared with it (baseline_changes.hpp): a loosening fails the test
  // unless `accept_loosened`; every change is named in its result.
  std::function<std::optional<std::string>(const std::filesystem::path& folder, const std::filesystem::path& relative)>
      base_baseline;
  bool accept_loosened = false;
  bool fail_on_speedup = false;  // a kernel faster than its baseline fails too (BANKGATE_FAIL_ON_SPEEDUP)
  RefreshContext refresh;        // for the refresh command each result names
  // The commit of the source tree the run built and its uncommitted changes, for the provenance where no
  // candidate names a commit (a run without a GPU measures nothing); asked only then, since asking git costs a
  // gate tens of milliseconds. Unset, or nullopt: unknown.
  std::function<std::optional<SourceTree>()> source_tree;
};

// One finding that differs from the baseline, as words and numbers for the tables.
struct MetricChange {
  std::string metric;       // what people call it, e.g. "shared load transactions" or "duration (median) [ns]"
  std::string metric_name;  // the CUPTI metric, empty for the duration
  std::string measured, baseline, change, tolerance, verdict;
  std::optional<Finding> finding;  // the finding behind the row, for the JSON model; none for a wrong output
};

struct TestResult {
  std::string name;  // Suite.test, as the plan names it
  std::string suite, test;
  Outcome outcome = Outcome::not_measured;
  std::string device;  // "0 (0000:19:00.0)" as the test recorded it; empty when unknown
  std::string gpu;     // the GPU model of its candidate, e.g. "NVIDIA H200"
  // GoogleTest's time for the test, from its record; none without one
  std::optional<double> seconds;
  std::string reason;  // GoogleTest's failure or skip messages (or why there are none)
  std::vector<MetricChange> changes;
  std::optional<double> median_ns;  // of the measured durations, where measured
  std::string baseline_file;        // where the test's baseline is (or would be)
  std::string refresh;              // the command that re-measures and promotes this one test
  // What the test recorded (RecordProperty; its result record's properties): costs (counter_host_ms, timing_host_ms),
  // timing details (median_ns, timing_samples, launches_per_sample, ...), transactions per request; for benchmarks.
  std::map<std::string, std::string> properties;
  // The records behind the tables, for the HTML report: what this run measured (with its duration samples) and
  // the baseline it was gated against; absent where there is none.
  std::optional<TestRecord> measured;
  std::optional<TestRecord> baseline;
  // bankgate's one comparison of the measurement with its baseline, passes included (Judgement::comparison): what
  // record's review table shows, so that nothing compares again.
  std::vector<Finding> comparison;
};

// Which part of a gate split over several runners (`bankgate gate --shard I/N`) a summary covers, so that the
// merge of the parts (shard_merge.hpp) can tell a missing or doubled part.
struct ShardRecord {
  int index = 0;  // from 1
  int count = 0;
  std::vector<std::string> suites;     // the suites this part ran, sorted
  std::vector<std::string> catalogue;  // every suite of the split, sorted: the same in every part
};

struct GateSummary {
  std::vector<TestResult> tests;      // in the plans' order
  std::vector<std::string> problems;  // about the inputs as a whole: no test ran, an unreadable file
  RunProvenance provenance;           // what was measured and judged against what, by which bankgate
  std::optional<ShardRecord> shard;   // the part of a split gate this is; none for a whole gate
  int merged_shards = 0;              // a merge of that many parts' reports; 0 for a single run
  int exit_code() const;              // 0, 1 or 2 as above
};

GateSummary summarize(const GateInputs& inputs);

// A same-runner comparison (run_comparison.hpp) in the same shape, head as the run and base as its baseline,
// so that it reads, and renders as HTML, like a gate run; the verdicts are the comparison's `rows`, its one
// judgement of the pooled rounds (a test without a row is not measured, never compared here).
GateSummary summarize_comparison(const PooledRuns& base, const PooledRuns& head, const std::vector<ComparisonRow>& rows,
                                 bool fail_on_speedup);
// Both terminal-safe (text.hpp): a control character in a test's name or message is shown, not obeyed. The
// console's table keeps within console_width, each test's detail wrapped whole; `palette` colours each result
// and the headline (off by default).
std::string render_console(const GateSummary& summary, const Palette& palette = {});
// `title` heads the summary, before its verdict (a comparison calls itself "bankgate compare").
std::string render_markdown(const GateSummary& summary, const std::string& title = "bankgate gate");
// Appends `markdown` to `file` (created where absent), as a CI step summary is written. Only a regular file is
// written to: a FIFO, device or folder in its place is refused at once, never waited on. Throws
// std::runtime_error naming the file and what is wrong.
void append_markdown(const std::filesystem::path& file, const std::string& markdown);

// The same summary for tools (output_json.hpp; schemas/summary.schema.json): the head, then "exit_code",
// "verdict", "problems", "tests": [{name, outcome, changes, ...}], and for a part of a split gate "shard":
// {"index", "count", "suites", "catalogue"}, for a merge "merged_shards": N.
nlohmann::json to_json(const GateSummary& summary);
nlohmann::json to_json(const ShardRecord& shard);
// The "shard" object of a summary.json as to_json wrote it; throws std::runtime_error naming `origin` and the field
// where it is not.
ShardRecord shard_record_from_json(const nlohmann::json& shard, const std::string& origin);
// A JUnit report with one testcase per test: a regression a <failure>, a test not measured or skipped an
// <error>, so that its counts agree with exit_code() (summary_junit.cpp); a failure's message is its reason's
// first line (what CI front ends show), its text the whole reason and, where it is the remedy, the refresh.
std::string render_junit(const GateSummary& summary);
std::string verdict_word(int exit_code);  // for people: "passed", "regressed", "not measured"

}  // namespace bankgate::gate
