// The parts of the command line that several subcommands share (options.hpp).

#include "options.hpp"

#include <bankgate/gate/protocol/run_protocol.hpp>
#include <bankgate/gate/rules/extra_rounds.hpp>
#include <bankgate/gate/rules/shard_plan.hpp>
#include <bankgate/gate/text/source_url.hpp>

#include <charconv>
#include <limits>
#include <string>
#include <system_error>
#include <vector>

namespace bankgate::cli {
namespace {

// What --help shows after INT, in CLI11's own words where it has them.
std::string help_text(int minimum, int maximum) {
  if (maximum != std::numeric_limits<int>::max())
    return "in [" + std::to_string(minimum) + " - " + std::to_string(maximum) + "]";
  if (minimum == 0) return "NONNEGATIVE";
  if (minimum == 1) return "POSITIVE";
  return "AT LEAST " + std::to_string(minimum);
}

// "<build>/bankgate/record/candidates", as the run protocol places it.
std::string record_candidates_help() {
  return gate::protocol::run_candidates(gate::protocol::record_run("<build>")).string();
}

// What --color takes, refused in words: "--color: must be auto, always or never, got 'x'".
CLI::Validator colour_choice() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        return text == "auto" || text == "always" || text == "never"
                   ? ""
                   : "must be auto, always or never, got '" + text + "'";
      },
      "auto|always|never");
}

const std::vector<ExitCode> every_exit_code{
    {exit_ok, "done"},
    {exit_regression, "regression (a counter changed, a kernel got slower, a wrong output)"},
    {exit_not_measured, "could not measure or read an input"},
    {exit_setup, "the build or set-up failed, or the command refused"},
    {exit_other_schema, "baselines of another schema version (readme-table)"},
    {exit_inconclusive, "compare: no regression, but a test's rounds too noisy to decide"},
    {exit_faster, "bisect: no regression, the bad commit is only faster than the good one (a speed-up)"},
    {exit_usage, "usage error"}};

// Without --build: "build", unless bankgate runs inside a build folder (its CMakeCache.txt here, no build/ in
// it), where "build/build" would name nothing and the folder itself is the build meant.
void default_build_here(CLI::App& command, const CLI::Option* option, std::filesystem::path& build) {
  command.parse_complete_callback([option, &build] {
    std::error_code ec;
    if (option->count() == 0 && !std::filesystem::exists("build", ec) && std::filesystem::exists("CMakeCache.txt", ec))
      build = ".";
  });
}

}  // namespace

// A whole number from `minimum` to `maximum`, refused in those words. (CLI::PositiveNumber and
// NonNegativeNumber take fractions and, refusing, print the range of a double: 309 digits.) CLI11 puts the
// option's name before the message: "--rounds: must be a whole number of at least 1, got '0'".
CLI::Validator whole_number(int minimum, int maximum) {
  const bool unbounded = maximum == std::numeric_limits<int>::max();
  const std::string wanted = unbounded
                                 ? "a whole number of at least " + std::to_string(minimum)
                                 : "a whole number from " + std::to_string(minimum) + " to " + std::to_string(maximum);
  return CLI::Validator(
      [=](std::string& text) -> std::string {
        long long value = 0;
        const char* const end = text.data() + text.size();
        const auto [stop, error] = std::from_chars(text.data(), end, value);
        const bool whole = error == std::errc() && stop == end;
        if (whole && value >= minimum && value <= maximum) return "";
        const bool too_large = (whole && value > maximum) || error == std::errc::result_out_of_range;
        return "must be " + wanted + ", got '" + text + "'" +
               (too_large && unbounded ? " (the largest allowed is " + std::to_string(maximum) + ")" : "");
      },
      help_text(minimum, maximum));
}

// An empty --build is no folder: left to run, it became the current folder, or a raw filesystem error.
CLI::Validator names_a_folder() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        return text.empty() ? "must name a folder, got an empty string (e.g. --build build)" : "";
      },
      "");
}

void add_suite_run_options(CLI::App& command, SuiteRun& run) {
  const CLI::Option* build =
      command
          .add_option("--build,-B", run.build,
                      "the project's configured build folder (the current folder where it is one)")
          ->capture_default_str()
          ->check(names_a_folder());
  default_build_here(command, build, run.build);
  command.add_option("--filter", run.filter,
                     "GoogleTest-style filter of the tests to run, e.g. 'Suite.*-Suite.slow'; '\\' takes the next "
                     "character as itself, e.g. 'X.a\\-b' selects the test X.a-b alone");
  command.add_flag("--no-build", run.no_build, "run what is built, without building first");
  command
      .add_option("--resource-spec", run.resource_spec,
                  "ctest resource spec listing the GPUs: one test per GPU at a time, spread over all of them")
      ->check(CLI::ExistingFile);
  command
      .add_option("--parallel,-j", run.parallel,
                  "measuring runs of suites at once (default with --resource-spec: one per GPU)")
      ->check(whole_number(0));
  command
      .add_option("--ctest-arg", run.ctest_args,
                  "an extra ctest argument (repeatable; one that selects tests is refused: --filter selects them)")
      ->allow_extra_args(false);
}

