#pragma once
// The run protocol: every name bankgate's processes pass to one another, each named once, here.
//
// A run crosses processes, and what one leaves the next reads:
//
//   bankgate gate|record|refresh|compare       (cli/suite_run.cpp)
//     -> ctest, running what bankgate_add_gpu_suite() registered (cmake/bankgateSuite.cmake)
//        -> bankgate run-suite, a suite's measuring test    (cli/suite_process.cpp)
//           -> the suite process, GoogleTest               (gtest/src/main.cpp, gate_fixture.cpp, result_files.cpp)
//        -> bankgate verdict, one ctest entry per test     (cli/suite_process.cpp)
//   -> bankgate summary, from the files they left          (gate/src/reports/gate_summary.cpp)
//
// Downwards each process hands the next one run manifest (run_manifest.hpp), a file named by one variable in
// the child's environment; users steer the suites with variables of their own (env::). Upwards the processes
// leave files in a layout under <build>/bankgate/ (the path functions below), GoogleTest properties in those
// files (property::) and exit codes. Environment variables are read only through the settings module
// (settings.hpp), which says what each value may be; here is only who sets each and who reads it.
//
// Copies that cannot include this header are checked against it or ask for it:
//   cmake/bankgateSuite.cmake writes the results folders and the measuring test's name (its
//     _bankgate_run_protocol() macro); tests/unit/suite_protocol_test.sh fails when the two disagree.
//   The ci/ and bench/ scripts ask the command (`bankgate protocol`, ci/lib.sh's bankgate_result_path).
//
// Plain constants and functions (no CUPTI, no GoogleTest), so every layer may include it.

#include <array>
#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <bankgate/gate/store/baseline_transaction.hpp>

