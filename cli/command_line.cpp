#include "command_line.hpp"

#include <bankgate/gate/protocol/run_protocol.hpp>
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
  if (maximum != std::numeric_limits<int>::max()) return "in [" + std::to_string(minimum) + " - " + std::to_string(maximum) + "]";
  if (minimum == 0) return "NONNEGATIVE";
  if (minimum == 1) return "POSITIVE";
  return "AT LEAST " + std::to_string(minimum);
}

// A whole number from `minimum` to `maximum`, refused in those words. (CLI::PositiveNumber and
// NonNegativeNumber take fractions and, refusing, print the range of a double: 309 digits.) CLI11 puts the
// option's name before the message: "--rounds: must be a whole number of at least 1, got '0'".
CLI::Validator whole_number(int minimum, int maximum = std::numeric_limits<int>::max()) {
  const bool unbounded = maximum == std::numeric_limits<int>::max();
  const std::string wanted = unbounded ? "a whole number of at least " + std::to_string(minimum)
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

// Without --build: "build", unless bankgate runs inside a build folder (its CMakeCache.txt here, no build/ in
// it), where "build/build" would name nothing and the folder itself is the build meant.
void default_build_here(CLI::App& command, const CLI::Option* option, std::filesystem::path& build) {
  command.parse_complete_callback([option, &build] {
    std::error_code ec;
    if (option->count() == 0 && !std::filesystem::exists("build", ec) && std::filesystem::exists("CMakeCache.txt", ec))
      build = ".";
  });
}

void add_suite_run_options(CLI::App& command, SuiteRun& run) {
  const CLI::Option* build =
      command.add_option("--build,-B", run.build, "the project's configured build folder (the current folder where it is one)")
          ->capture_default_str()
          ->check(names_a_folder());
  default_build_here(command, build, run.build);
  command.add_option("--filter", run.filter, "GoogleTest-style filter of the tests to run, e.g. 'Suite.*-Suite.slow'");
  command.add_flag("--no-build", run.no_build, "run what is built, without building first");
  command.add_option("--resource-spec", run.resource_spec,
                     "ctest resource spec listing the GPUs: one test per GPU at a time, spread over all of them")
      ->check(CLI::ExistingFile);
  command.add_option("--parallel,-j", run.parallel, "tests at once (default with --resource-spec: twice its GPUs, one GPU test per GPU)")
      ->check(whole_number(0));
  command.add_option("--ctest-arg", run.ctest_args, "an extra ctest argument (repeatable)")->allow_extra_args(false);
}

constexpr char driver_stub_help[] =
    "a folder holding the CUDA toolkit's stub driver as libcuda.so.1, which the suite is run with where the real driver "
    "(libcuda.so.1) cannot be loaded, so that a suite linking it starts, lists its tests and skips them";

// --shard I/N, refused in words: "--shard: must be I/N, the I-th of N parts counted from 1 (...), got '0/3'".
CLI::Validator shard_choice() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        std::string problem;
        return gate::parse_shard_spec(text, problem) ? "" : problem;
      },
      "I/N");
}

// A gate split over runners: gate and record (refresh measures and promotes on one machine).
void add_shard_options(CLI::App& command, SuiteRun& run) {
  CLI::Option* shard = command.add_option(
      "--shard", run.shard,
      "run only part I of N of the GPU suites (counted from 1: 1/3, 2/3, 3/3), as one of N CI jobs: whole suites, "
      "balanced by recorded costs, the same split on every runner; a part with no suite exits 2. `bankgate summary "
      "--shards` merges the parts")
      ->check(shard_choice());
  command.add_option("--shard-durations", run.shard_durations,
                     "with --shard: balance the parts by the costs an earlier gate's summary.json recorded (give every "
                     "runner the same file; default: the committed baselines' timings)")
      ->check(CLI::ExistingFile)
      ->needs(shard);
}

// "<build>/bankgate/record/candidates", as the run protocol places it.
std::string record_candidates_help() {
  return gate::protocol::run_candidates(gate::protocol::record_run("<build>")).string();
}