namespace {

// --shard I/N, refused in words: "--shard: must be I/N, the I-th of N parts counted from 1 (...), got '0/3'".
CLI::Validator shard_choice() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        std::string problem;
        return gate::parse_shard_spec(text, problem) ? "" : problem;
      },
      "I/N");
}

}  // namespace

// A gate split over runners: gate and record (refresh measures and promotes on one machine).
void add_shard_options(CLI::App& command, SuiteRun& run) {
  CLI::Option* shard = command
                           .add_option("--shard", run.shard,
                                       "run only part I of N of the GPU suites (counted from 1: 1/3, 2/3, 3/3), as one "
                                       "of N CI jobs: whole suites, "
                                       "balanced by recorded costs, the same split on every runner; a part with no "
                                       "suite exits 2. `bankgate summary "
                                       "--shards` merges the parts")
                           ->check(shard_choice());
  command
      .add_option("--shard-durations", run.shard_durations,
                  "with --shard: balance the parts by the costs an earlier gate's summary.json recorded (give every "
                  "runner the same file; default: the committed baselines' timings)")
      ->check(CLI::ExistingFile)
      ->needs(shard);
}

void add_processes_option(CLI::App& command, int& processes) {
  command
      .add_option(
          "--processes", processes,
          "measure in up to N processes, to know which kernels run at another speed in each: the second "
          "measures every test again (twice the time: the price of knowing), later ones only the tests whose "
          "speeds differed; such a test's timing tolerance widens to hold every speed. 1: one process, no spread known")
      ->capture_default_str()
      ->check(whole_number(1, max_processes));
}

// Where recorded candidates are and which baselines they are shown against or promoted into.
void add_candidate_options(CLI::App& command, std::filesystem::path& build, std::filesystem::path& candidates,
                           std::filesystem::path& baselines, std::string& gpu) {
  const CLI::Option* build_option =
      command
          .add_option("--build,-B", build,
                      "build folder whose recorded candidates to use (the current folder where it is one)")
          ->capture_default_str()
          ->check(names_a_folder());
  default_build_here(command, build_option, build);
  command.add_option("--candidates", candidates, "candidates folder (default: " + record_candidates_help() + ")");
  command.add_option("--baselines", baselines, "baselines folder (default: each suite's own)");
  command.add_option("--gpu", gpu, "ARCH/MODEL, when candidates of several GPUs are present");
}

// --source-url, checked before anything runs: "--source-url: 'javascript:x' is not an http(s) address ...".
void add_source_url_option(CLI::App& command, std::string& source_url) {
  command
      .add_option(
          "--source-url", source_url,
          "link each source line of the HTML report to this address, e.g. "
          "https://github.com/ORG/REPO/blob/{commit}/{path}#L{line} ({commit}: the measured commit; http(s) only; "
          "default: $" +
              std::string(gate::protocol::env::source_url) + ")")
      ->type_name("TEMPLATE")
      ->check(CLI::Validator([](std::string& text) { return gate::source_url_problem(text); }, ""));
}

// What compare and compare-commits share: the rounds, the filter and the reports. `html_default` says where the
// HTML report goes when --html is not given.
void add_round_options(CLI::App& command, CompareOptions& compare, const std::string& which) {
  // compare's own are for builds only (two candidate folders were measured already); bisect's are named.
  const std::string prefix = which.empty() ? "" : which + ": ";
  command
      .add_option("--rounds", compare.rounds,
                  prefix + "rounds per side, after a warm-up round of base" + (which.empty() ? " (builds only)" : "") +
                      "; two or more judge durations by their noise")
      ->capture_default_str()
      ->check(whole_number(1));
  command
      .add_option("--extra-time", compare.extra_time,
                  (which.empty() ? "builds only: " : prefix) +
                      "after the rounds, tests still INCONCLUSIVE get more rounds, only they, while this much time "
                      "lasts: seconds, or a number with s, m or h (90, 90s, 10m); 0: none (default: as long as the "
                      "rounds took)")
      ->type_name("DURATION")
      ->check(CLI::Validator(
          [](std::string& text) -> std::string {
            if (gate::duration_seconds(text)) return "";
            return "must be a duration: seconds, or a number followed by s, m or h (e.g. 90, 90s, 10m, 0 for no "
                   "extra rounds), got '" +
                   text + "'";
          },
          ""));
}