namespace bankgate::gate::protocol {

// ---- Environment variables ----------------------------------------------------------------------------------
namespace env {

// Set by the command for the ctest run it starts (cli/suite_run.cpp), and by run-suite for each suite process it
// starts (cli/suite_process.cpp), in the child's environment only: the run manifest (run_manifest.hpp), which
// carries everything else one process tells the next. Read through settings.hpp.
inline constexpr char run_manifest[] = "BANKGATE_RUN_MANIFEST";

// Set by users for the suites; the run manifest overrides them where it says otherwise (the command's runs set
// their own). Read by the fixture's settings.
inline constexpr char attribute[] = "BANKGATE_ATTRIBUTE";          // per-line figures too: record and refresh say yes
inline constexpr char require_gpu[] = "BANKGATE_REQUIRE_GPU";      // a test that cannot measure fails: gate says yes
inline constexpr char candidate_dir[] = "BANKGATE_CANDIDATE_DIR";  // where the measurements go
inline constexpr char baseline_dir[] = "BANKGATE_BASELINE_DIR";    // the baselines a suite gates against
// The CUDA device to measure on; run-suite's manifest says 0 after narrowing CUDA_VISIBLE_DEVICES to the GPU
// ctest allotted, and leaves a user's choice alone.
inline constexpr char device[] = "BANKGATE_DEVICE";
// Read by run-suite: the GPUs a plain ctest run with a resource spec spreads a suite's shards over (the
// command's manifest says it from --resource-spec).
inline constexpr char gpus[] = "BANKGATE_GPUS";

// Set by users (or the ci/ and bench/ scripts) for the suites, or for the command, which passes its own on in the
// run manifest (where the manifest says them, it decides); read by the fixture's settings and verdict.
inline constexpr char launch_only[] = "BANKGATE_LAUNCH_ONLY";          // kernels run for an external profiler only
inline constexpr char fail_on_speedup[] = "BANKGATE_FAIL_ON_SPEEDUP";  // a faster kernel fails too
inline constexpr char lock_timeout[] = "BANKGATE_LOCK_TIMEOUT";        // seconds a test waits for its GPU

// Set by users for the commands that write the HTML report (gate, summary, compare), where --source-url is not
// given: the template of the report's links to source lines.
inline constexpr char source_url[] = "BANKGATE_SOURCE_URL";

// Set by users for the commands that append to the history (gate, record, refresh, compare) where --history is
// not given: an SQLite file, a postgresql:// URL, or "off" (docs/history.md).
inline constexpr char history[] = "BANKGATE_HISTORY";

// Set by users or tools/refresh-baselines.sh for the command: the provenance of what it measures and promotes
// (else the command asks git, and the manifest carries the answer).
inline constexpr char git_commit[] = "BANKGATE_GIT_COMMIT";
inline constexpr char git_dirty[] = "BANKGATE_GIT_DIRTY";

// Not bankgate's own, yet part of the protocol.
// Set by CI services: promote and refresh refuse to change baselines there, and so does ci/lib.sh
// (bankgate_is_ci), by the same rule (tests/unit/ci_lib_test.sh checks that they agree).
inline constexpr char ci[] = "CI";
// Set by users who want no colour on any console (no-color.org); read by the command (settings' colour_refused).
inline constexpr char no_color[] = "NO_COLOR";
// Set by ctest where it allocates resources (--resource-spec-file); read by run-suite and the suite process.
inline constexpr char ctest_resource_group_count[] = "CTEST_RESOURCE_GROUP_COUNT";
inline constexpr char ctest_resource_group_0_gpus[] = "CTEST_RESOURCE_GROUP_0_GPUS";  // the GPU a measuring test got
// Narrowed by run-suite to the allotted GPU for the suite process; read by CUDA.
inline constexpr char cuda_visible_devices[] = "CUDA_VISIBLE_DEVICES";
// Set to 1 by the suite process (gtest/src/main.cpp) unless the user set it; read by the CUDA driver.
inline constexpr char cuda_device_max_connections[] = "CUDA_DEVICE_MAX_CONNECTIONS";
// Where the GPU lock files are (else /tmp): every process of a run must see the same one.
inline constexpr char tmpdir[] = "TMPDIR";

// The branch or commit whose baselines a change's are compared with (check-baselines, summary, gate), where
// --base-ref is not given (docs/baselines.md#changes-to-baselines).
inline constexpr char base_ref[] = "BANKGATE_BASE_REF";

// Tests only: a kill or failure at a chosen step of a promotion (gate/src/store/baseline_transaction.cpp reads it
// itself; it is no setting).
inline constexpr const char* fault_inject = fault_inject_variable;  // store/baseline_transaction.hpp

}  // namespace env

struct Name {
  std::string_view key;   // how `bankgate protocol` names it
  std::string_view name;  // the variable itself
};

// Every variable above, for `bankgate protocol`.
inline constexpr std::array environment{
    Name{"run_manifest", env::run_manifest},
    Name{"attribute", env::attribute},
    Name{"require_gpu", env::require_gpu},
    Name{"candidate_dir", env::candidate_dir},
    Name{"baseline_dir", env::baseline_dir},
    Name{"device", env::device},
    Name{"gpus", env::gpus},
    Name{"launch_only", env::launch_only},
    Name{"fail_on_speedup", env::fail_on_speedup},
    Name{"lock_timeout", env::lock_timeout},
    Name{"source_url", env::source_url},
    Name{"history", env::history},
    Name{"git_commit", env::git_commit},
    Name{"git_dirty", env::git_dirty},
    Name{"ci", env::ci},
    Name{"no_color", env::no_color},
    Name{"ctest_resource_group_count", env::ctest_resource_group_count},
    Name{"ctest_resource_group_0_gpus", env::ctest_resource_group_0_gpus},
    Name{"cuda_visible_devices", env::cuda_visible_devices},
    Name{"cuda_device_max_connections", env::cuda_device_max_connections},
    Name{"tmpdir", env::tmpdir},
    Name{"base_ref", env::base_ref},
    Name{"fault_inject", env::fault_inject},
};

// ---- The result layout under a build folder -------------------------------------------------------------------
using Path = std::filesystem::path;

// <build>/bankgate: all that runs leave in a build folder ("${CMAKE_BINARY_DIR}/bankgate" in bankgateSuite.cmake).
inline Path results_root(const Path& build) { return build / "bankgate"; }

// A result record per test (test_result.hpp): written by the suite processes (result_files.cpp) and by run-suite
// for a test that crashed; read by verdict and summary. bankgate_add_gpu_suite() gives it to run-suite and
// verdict as --results; the command clears it before each of its runs.
inline Path gtest_results(const Path& build) { return results_root(build) / "gtest-results"; }

// Where the suites' measurements go outside the command's runs (plain ctest, a suite run by hand): the
// candidate_dir bankgate_add_gpu_suite() generates into suite_config(). The command's runs name their own
// (BANKGATE_CANDIDATE_DIR).
inline Path suite_candidates(const Path& build) { return results_root(build) / "candidates"; }

// A CTest file naming the folders of the build's GPU suites (bankgate_add_gpu_suite() writes it as the project is
// configured): the command runs ctest there, which then reads those folders' tests alone.
inline Path measuring_tests(const Path& build) { return results_root(build) / "measuring-tests"; }

// The build's output where `--quiet` keeps it off the console (cli/suite_run.cpp), overwritten by each build.
inline Path build_log(const Path& build) { return results_root(build) / "build.log"; }

// The folders of the command's runs, each cleared as its run starts.
inline Path gate_run(const Path& build) { return results_root(build) / "gate"; }
inline Path record_run(const Path& build) { return results_root(build) / "record"; }  // promote's default source
inline Path compare_run(const Path& head_build) { return results_root(head_build) / "compare"; }

// In the folder of a gate or record run.
inline Path run_candidates(const Path& run) { return run / "candidates"; }    // BANKGATE_CANDIDATE_DIR of the run
inline Path ctest_junit(const Path& run) { return run / "ctest-junit.xml"; }  // ctest --output-junit; read by nothing
inline Path ctest_log(const Path& run) { return run / "ctest.log"; }          // ctest's output, with --quiet
// A recording in several processes (record and refresh --processes): each process's own candidates, ctest report
// and log in its folder (run_candidates, ctest_junit, ctest_log of it), numbered from 1; the run's candidates are
// then their merge (process_spread.hpp).
inline Path record_processes(const Path& run) { return run / "processes"; }
inline Path record_process(const Path& run, int n) { return record_processes(run) / ("process-" + std::to_string(n)); }
// A gate's or record's copy of the run's plans and result records (gtest_results), so that its folder alone holds
// every file its summary was made from: a merge of a split gate's parts reads each part's folder (shard_merge.hpp),
// and record's later processes (record_process) leave its first process's records as they were.
inline Path run_gtest_results(const Path& run) { return run / "gtest-results"; }
// The reports of a gate (ci/gate.sh and the CI templates keep them), and compare's.
inline Path junit_report(const Path& run) { return run / "junit.xml"; }
inline Path summary_json(const Path& run) { return run / "summary.json"; }
inline Path summary_markdown(const Path& run) { return run / "summary.md"; }
inline Path html_report(const Path& run) { return run / "report.html"; }
inline Path compare_result(const Path& compare) { return compare / "result.json"; }
inline Path compare_logs(const Path& compare) { return compare / "logs"; }
// What compare measured of one side ("base" or "head"), a folder per round, pooled for its verdict.
inline Path compare_side(const Path& compare, const std::string& side) { return compare / "candidates" / side; }

// Runs the history store could not take (cli/history_append.hpp), one file each, for `bankgate history import`:
// never cleared by a run, and kept by the CI templates.
inline Path history_pending(const Path& build) { return results_root(build) / "history-pending"; }
// In a gate's folder: the trend page of each test it failed, from the history (cli/trend_pages.hpp).
inline Path run_trend_pages(const Path& run) { return run / "trend"; }

// The CTest resource spec ci/gate.sh writes (bankgate-resource-spec) beside the results; the bench scripts
// count its GPUs.
inline Path resource_spec(const Path& build) { return results_root(build) / "resources.json"; }

// In a gtest-results folder, between run-suite and the suite processes it starts.
// The claims of one command run's shards of a suite (gate/protocol/test_claims.hpp): named by run-suite, made as the
// suite processes claim tests.
inline Path suite_claims(const Path& results, const std::string& suite_program, const std::string& run_id) {
  return results / ".claims" / (suite_program + "." + run_id);
}
// The run manifest the command writes for one ctest run over a build, beside the reports it clears first.
inline Path command_manifest(const Path& build) { return gtest_results(build) / ".run-manifest.json"; }
// The manifest run-suite writes for its suite processes, per suite and shard.
inline Path process_manifest(const Path& results, const std::string& suite_program, int shard) {
  return results / ("." + suite_program + "." + std::to_string(shard) + ".manifest.json");
}
// The test a suite process is running (its manifest's running_file), per suite and shard: read by run-suite when
// the process dies.
inline Path running_file(const Path& results, const std::string& suite_program, int shard) {
  return results / ("." + suite_program + "." + std::to_string(shard) + ".running");
}
// The suite process's own choice where run-suite names none.
inline Path default_running_file(const Path& results) { return results / ".running"; }
// What a suite process writes into its running file, followed by its exit status, once every test has its record
// and its own output is closed: run-suite stops waiting for it there, and the process's exit, in which the driver
// releases its context (about 0.1 s on an H200), overlaps what the command does next. No test name begins with ':'.
inline constexpr std::string_view finished_marker = ":finished";

// The layout by the names `bankgate protocol` gives it, under `build` (relative to it where `build` is empty).
inline std::vector<std::pair<std::string, Path>> layout(const Path& build) {
  const Path gate = gate_run(build), record = record_run(build), compare = compare_run(build);
  return {{"results_root", results_root(build)},
          {"gtest_results", gtest_results(build)},
          {"suite_candidates", suite_candidates(build)},
          {"measuring_tests", measuring_tests(build)},
          {"resource_spec", resource_spec(build)},
          {"build_log", build_log(build)},
          {"gate", gate},
          {"gate_candidates", run_candidates(gate)},
          {"gate_ctest_junit", ctest_junit(gate)},
          {"gate_ctest_log", ctest_log(gate)},
          {"gate_gtest_results", run_gtest_results(gate)},
          {"gate_junit", junit_report(gate)},
          {"gate_summary_json", summary_json(gate)},
          {"gate_summary_markdown", summary_markdown(gate)},
          {"gate_html", html_report(gate)},
          {"gate_trend_pages", run_trend_pages(gate)},
          {"history_pending", history_pending(build)},
          {"record", record},
          {"record_candidates", run_candidates(record)},
          {"record_ctest_junit", ctest_junit(record)},
          {"record_ctest_log", ctest_log(record)},
          {"record_processes", record_processes(record)},
          {"compare", compare},
          {"compare_result", compare_result(compare)},
          {"compare_html", html_report(compare)},
          {"compare_logs", compare_logs(compare)},
          {"compare_base", compare_side(compare, "base")},
          {"compare_head", compare_side(compare, "head")}};
}

// ---- Tests' names ---------------------------------------------------------------------------------------------
// Each suite's measuring test is "bankgate.measure.<suite>[.<shard>]": bankgate_add_gpu_suite() names it,
// summary tells it from the gated tests in ctest's report, verdict names it when a test has no result.
inline constexpr char measure_test_prefix[] = "bankgate.measure.";

// ---- GoogleTest properties ------------------------------------------------------------------------------------
// Recorded by the fixture (gate_fixture.cpp, RecordProperty) into each test's result file; summary reads `device`
// and passes them all on (summary.json's "properties"), where the bench scripts read the costs. Each derived
// figure is recorded too, under its own name (shared_load_transactions_per_request, ...).
namespace property {
inline constexpr char device[] = "device";                          // "0 (0000:19:00.0)": the GPU the test measured on
inline constexpr char device_probe_ms[] = "device_probe_ms";        // the process's first CUDA call
inline constexpr char collector_setup_ms[] = "collector_setup_ms";  // CUPTI, once per process
inline constexpr char collector_setup_phases_ms[] = "collector_setup_phases_ms";  // "probe 0.1, context 70.2, ..."
inline constexpr char prepare_ms[] = "prepare_ms";            // the test's own preparation, SetUp to gate()
inline constexpr char output_check_ms[] = "output_check_ms";  // one launch, compared with the CPU reference
inline constexpr char counter_host_ms[] = "counter_host_ms";
inline constexpr char timing_host_ms[] = "timing_host_ms";
inline constexpr char counter_phases_ms[] = "counter_phases_ms";  // "flush 0, switch 0, ...": counter_host_ms's parts
inline constexpr char timing_phases_ms[] = "timing_phases_ms";    // "calls 1285, launch 9.9, ...": timing_host_ms's
inline constexpr char attribution_host_ms[] = "attribution_host_ms";  // per-line figures, where collected
inline constexpr char gate_rules_ms[] = "gate_rules_ms";              // candidate, baseline comparison and report
inline constexpr char median_ns[] = "median_ns";
inline constexpr char timing_samples[] = "timing_samples";
inline constexpr char launches_per_sample[] = "launches_per_sample";
inline constexpr char warmup_launches[] = "warmup_launches";
inline constexpr char dropped_samples[] = "dropped_samples";
inline constexpr char sm_clock_mhz[] = "sm_clock_mhz";
// Where a slower duration was measured again in fresh processes (duration_confirmation.hpp): how many processes
// measured the test, and how many of them found it slower.
inline constexpr char duration_processes[] = "duration_processes";
inline constexpr char duration_processes_slower[] = "duration_processes_slower";
}  // namespace property

// Every property above, for `bankgate protocol`.
inline constexpr std::array properties{
    property::device,
    property::device_probe_ms,
    property::collector_setup_ms,
    property::collector_setup_phases_ms,
    property::prepare_ms,
    property::output_check_ms,
    property::counter_host_ms,
    property::timing_host_ms,
    property::counter_phases_ms,
    property::timing_phases_ms,
    property::attribution_host_ms,
    property::gate_rules_ms,
    property::median_ns,
    property::timing_samples,
    property::launches_per_sample,
    property::warmup_launches,
    property::dropped_samples,
    property::sm_clock_mhz,
    property::duration_processes,
    property::duration_processes_slower,
};

// ---- Exit codes -----------------------------------------------------------------------------------------------
// Of every subcommand (docs/cli.md, "Exit codes"); ctest reads verdict's, scripts the others'. ci/lib.sh's
// bankgate_die and bankgate_usage exit with exit_setup and exit_usage.
inline constexpr int exit_ok = 0;
inline constexpr int exit_regression = 1;    // a regression, a wrong output, or a table/check that differs
inline constexpr int exit_not_measured = 2;  // nothing regressed but something could not be measured or read
inline constexpr int exit_setup = 3;         // the build or set-up failed, or the command refused to act
inline constexpr int exit_other_schema = 4;  // readme-table: baselines of another schema version
inline constexpr int exit_inconclusive = 5;  // compare: no regression found, but a test's rounds were too noisy to tell
inline constexpr int exit_faster = 6;        // bisect: no counter moved and the bad commit is only faster: a speed-up
inline constexpr int exit_usage = 64;        // the command line itself is wrong
// A suite process that stopped after a test broke its CUDA context (result_files.cpp); run-suite charges that
// test (the running file names it) and continues the rest in a fresh process.
inline constexpr int exit_context_lost = 86;
// verdict: the test's record says it was skipped. ctest shows it Skipped by this code (SKIP_RETURN_CODE), never by
// matching text in the output, which a test's own failure message could imitate.
inline constexpr int exit_skipped = 77;

// Every exit code above, for `bankgate protocol`.
inline constexpr std::array exit_codes{
    std::pair<std::string_view, int>{"ok", exit_ok},
    std::pair<std::string_view, int>{"regression", exit_regression},
    std::pair<std::string_view, int>{"not_measured", exit_not_measured},
    std::pair<std::string_view, int>{"setup", exit_setup},
    std::pair<std::string_view, int>{"other_schema", exit_other_schema},
    std::pair<std::string_view, int>{"inconclusive", exit_inconclusive},
    std::pair<std::string_view, int>{"faster", exit_faster},
    std::pair<std::string_view, int>{"usage", exit_usage},
    std::pair<std::string_view, int>{"context_lost", exit_context_lost},
    std::pair<std::string_view, int>{"skipped", exit_skipped},
};

}  // namespace bankgate::gate::protocol
