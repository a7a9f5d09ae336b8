#pragma once
// What gate, record, refresh and compare share: a project's build folder checked, built and its GPU suites run
// through ctest, their measurements going to a candidates folder.

#include <filesystem>
#include <optional>
#include <string>

#include <bankgate/gate/reports/gate_summary.hpp>

#include "commands.hpp"

namespace bankgate::cli {

// The build folder, made absolute; refused where it holds no tests, with the advice that fits where bankgate runs.
std::filesystem::path absolute_build(const std::filesystem::path& build);

// Runs the project's GPU tests ("gpu" label) with their measurements going to `candidates` and ctest's JUnit
// report to `junit`; its output to `log` when given. Returns ctest's status: verdicts come from the files.
int run_ctest(const SuiteRun& run, const std::filesystem::path& build, const std::filesystem::path& candidates,
              const std::filesystem::path& junit, bool strict, const std::string& log = "", bool attribute = false);

// Clears this run's folder `results`, builds (unless asked not to) and runs the GPU tests, measurements going to
// the run's candidates and ctest's report to its ctest-junit.xml (its output to ctest.log with --quiet). With
// --shard, only this runner's part of them: returned, and where it is empty nothing runs. `attribute`: with
// per-line figures. `strict`: a test without a GPU fails instead of skipping.
std::optional<gate::ShardRecord> run_suites(const SuiteRun& run, const std::filesystem::path& build,
                                            const std::filesystem::path& results, bool strict, bool attribute,
                                            const std::filesystem::path& baselines);

// Copies the run's plans and test result records into its folder `results` (protocol::run_gtest_results), so that
// the folder alone explains the run: a merge of a split gate reads nothing else, and record keeps its first
// process's records there while later processes write theirs. Returns where a summary reads them: the copy, or the
// originals where it could not be made (said on the console).
std::filesystem::path keep_result_records(const std::filesystem::path& build, const std::filesystem::path& results);

// Whether `dir` holds a candidate file: whether anything was measured.
bool has_candidates(const std::filesystem::path& dir);

}  // namespace bankgate::cli
