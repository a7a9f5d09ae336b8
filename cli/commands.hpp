#pragma once
// What the subcommands of `bankgate` share and call of each other, each a function of its options: the exit codes,
// the errors main() turns into them, and the subcommands another one runs (gate runs summary, refresh runs record
// and promote, compare runs promote, compare-commits runs compare). Each subcommand's command line and the rest of
// its work is in commands/<name>.cpp, listed in subcommand_table.hpp; the rules they apply live in bankgate::gate.

#include <filesystem>
#include <functional>
#include <iosfwd>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include <bankgate/gate/reports/gate_summary.hpp>
#include <bankgate/gate/reports/measured_count.hpp>
#include <bankgate/gate/rules/extra_rounds.hpp>
#include <bankgate/gate/protocol/run_protocol.hpp>
#include <bankgate/gate/store/baseline_transaction.hpp>

namespace bankgate::cli {

// Exit codes, the same for every subcommand (docs/cli.md, "Exit codes"): the run protocol's.
using gate::protocol::exit_faster;
using gate::protocol::exit_inconclusive;
using gate::protocol::exit_not_measured;
using gate::protocol::exit_ok;
using gate::protocol::exit_other_schema;
using gate::protocol::exit_regression;
using gate::protocol::exit_setup;
using gate::protocol::exit_usage;

// A refusal to act (CI, no candidates, a GPU without baselines): exit_setup, "refused: <why>".
struct Refusal : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A program the command ran to prepare a run failed (git, a configure, a build): exit_setup, its message naming
// the step and the log that holds the program's output.
struct StepFailure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// How to run a project's GPU suites: its build folder and what of it to run.
struct SuiteRun {
  std::filesystem::path build = "build";
  bool no_build = false;                // run what is built, without cmake --build first
  std::string filter;                   // GoogleTest-style
  std::filesystem::path resource_spec;  // ctest --resource-spec-file: one test per GPU, spread over GPUs
  int parallel = 0;                     // ctest --parallel; 0: one at a time, or the GPUs of the resource spec
  std::vector<std::string> ctest_args;  // more ctest options, passed as they are
  // A gate split over runners (shard_run.hpp): "I/N" runs part I of N; empty for all of it.
  std::string shard;
  std::filesystem::path shard_durations;  // a previous run's summary.json, for the costs the split balances
  // Not an option: compare's scratch baselines, which its rounds gate against instead of each suite's own.
  std::filesystem::path baseline_dir;
  // The gate's --confirm-processes: fresh processes that measure a test whose duration came out slower again before
  // that becomes its verdict (duration_confirmation.hpp). 0: none, as record and compare run.
  int confirm_processes = 0;
  // Not an option: compare's rounds, whose suite processes measure only; the command judges the pooled rounds once.
  bool measure_only = false;
  // Not an option: measuring entries ctest leaves out (a part of a sharded gate: programs with nothing to do in it).
  std::vector<std::string> idle_measuring;
};

// What a change did to its baselines, against the base branch's (base_baselines.hpp, baseline_changes.hpp).
struct BaseOptions {
  std::string base_ref;          // empty: BANKGATE_BASE_REF, else the merge base with origin/main, else none
  bool accept_loosened = false;  // a reviewer accepted the loosened tolerances: they pass, still named
};

struct RecordOptions {
  SuiteRun run;
  std::filesystem::path baselines;
  // Processes to measure in, at most (process_spread.hpp): the second measures every test again, each later one only
  // the tests whose speed differed between processes; the candidates are their merge. 1: one process, no merge.
  int processes = 1;
  std::string history;             // --history (history_append.hpp)
  std::string command = "record";  // as the history names the run: record, or refresh
};
// What a recording measured: where its candidates are, and the build they came from.
struct RecordResult {
  std::filesystem::path build;       // absolute
  std::filesystem::path candidates;  // the run's candidates folder, holding at least one file
  // The selected tests and those that left no measurement: record and refresh name them last and exit 2.
  gate::MeasuredCount measured;
};
// Builds (unless told not to), runs the GPU suites and keeps their measurements as candidates, then shows them
// against the baselines on `out`, with the command that promotes them. Progress lines and the build's and ctest's
// output go to the console (console.hpp). Throws where nothing was measured.
RecordResult record(const RecordOptions& options, std::ostream& out);

struct PromoteOptions {
  std::filesystem::path candidates;            // empty: the last record's (<build>/bankgate/record/candidates)
  std::vector<std::filesystem::path> runners;  // recordings of other runners of the same GPU model, merged in
  std::filesystem::path build = "build";
  std::filesystem::path baselines;  // empty: each suite's own folder, as its candidates say
  std::string gpu, filter;
  bool dry_run = false, new_gpu = false, force = false;
  std::string invocation = "bankgate promote";
};
// What a promotion wrote, or in a dry run would have been shown.
struct PromoteResult {
  std::vector<gate::BaselineTransaction::Change> written;  // each baseline file created or replaced; none in a dry run
  std::vector<std::string>
      wrong_output;  // Suite.test of each candidate left out: its output differed from the CPU reference
};
// Writes the candidates into their baselines, one locked transaction per baselines folder; the table, the tests
// left out and each file written are said on `out`. Throws Refusal where it must not write (CI, no candidates,
// a GPU without baselines).
PromoteResult promote(const PromoteOptions& options, std::ostream& out);

struct ReviewOptions {
  std::filesystem::path candidates;
  std::filesystem::path build = "build";
  std::filesystem::path baselines;
  std::string gpu;
  bool changes_only = false;
  std::filesystem::path json;
};
// The candidates against their baselines, shown on `out` (and written as JSON to `json` where given): exit_regression
// where a candidate left its baseline's tolerance or its output was wrong.
int review(const ReviewOptions& options, std::ostream& out);

struct CompareOptions {
  // Two configured build folders, whose GPU suites are run here in alternating rounds; or two candidate
  // folders measured earlier (one subfolder per round). Rounds are pooled per side.
  std::filesystem::path base, head;
  int rounds = 5;  // per side: enough for the round-to-round noise to decide a 1% change on a quiet runner
  // --extra-time (builds only): how long tests still INCONCLUSIVE after the rounds may get more rounds, as
  // duration_seconds reads it; empty: as long as the rounds took.
  std::string extra_time;
  std::string filter;
  bool fail_on_speedup = false;
  std::filesystem::path json;
  std::filesystem::path html;      // the HTML report (builds: <head>/bankgate/compare/report.html by default)
  std::filesystem::path markdown;  // a file to append the markdown summary to (e.g. $GITHUB_STEP_SUMMARY)
  std::filesystem::path sources;   // the project's source folder, for source text in the report
  std::string source_url;          // the report's source link template (default: the setting)
  std::string sides;               // what base and head are, for the reports' headings; empty: "head against base"
  std::string history;             // --history (history_append.hpp): builds only, each side a run
};
int compare(const CompareOptions& options);
// Base and head are candidate folders. `summary_file`: where the markdown summary is also written, anew (compare
// of two builds: <head>/bankgate/compare/summary.md). `extra`: what compare's extra time did, for the verdicts.
int compare_candidates(const CompareOptions& options, const std::filesystem::path& summary_file = {},
                       const std::optional<gate::ExtraRounds>& extra = std::nullopt);

struct SummaryOptions {
  std::filesystem::path gtest_results, candidates, baselines, markdown, json, junit_out;
  BaseOptions base;
  std::filesystem::path build;    // for the refresh command the results name
  std::filesystem::path html;     // the self-contained HTML report, when given
  std::filesystem::path sources;  // the project's source folder, for the report's source text (default: from --build)
  std::string source_url;         // the report's source link template (default: the setting)
  std::filesystem::path reports;  // a folder for junit.xml, summary.json, summary.md and report.html, as a gate writes
  // The report folders of a split gate's parts, merged into one verdict (shard_merge.hpp) in place of --gtest-results and
  // the other files of one run.
  std::filesystem::path shards;
  std::optional<gate::ShardRecord> shard;  // set by the gate: the part of a split gate this run was
  // Called with the verdicts before any report is written (the gate appends to the history there and draws the
  // trend page of each test it failed); returns those pages' addresses relative to the reports, by test, for the
  // HTML report and the markdown summary to link. None: no pages.
  std::function<std::map<std::string, std::string>(const gate::GateSummary&)> before_reports;
};
int summary(const SummaryOptions& options);

// Baselines change after a person reviewed the table, never in CI: a Refusal where CI is set, unless forced
// (a dry run writes nothing and is always allowed).
void refuse_in_ci(bool force, bool dry_run);

// One GPU suite as one process, with per-test results for ctest (suite_process.cpp).
struct RunSuiteOptions {
  std::filesystem::path binary;   // the suite program
  std::filesystem::path results;  // where each test's result file goes (protocol::gtest_results of the build)
  // The suite's tests split over `shards` measuring runs, of which this is number `shard`; as many are used as
  // there are GPUs (BANKGATE_GPUS), the rest have nothing to do.
  int shards = 1;
  int shard = 0;
  std::filesystem::path driver_stub;  // a folder holding the toolkit's stub driver as libcuda.so.1 (driver_stub.hpp)
  // The measuring test's ctest TIMEOUT (bankgate_add_gpu_suite's), in seconds; 0: none. run-suite ends its suite
  // process a little before ctest would end it, so that it can still write each unfinished test's record.
  int timeout = 0;
  // Seconds one test may run before its suite process is taken to hang, killed and the test charged with it
  // (above the device lock's default wait of 240 s, which ends first and names the holder).
  int test_timeout = 300;
};
int run_suite(const RunSuiteOptions& options);
struct VerdictOptions {
  std::filesystem::path results;
  std::string test;  // Suite.test
  // The suite's own candidates and baselines folders (bankgate_add_gpu_suite's), where the run's manifest names none.
  std::filesystem::path candidates, baselines;
};
struct DiscoverOptions {
  std::filesystem::path binary, results, out;
  std::filesystem::path candidates, baselines;  // passed on to each test's verdict
  std::string fixture;                          // the ctest fixture of the suite's measuring test
  std::vector<std::string> labels;              // for every per-test entry
  std::filesystem::path driver_stub;            // as RunSuiteOptions::driver_stub
  std::vector<std::filesystem::path> sources;   // the suite's sources, whose kernel names are checked first
};
int discover(const DiscoverOptions& options);

// The HTML report's source link template: `option` where given, else BANKGATE_SOURCE_URL, else "" (no links).
// Throws the setting's SettingsError for an unusable template (the option is checked as it is parsed).
std::string source_url_template(const std::string& option);

// The source folder `build` was configured from (its CMakeCache.txt); empty where unknown.
std::filesystem::path configured_source_dir(const std::filesystem::path& build);

// Writes `text` to `path` through a rename ("-": standard output); `data` as JSON text, any byte that is not UTF-8
// replaced (names and messages come from outside).
void write_text(const std::filesystem::path& path, const std::string& text);
void write_json(const std::filesystem::path& path, const nlohmann::json& data);

// The absolute path of this program as it was started, for the commands results name.
std::string this_command();

// Where data asked for as "-" (--json -) is written: standard output. While a command writes data there, its
// human text goes to standard error instead (main()), so that standard output holds the data alone.
std::streambuf*& standard_output();

}  // namespace bankgate::cli