// Where recorded candidates are and which baselines they are shown against or promoted into.
void add_candidate_options(CLI::App& command, std::filesystem::path& build, std::filesystem::path& candidates,
                           std::filesystem::path& baselines, std::string& gpu) {
  const CLI::Option* build_option =
      command.add_option("--build,-B", build, "build folder whose recorded candidates to use (the current folder where it is one)")
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
      .add_option("--source-url", source_url,
                  "link each source line of the HTML report to this address, e.g. "
                  "https://github.com/ORG/REPO/blob/{commit}/{path}#L{line} ({commit}: the measured commit; http(s) only; "
                  "default: $" + std::string(gate::protocol::env::source_url) + ")")
      ->type_name("TEMPLATE")
      ->check(CLI::Validator([](std::string& text) { return gate::source_url_problem(text); }, ""));
}

// What compare and compare-commits share: the rounds, the filter and the reports. `html_default` says where the
// HTML report goes when --html is not given.
void add_comparison_options(CLI::App& command, CompareOptions& compare, const std::string& html_default) {
  command.add_option("--rounds", compare.rounds,
                     "rounds per side, after a warm-up round of base (builds only); two or more judge durations by their noise")
      ->capture_default_str()->check(whole_number(1));
  command.add_option("--filter", compare.filter, "GoogleTest-style filter of the tests to compare");
  command.add_flag("--fail-on-speedup", compare.fail_on_speedup, "a faster head fails too");
  command.add_option("--json", compare.json, "also write the result as JSON here ('-': standard output)");
  command.add_option("--html", compare.html, "also write the HTML report here (" + html_default + ")");
  command.add_option("--markdown", compare.markdown, "also append the markdown summary to this file (e.g. $GITHUB_STEP_SUMMARY)");
  add_source_url_option(command, compare.source_url);
}

// What --color takes, refused in words: "--color: must be auto, always or never, got 'x'".
CLI::Validator colour_choice() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        return text == "auto" || text == "always" || text == "never" ? "" : "must be auto, always or never, got '" + text + "'";
      },
      "auto|always|never");
}

// --quiet and --color, on the top level and on each subcommand that prints progress or verdicts, each bound to
// one field: `bankgate --quiet gate` and `bankgate gate --quiet` are the same.
void add_console_options(CLI::App& command, Invocation& in) {
  command.add_flag("--quiet,-q", in.quiet,
                   "no progress lines (building, running ctest, rounds done); the build's and ctest's output go to log "
                   "files instead (under <build>/bankgate/). Verdicts, reports and errors are printed as ever");
  command.add_option("--color", in.colour, "colour verdicts: auto (on a terminal, unless NO_COLOR is set), always or never")
      ->check(colour_choice());
}

// What a change did to its baselines is judged against the base branch's (docs/baselines.md#changes-to-baselines).
void add_base_options(CLI::App& command, BaseOptions& base) {
  command.add_option("--base-ref", base.base_ref,
                     "compare the baselines with this branch or commit's, naming every change (default: BANKGATE_BASE_REF, "
                     "else the merge base with origin/main where there is one); a loosened tolerance or a test no longer "
                     "gated fails");
  command.add_flag("--accept-loosened", base.accept_loosened,
                   "a reviewer accepted this change's loosened tolerances: they pass, still named");
}

// An exit code and what it means, for a --help footer.
struct ExitCode {
  int code;
  std::string meaning;  // empty: in the top level's words (every_exit_code)
};

const std::vector<ExitCode> every_exit_code{
    {exit_ok, "done"},
    {exit_regression, "regression (a counter changed, a kernel got slower, a wrong output)"},
    {exit_not_measured, "could not measure or read an input"},
    {exit_setup, "the build or set-up failed, or the command refused"},
    {exit_other_schema, "baselines of another schema version (readme-table)"},
    {exit_inconclusive, "compare: no regression, but a test's rounds too noisy to decide"},
    {exit_usage, "usage error"}};

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

// A subcommand's footer: the codes it can return besides 0 and 64 (which every one can; 64 given where it means
// more there).
std::string exit_codes_of(std::vector<ExitCode> codes) {
  codes.insert(codes.begin(), {exit_ok, ""});
  if (codes.back().code != exit_usage) codes.push_back({exit_usage, ""});
  return exit_codes_text(codes);
}

