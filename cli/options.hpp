#pragma once
// What the subcommands' command lines share: checks refused in the user's words, the groups of options that mean
// the same wherever they appear (a suite run, a split gate, candidates, reports, the base branch) and the exit
// codes of a --help footer. Each subcommand's own options are in commands/<name>.cpp; one wording per option
// keeps the help of every subcommand that takes it alike.

#include <filesystem>
#include <limits>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "commands.hpp"
#include "source_checkout.hpp"

namespace bankgate::cli {

// A whole number from `minimum` to `maximum`, refused in those words. (CLI::PositiveNumber and
// NonNegativeNumber take fractions and, refusing, print the range of a double: 309 digits.) CLI11 puts the
// option's name before the message: "--rounds: must be a whole number of at least 1, got '0'".
CLI::Validator whole_number(int minimum, int maximum = std::numeric_limits<int>::max());

// An empty --build is no folder: left to run, it became the current folder, or a raw filesystem error.
CLI::Validator names_a_folder();

// --build, --filter, --no-build, --resource-spec, --parallel and --ctest-arg: how to run a project's GPU suites.
void add_suite_run_options(CLI::App& command, SuiteRun& run);
// --shard and --shard-durations: a gate split over runners (gate and record; refresh measures and promotes on
// one machine).
void add_shard_options(CLI::App& command, SuiteRun& run);
// --processes N (record and refresh): how many processes to measure in, at most (process_spread.hpp).
inline constexpr int max_processes = 10;
void add_processes_option(CLI::App& command, int& processes);
// Where recorded candidates are and which baselines they are shown against or promoted into.
void add_candidate_options(CLI::App& command, std::filesystem::path& build, std::filesystem::path& candidates,
                           std::filesystem::path& baselines, std::string& gpu);
// --source-url, checked before anything runs: "--source-url: 'javascript:x' is not an http(s) address ...".
void add_source_url_option(CLI::App& command, std::string& source_url);
// --rounds and --extra-time of comparisons of two builds (compare's; bisect's of durations), their help headed by
// `which` where it is not empty.
void add_round_options(CLI::App& command, CompareOptions& compare, const std::string& which);
// What compare and compare-commits share: the rounds, the filter and the reports. `html_default` says where the
// HTML report goes when --html is not given.
void add_comparison_options(CLI::App& command, CompareOptions& compare, const std::string& html_default);
// --source, --work, --build and --cmake-arg: where compare-commits and bisect find the project and build its
// commits (source_checkout.hpp). `which` names the commits built ("both commits"), `run` what --work holds of
// this run ("and this run's logs and results in run/").
void add_commit_build_options(CLI::App& command, CommitBuilds& builds, const std::string& which,
                              const std::string& run);
// --history PATH|URL|off: where gate, record, refresh and compare append their results (history_append.hpp).
void add_history_option(CLI::App& command, std::string& history);
// --quiet and --color, on the top level and on each subcommand that prints progress or verdicts, each bound to
// one field: `bankgate --quiet gate` and `bankgate gate --quiet` are the same.
void add_console_options(CLI::App& command, bool& quiet, std::string& colour);
// --base-ref and --accept-loosened: what a change did to its baselines is judged against the base branch's
// (docs/baselines.md#changes-to-baselines).
void add_base_options(CLI::App& command, BaseOptions& base);

// The --driver-stub option's help (run-suite and discover).
inline constexpr char driver_stub_help[] =
    "a folder holding the CUDA toolkit's stub driver as libcuda.so.1, which the suite is run with where the real "
    "driver "
    "(libcuda.so.1) cannot be loaded, so that a suite linking it starts, lists its tests and skips them";

// An exit code and what it means, for a --help footer.
struct ExitCode {
  int code;
  std::string meaning;  // empty: in the top level's words (all_exit_codes)
};
// The codes most subcommands can return, in the top level's words: 1 where it judges, 2 where it reads input
// that may be unreadable or missing (any other error that escapes it is 2 too: main()), 3 where it builds or
// refuses.
namespace exit_code {
inline const ExitCode regression{exit_regression, ""}, unreadable{exit_not_measured, ""}, refused{exit_setup, ""};
// compare and compare-commits: in their own words, which need not name compare.
inline const ExitCode inconclusive{exit_inconclusive,
                                   "no regression, but a test's rounds too noisy to decide (INCONCLUSIVE)"};
}  // namespace exit_code

// The top level's footer: every exit code and what it means.
std::string all_exit_codes();
// A subcommand's footer: the codes it can return besides 0 and 64 (which every one can; 64 given where it means
// more there).
std::string exit_codes_of(std::vector<ExitCode> codes);

}  // namespace bankgate::cli