void add_comparison_options(CLI::App& command, CompareOptions& compare, const std::string& html_default) {
  add_round_options(command, compare, "");
  command.add_option("--filter", compare.filter, "GoogleTest-style filter of the tests to compare");
  command.add_flag("--fail-on-speedup", compare.fail_on_speedup, "a faster head fails too");
  command.add_option("--json", compare.json, "also write the result as JSON here ('-': standard output)");
  command.add_option("--html", compare.html, "also write the HTML report here (" + html_default + ")");
  command.add_option("--markdown", compare.markdown,
                     "also append the markdown summary to this file (e.g. $GITHUB_STEP_SUMMARY)");
  add_source_url_option(command, compare.source_url);
  add_history_option(command, compare.history);
}

void add_commit_build_options(CLI::App& command, CommitBuilds& builds, const std::string& which,
                              const std::string& run) {
  command
      .add_option("--source", builds.source,
                  "the project's folder in its git repository (default: the top level of the current folder's)")
      ->check(CLI::ExistingDirectory);
  command
      .add_option("--work", builds.work,
                  "scratch folder: worktrees and builds, kept for later runs, " + run +
                      " (default: <source>/build/bankgate-compare)")
      ->check(names_a_folder());
  command
      .add_option("--build", builds.build,
                  "the project's own build folder: " + which +
                      " are configured with its CMAKE_PREFIX_PATH, bankgate_DIR, CMAKE_CUDA_COMPILER and "
                      "CMAKE_CUDA_ARCHITECTURES (default: <source>/build, where configured)")
      ->check(names_a_folder());
  command
      .add_option("--cmake-arg", builds.cmake_args,
                  "an extra argument for configuring " + which +
                      ", after those of --build, e.g. --cmake-arg=-DCMAKE_CUDA_ARCHITECTURES=90 (repeatable)")
      ->allow_extra_args(false);
}

void add_history_option(CLI::App& command, std::string& history) {
  command.add_option("--history", history,
                     "append this run's per-test results to this history store: an SQLite file or a "
                     "postgresql:// URL; off: none (default: $" +
                         std::string(gate::protocol::env::history) +
                         ", else <repository>/.bankgate/history.sqlite; docs/history.md)");
}

// --quiet and --color, on the top level and on each subcommand that prints progress or verdicts, each bound to
// one field: `bankgate --quiet gate` and `bankgate gate --quiet` are the same.
void add_console_options(CLI::App& command, bool& quiet, std::string& colour) {
  command.add_flag("--quiet,-q", quiet,
                   "no progress lines (building, running ctest, rounds done); the build's and ctest's output go to log "
                   "files instead (under <build>/bankgate/). Verdicts, reports and errors are printed as ever");
  command
      .add_option("--color", colour, "colour verdicts: auto (on a terminal, unless NO_COLOR is set), always or never")
      ->check(colour_choice());
}

// What a change did to its baselines is judged against the base branch's (docs/baselines.md#changes-to-baselines).
void add_base_options(CLI::App& command, BaseOptions& base) {
  command.add_option(
      "--base-ref", base.base_ref,
      "compare the baselines with this branch or commit's, naming every change (default: BANKGATE_BASE_REF, "
      "else the merge base with origin/main; none: no comparison, said so); a loosened tolerance or a test no "
      "longer gated fails, and a base that cannot be read stops with exit 2");
  command.add_flag("--accept-loosened", base.accept_loosened,
                   "a reviewer accepted this change's loosened tolerances: they pass, still named");
}

namespace {

std::string exit_codes_text(const std::vector<ExitCode>& codes) {
  std::string text;
  for (const ExitCode& c : codes) {
    std::string meaning = c.meaning;
    for (const ExitCode& known : every_exit_code)
      if (meaning.empty() && known.code == c.code) meaning = known.meaning;
    text += (text.empty() ? "Exit codes: " : "; ") + std::to_string(c.code) + " " + meaning;
  }
  return text + ".";
}

}  // namespace

std::string all_exit_codes() { return exit_codes_text(every_exit_code); }

std::string exit_codes_of(std::vector<ExitCode> codes) {
  codes.insert(codes.begin(), {exit_ok, ""});
  if (codes.back().code != exit_usage) codes.push_back({exit_usage, ""});
  return exit_codes_text(codes);
}

}  // namespace bankgate::cli