// What each subcommand can return, read off what it does: 1 where it judges, 2 where it reads input that may be
// unreadable or missing (any other error that escapes it is 2 too: main()), 3 where it builds or refuses.
void add_exit_code_footers(const Invocation& in) {
  const ExitCode regression{exit_regression, ""}, unreadable{exit_not_measured, ""}, refused{exit_setup, ""};
  in.gate_cmd->footer(exit_codes_of({regression, unreadable, refused}));
  in.record_cmd->footer(exit_codes_of({unreadable, refused}));  // changes are what recording shows, not a failure
  in.review_cmd->footer(exit_codes_of({{exit_regression, "a candidate left its baseline's tolerance, or its output was wrong"},
                                       unreadable, refused}));
  in.promote_cmd->footer(exit_codes_of({unreadable, refused}));
  in.refresh_cmd->footer(exit_codes_of({unreadable, refused}));
  const ExitCode inconclusive{exit_inconclusive, "no regression, but a test's rounds too noisy to decide (INCONCLUSIVE)"};
  in.compare_cmd->footer(exit_codes_of({regression, unreadable, inconclusive}));
  in.compare_commits_cmd->footer(exit_codes_of(
      {regression, unreadable, {exit_setup, "git, a checkout, a configure or a build failed, or the head has no GPU suites"}, inconclusive}));
  in.summary_cmd->footer(exit_codes_of({regression, unreadable}));
  in.check_cmd->footer(exit_codes_of({{exit_regression, "a change loosens the baselines against the base, unaccepted"},
                                      {exit_not_measured, "a baseline is unusable, or there is none"}}));
  in.recover_cmd->footer(exit_codes_of({unreadable}));
  in.table_cmd->footer(exit_codes_of({{exit_regression, "--check: the README's table differs"},
                                      {exit_not_measured, "an input is unreadable, or the README lacks the markers (nothing written)"},
                                      {exit_other_schema, "a baseline of another schema version (regenerate the baselines first)"}}));
  in.run_suite_cmd->footer(exit_codes_of({unreadable, refused}));
  in.verdict_cmd->footer(exit_codes_of({{exit_regression, "the test failed, or left no readable result"}}));
  in.discover_cmd->footer(exit_codes_of({unreadable, refused}));
  in.protocol_cmd->footer(exit_codes_of({{exit_usage, "usage error, or --get names no entry"}}));
  for (CLI::App* data_only : {in.metrics_cmd, in.names_cmd}) data_only->footer(exit_codes_of({}));
}

}  // namespace

void define_command_line(CLI::App& app, Invocation& in) {
  app.footer(exit_codes_text(every_exit_code));
  app.require_subcommand(1);
  add_console_options(app, in);

  in.gate_cmd = app.add_subcommand("gate", "build, run the GPU suites in strict mode against the baselines, print the "
                                                  "verdict and write JUnit, JSON and markdown reports");
  add_suite_run_options(*in.gate_cmd, in.gate.run);
  add_shard_options(*in.gate_cmd, in.gate.run);
  in.gate_cmd->add_option("--baselines", in.gate.baselines, "baselines folder for every suite (default: each suite's own)");
  add_base_options(*in.gate_cmd, in.gate.base);
  in.gate_cmd->add_option("--markdown", in.gate.markdown, "also append the markdown summary to this file (e.g. $GITHUB_STEP_SUMMARY)");
  in.gate_cmd->add_option("--junit", in.gate.junit, "also write the JUnit report here");
  in.gate_cmd->add_option("--json", in.gate.json, "also write the JSON summary here");
  add_source_url_option(*in.gate_cmd, in.gate.source_url);

  in.record_cmd = app.add_subcommand("record", "build, run the GPU suites and keep what they measured as candidates, "
                                                      "shown against the baselines; writes no baseline");
  add_suite_run_options(*in.record_cmd, in.record.run);
  add_shard_options(*in.record_cmd, in.record.run);
  in.record_cmd->add_option("--baselines", in.record.baselines, "baselines folder to compare with (default: each suite's own)");

  in.review_cmd = app.add_subcommand("review", "show candidates against the baselines: old, new, change, verdict");
  in.review_cmd->alias("table");
  add_candidate_options(*in.review_cmd, in.review.build, in.review.candidates, in.review.baselines, in.review.gpu);
  in.review_cmd->add_flag("--changes-only", in.review.changes_only, "leave out rows that did not change");
  in.review_cmd->add_option("--json", in.review.json, "also write the rows as JSON here");

  in.promote_cmd = app.add_subcommand("promote", "write reviewed candidates into the baselines (only tests whose "
                                                        "output matched the CPU reference)");
  add_candidate_options(*in.promote_cmd, in.promote.build, in.promote.candidates, in.promote.baselines, in.promote.gpu);
  in.promote_cmd->add_option("--runner", in.promote.runners,
                             "candidates folder recorded on another runner of the same GPU model (repeat for more): "
                             "merged with --candidates, counters must agree, durations pool every runner's samples and "
                             "their tolerance widens by twice the runners' distance from the pooled median")
      ->check(names_a_folder());
  in.promote_cmd->add_option("--filter", in.promote.filter, "GoogleTest-style filter of the tests to promote");
  in.promote_cmd->add_flag("--dry-run", in.promote.dry_run, "show the table, write nothing");
  in.promote_cmd->add_flag("--new-gpu", in.promote.new_gpu, "create baselines for a GPU that has none");
  in.promote_cmd->add_flag("--force", in.promote.force, "promote even where CI is set");
  in.promote_cmd->add_option("--command", in.promote.invocation, "what to record as the command that produced the baselines");

  in.refresh_cmd = app.add_subcommand("refresh", "record, then promote: re-measure tests after a deliberate change "
                                                        "and write them into the baselines");
  add_suite_run_options(*in.refresh_cmd, in.refresh.run);
  in.refresh_cmd->add_option("--baselines", in.refresh.baselines, "baselines folder (default: each suite's own)");
  in.refresh_cmd->add_flag("--dry-run", in.refresh.dry_run, "measure and show the table, write nothing");
  in.refresh_cmd->add_flag("--new-gpu", in.refresh.new_gpu, "create baselines for a GPU that has none");
  in.refresh_cmd->add_flag("--force", in.refresh.force, "refresh even where CI is set");

  in.compare_cmd = app.add_subcommand("compare", "judge a head build against a base build, both measured on this machine "
                                                        "in alternating rounds: counters by the gate's rules, durations by "
                                                        "their round-to-round noise (SLOWER, ok or INCONCLUSIVE)");
  in.compare_cmd->add_option("--base", in.compare.base, "the base build folder (or a folder of its candidates)")
      ->required()->check(CLI::ExistingDirectory);
  in.compare_cmd->add_option("--head", in.compare.head, "the head build folder (or a folder of its candidates)")
      ->required()->check(CLI::ExistingDirectory);
  add_comparison_options(*in.compare_cmd, in.compare,
                         "builds: " + gate::protocol::html_report(gate::protocol::compare_run("<head>")).string());

  in.compare_commits_cmd = app.add_subcommand(
      "compare-commits", "compare for two commits of the project here: each checked out in a git worktree, configured "
                         "(Ninja, Release) and built under --work, then head judged against base as compare does");
  CompareCommitsOptions& commits = in.compare_commits;
  in.compare_commits_cmd->add_option("base", commits.base, "the base commit (anything git rev-parse takes), or . for the working tree")
      ->required();
  in.compare_commits_cmd->add_option("head", commits.head, "the head commit, or . for the working tree as it is")->required();
  in.compare_commits_cmd->add_option("--source", commits.source,
                                     "the project's folder in its git repository (default: the top level of the current folder's)")
      ->check(CLI::ExistingDirectory);
  in.compare_commits_cmd->add_option("--work", commits.work,
                                     "scratch folder: worktrees and builds, kept for later runs, and this run's logs and results "
                                     "in run/ (default: <source>/build/bankgate-compare)")
      ->check(names_a_folder());
  in.compare_commits_cmd->add_option("--build", commits.build,
                                     "the project's own build folder: both commits are configured with its CMAKE_PREFIX_PATH, "
                                     "bankgate_DIR, CMAKE_CUDA_COMPILER and CMAKE_CUDA_ARCHITECTURES (default: <source>/build, "
                                     "where configured)")
      ->check(names_a_folder());
  in.compare_commits_cmd->add_option("--cmake-arg", commits.cmake_args,
                                     "an extra argument for configuring both commits, after those of --build, e.g. "
                                     "--cmake-arg=-DCMAKE_CUDA_ARCHITECTURES=90 (repeatable)")
      ->allow_extra_args(false);
  add_comparison_options(*in.compare_commits_cmd, commits.compare, "default: <work>/run/report.html");

  in.summary_cmd = app.add_subcommand("summary", "the gate's verdict and reports from the files a GPU run left, or from "
                                                  "the report folders of a gate split over runners");
  in.summary_cmd->alias("gate-summary");
  CLI::Option* junit = in.summary_cmd->add_option("--junit", in.summary.junit, "ctest's JUnit report (ctest --output-junit)");
  CLI::Option* gtest_results = in.summary_cmd->add_option("--gtest-results", in.summary.gtest_results, "GoogleTest's per-test XML reports");
  CLI::Option* candidates = in.summary_cmd->add_option("--candidates", in.summary.candidates, "what the run measured");
  in.summary_cmd->add_option("--shards", in.summary.shards,
                             "instead of one run's files: merge the report folders of a gate split over runners (each "
                             "`gate --shard I/N` job's " + gate::protocol::gate_run("<build>").string() + "), found at "
                             "or below this folder; refused (exit 2, nothing written) unless they are every part once")
      ->excludes(junit)->excludes(gtest_results)->excludes(candidates);
  // One of the two inputs; CLI11 says "--junit or --shards is required" as a usage error.
  in.summary_cmd->parse_complete_callback([&in] {
    if (in.summary.junit.empty() && in.summary.shards.empty()) throw CLI::RequiredError("--junit or --shards");
  });
  in.summary_cmd->add_option("--baselines", in.summary.baselines, "baselines folder (default: each suite's own)");
  add_base_options(*in.summary_cmd, in.summary.base);
  in.summary_cmd->add_option("--build", in.summary.build, "the build folder, for the refresh commands the results name")
      ->check(names_a_folder());
  in.summary_cmd->add_option("--markdown", in.summary.markdown, "append the markdown summary to this file");
  in.summary_cmd->add_option("--json", in.summary.json, "write the JSON summary here");
  in.summary_cmd->add_option("--junit-out", in.summary.junit_out, "write a JUnit report with failure reasons here");
  in.summary_cmd->add_option("--html", in.summary.html, "write the self-contained HTML report here");
  in.summary_cmd->add_option("--reports", in.summary.reports,
                             "write junit.xml, summary.json, summary.md and report.html into this folder, as a gate does "
                             "(created where absent; --json, --junit-out and --html still name their own)");
  in.summary_cmd->add_option("--sources", in.summary.sources,
                             "the project's source folder, for source text in the HTML report (default: the one --build was configured from)");
  add_source_url_option(*in.summary_cmd, in.summary.source_url);

  in.metrics_cmd = app.add_subcommand("metrics", "the counters the gate reads: their metric names, comma-separated (for ncu "
                                                  "--metrics), or the whole metric table as JSON or markdown");
  in.metrics_cmd->add_flag("--json", in.metrics_json, "as a JSON list: names, display and nvprof names, group, default tolerance");
  in.metrics_cmd->add_flag("--markdown", in.metrics_markdown, "as a markdown table of what is counted");
  in.metrics_cmd->add_option("--set", in.metrics_set, "sass (the gate's exact counters) or hardware (the L1's own counters)")
      ->check(CLI::IsMember({"sass", "hardware"}));

  in.check_cmd = app.add_subcommand("check-baselines", "read every committed baseline with the gate's reader (no GPU "
                                                              "needed): schema, names, tolerances and their reasons, ranges");
  in.check_cmd->add_option("--baselines", in.check_root, "baselines folder")->capture_default_str();
  add_base_options(*in.check_cmd, in.check_base);
  in.recover_cmd = app.add_subcommand("recover", "roll back what an interrupted promotion left in a baselines folder "
                                                  "(readers refuse such a folder until then; the next promote also does it)");
  in.recover_cmd->add_option("--baselines", in.recover_root, "baselines folder")->required();

  in.run_suite_cmd = app.add_subcommand("run-suite", "run one GPU suite as one process, a result file per test, a crashed "
                                                      "test charged and the rest continued in a fresh process (ctest runs it)");
  in.run_suite_cmd->add_option("--binary", in.run_suite.binary, "the suite program")->required();
  in.run_suite_cmd->add_option("--results", in.run_suite.results, "folder of the per-test result files")->required();
  in.run_suite_cmd->add_option("--shards", in.run_suite.shards, "the suite's measuring runs (bankgate_add_gpu_suite SHARDS)")
      ->check(whole_number(1, 1024));
  in.run_suite_cmd->add_option("--shard", in.run_suite.shard, "which of them this is, from 0")->check(whole_number(0));
  in.run_suite_cmd->add_option("--driver-stub", in.run_suite.driver_stub, driver_stub_help);
  in.verdict_cmd = app.add_subcommand("verdict", "one test's result from its suite's run: exit 0 passed or skipped, 1 failed");
  in.verdict_cmd->add_option("--results", in.verdict.results, "folder of the per-test result files")->required();
  in.verdict_cmd->add_option("--test", in.verdict.test, "Suite.test")->required();
  in.discover_cmd = app.add_subcommand("discover", "write the ctest entries of a suite's tests (bankgate_add_gpu_suite runs it)");
  in.discover_cmd->add_option("--binary", in.discover.binary, "the suite program")->required();
  in.discover_cmd->add_option("--results", in.discover.results, "folder of the per-test result files")->required();
  in.discover_cmd->add_option("--out", in.discover.out, "the ctest file to write")->required();
  in.discover_cmd->add_option("--fixture", in.discover.fixture, "the ctest fixture of the suite's measuring test")->required();
  in.discover_cmd->add_option("--labels", in.discover.labels, "labels of every test")->delimiter(';');
  in.discover_cmd->add_option("--driver-stub", in.discover.driver_stub, driver_stub_help);
  in.protocol_cmd = app.add_subcommand("protocol", "the names bankgate's processes share, for scripts: environment "
                                                    "variables, result layout, test properties, exit codes (JSON)");
  in.protocol_cmd->add_option("--build", in.protocol.build, "give the result layout under this build folder");
  in.protocol_cmd->add_option("--get", in.protocol.get, "print one entry bare, e.g. layout.gate or environment.run_id");

  in.names_cmd = app.add_subcommand("kernel-name", "the name results give a kernel (its bare function name, as in "
                                                         "tests and baselines), as a JSON list of {name, bare}");
  in.names_cmd->add_option("names", in.kernel_names, "demangled kernel names (default: one per line on standard input)");

  in.table_cmd = app.add_subcommand("readme-table", "the table of expected against measured ratios (shared transactions "
                                                           "and global sectors per request), from the baselines; printed, "
                                                           "written into a README, or checked");
  in.table_cmd->add_option("--baselines", in.table.baselines, "baselines folder")->capture_default_str();
  in.table_cmd->add_option("--gpu", in.table.gpu, "ARCH/MODEL (default: the only GPU folder)");
  in.table_cmd->add_option("--readme", in.table.readme, "rewrite the table between the markers in this file");
  in.table_cmd->add_flag("--check", in.table.check, "with --readme: exit 1 when the file's table differs")->needs("--readme");

  // What ctest and scripts run, listed apart from what people type.
  for (CLI::App* plumbing : {in.run_suite_cmd, in.verdict_cmd, in.discover_cmd, in.protocol_cmd, in.names_cmd})
    plumbing->group("Plumbing (run by ctest, CMake and scripts)");
  for (CLI::App* person_facing : {in.gate_cmd, in.record_cmd, in.review_cmd, in.promote_cmd, in.refresh_cmd, in.compare_cmd,
                                  in.compare_commits_cmd, in.summary_cmd})
    add_console_options(*person_facing, in);
  add_exit_code_footers(in);
}

}  // namespace bankgate::cli
