// compare: judge a head build against a base build, both measured on this machine in alternating rounds (or two
// candidate folders measured earlier): counters by the gate's rules, durations by their round-to-round noise.
// compare-commits runs it on two builds it made.

#include <algorithm>
#include <chrono>
#include <fstream>
#include <iostream>
#include <memory>

#include <nlohmann/json.hpp>

#include <bankgate/gate/reports/console_tables.hpp>
#include <bankgate/gate/reports/gate_summary.hpp>
#include <bankgate/gate/store/pooled_candidates.hpp>
#include <bankgate/gate/reports/html_report.hpp>
#include <bankgate/gate/reports/output_json.hpp>
#include <bankgate/gate/reports/report.hpp>
#include <bankgate/gate/rules/extra_rounds.hpp>
#include <bankgate/gate/rules/run_comparison.hpp>
#include <bankgate/gate/protocol/run_protocol.hpp>
#include <bankgate/gate/text/text.hpp>

#include "../commands.hpp"
#include "../console.hpp"
#include "../history_append.hpp"
#include "../options.hpp"
#include "../subcommand_table.hpp"
#include "../suite_run.hpp"

namespace bankgate::cli {
namespace {

namespace fs = std::filesystem;
namespace g = bankgate::gate;
namespace protocol = bankgate::gate::protocol;

// The comparison's markdown summary: the gate's, headed as a comparison, with what base and head are and the
// verdict the gate's summary has no word for (INCONCLUSIVE) under its heading, and what the extra time did.
std::string comparison_markdown(const g::GateSummary& s, const CompareOptions& o, int exit_code,
                                const std::string& extra_line, const std::string& floors_line) {
  std::string notes;
  if (!o.sides.empty()) notes += "Compared: " + g::markdown_text(o.sides) + ".\n\n";
  if (!extra_line.empty()) notes += g::markdown_text(extra_line) + ".\n\n";
  if (!floors_line.empty()) notes += g::markdown_text(floors_line) + ".\n\n";
  if (exit_code == exit_inconclusive)
    notes +=
        "**INCONCLUSIVE**: no regression found, but the rounds of some tests were too noisy to tell a change of the "
        "floor's size from none (more `--rounds` or `--extra-time`, or a quieter runner).\n\n";
  std::string markdown = g::render_markdown(s, "bankgate compare");
  const std::size_t after_heading = markdown.find("\n\n");
  return after_heading == std::string::npos ? markdown + "\n" + notes : markdown.insert(after_heading + 2, notes);
}

// compare's reports beside its table and JSON: the HTML report, the run's summary.md and the markdown appended to
// --markdown. Like the gate's copy for a CI step summary, an unwritable --markdown is said and changes no verdict.
void write_comparison_reports(const CompareOptions& o, const fs::path& summary_file, const g::GateSummary& s,
                              int exit_code, const std::string& source_url, const std::string& extra_line,
                              const std::string& floors_line) {
  if (!o.html.empty()) {
    const std::string title = "bankgate compare: " + (o.sides.empty() ? std::string("head against base") : o.sides);
    write_text(o.html, g::render_html(s, {o.sources, title, source_url}));
    std::cout << "report: " << g::terminal_line(fs::absolute(o.html).string()) << "\n";
  }
  const std::string markdown = comparison_markdown(s, o, exit_code, extra_line, floors_line);
  write_text(summary_file, markdown);
  if (o.markdown.empty()) return;
  try {
    g::append_markdown(o.markdown, markdown);
  } catch (const std::exception& e) {
    std::cerr << "bankgate: the markdown summary was not appended to " << g::terminal_line(o.markdown.string()) << ": "
              << g::terminal_safe(e.what()) << "\n";
  }
}

// A comparison needs both sides measured; one that measured nothing (no GPU, no permission, a filter that
// matches nothing) ends it there, naming the logs.
void require_measured(const fs::path& candidates, const std::string& who, const fs::path& logs) {
  if (!has_candidates(candidates))
    throw std::runtime_error(who +
                             " measured nothing (no GPU, no counter permission, or no test matches the filter); "
                             "logs in " +
                             logs.string());
}

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

// Where a comparison of two builds measures: the builds, its work folder and its logs.
struct RoundPlace {
  fs::path base, head, work, logs;
};

// --extra-time in seconds; by default as long as the rounds took: a few undecided tests among many get many
// rounds each (a round of a few tests costs little more than their suite process's start), and a comparison takes
// at most about twice as long.
double extra_budget(const CompareOptions& o, double rounds_seconds) {
  if (o.extra_time.empty()) return rounds_seconds;
  const std::optional<double> seconds = g::duration_seconds(o.extra_time);
  if (!seconds)
    throw std::invalid_argument("--extra-time: '" + o.extra_time + "' is no duration (e.g. 90, 90s, 10m; 0: none)");
  return *seconds;
}

// One round of `run`'s tests: base, head, then head, base in the next, so that a drift of the machine during a
// round does not favour one side. Each side's round goes to its own folder, where pooled_candidates finds it.
void measure_round(const SuiteRun& run, const RoundPlace& at, int round) {
  const bool base_first = round % 2 == 1;
  for (const bool is_base : {base_first, !base_first}) {
    const std::string side = is_base ? "base" : "head";
    const std::string tag = side + "-round" + std::to_string(round);
    run_ctest(run, is_base ? at.base : at.head,
              protocol::compare_side(at.work, side) / ("round-" + std::to_string(round)), at.work / (tag + ".xml"),
              false, (at.logs / (tag + ".log")).string());
  }
}

// The tests still INCONCLUSIVE after `rounds` rounds get more, only they, round after round while
// plan_extra_round finds some the budget left can decide. The first forecast shares the rounds' time out per test.
g::ExtraRounds give_extra_rounds(const SuiteRun& run, const RoundPlace& at, int rounds, double budget,
                                 double rounds_seconds) {
  g::ExtraRounds extra;
  extra.budget_seconds = budget;
  double per_test = 0.0;
  SuiteRun only = run;
  for (int round = rounds + 1;; ++round) {
    const g::PooledRuns base = g::pooled_candidates(protocol::compare_side(at.work, "base"), run.filter);
    const g::PooledRuns head = g::pooled_candidates(protocol::compare_side(at.work, "head"), run.filter);
    if (per_test == 0.0)
      per_test = g::seconds_per_test(rounds_seconds / rounds, std::max<std::size_t>(base.rounds.size(), 1));
    const g::ExtraRoundPlan plan =
        g::plan_extra_round(g::undecided_tests(base, head), {budget - extra.spent_seconds, per_test});
    extra.budget_spent = plan.budget_spent;
    if (plan.measure.empty()) return extra;
    only.filter = g::filter_naming(plan.measure);
    const Clock::time_point start = Clock::now();
    measure_round(only, at, round);
    const double took = seconds_since(start);
    extra.spent_seconds += took;
    per_test = g::seconds_per_test(took, plan.measure.size());
    ++extra.rounds;
    for (const std::string& test : plan.measure) ++extra.given[test];
    progress("bankgate compare: extra round " + std::to_string(extra.rounds) + " (" + only.filter + ") done; " +
             std::to_string(static_cast<int>(extra.spent_seconds)) + " s of the " +
             std::to_string(static_cast<int>(budget)) + " s budget spent");
  }
}

// Appends each side's rounds to the history as a run of its build; returns the comparison's verdict.
int appended(const std::string& history, const fs::path& base, const fs::path& head, const CompareOptions& pooled,
             int verdict) {
  append_to_history(history, {"compare", base, pooled.base, {}});
  append_to_history(history, {"compare", head, pooled.head, {}});
  return verdict;
}

}  // namespace

int compare_candidates(const CompareOptions& o, const fs::path& summary_file,
                       const std::optional<g::ExtraRounds>& extra) {
  // A malformed BANKGATE_SOURCE_URL is refused before anything is read, where a report is asked for.
  const std::string source_url = o.html.empty() ? "" : source_url_template(o.source_url);
  const auto base = g::pooled_candidates(o.base, o.filter);
  const auto head = g::pooled_candidates(o.head, o.filter);
  if (base.records.empty() || head.records.empty())
    throw std::runtime_error("no candidate files for the filter '" + o.filter + "' under " +
                             (base.records.empty() ? o.base : o.head).string() +
                             ": run the GPU suites of both builds first");
  auto rows = g::compare_runs(base, head);
  if (extra) g::note_undecided(rows, *extra);
  std::cout << "head (" << g::terminal_line(o.head.string()) << ") against base (" << g::terminal_line(o.base.string())
            << "), rounds pooled per side; "
            << "durations judged by their round-to-round noise where each side has two rounds or more\n"
            << g::render_comparison(rows, o.fail_on_speedup, console().palette);
  // Said where it did something or a verdict is still undecided, not after every decisive comparison.
  const std::string extra_line =
      extra && (extra->rounds > 0 || g::any_inconclusive(rows)) ? g::extra_rounds_line(*extra) : "";
  if (!extra_line.empty()) std::cout << "bankgate compare: " << g::terminal_line(extra_line) << "\n";
  const std::string floors_line = g::own_floors_line(base);
  if (!floors_line.empty()) std::cout << "bankgate compare: " << g::terminal_line(floors_line) << "\n";
  const bool failed = g::any_failure(rows, o.fail_on_speedup);
  const int exit_code = failed ? exit_regression : g::any_inconclusive(rows) ? exit_inconclusive : exit_ok;
  if (exit_code == exit_inconclusive)
    std::cout
        << "bankgate compare: " << console().palette.paint("INCONCLUSIVE", g::Tone::doubtful)
        << ": no regression found, but the rounds of the tests marked INCONCLUSIVE were too noisy to tell a change "
           "of the floor's size from none (more --rounds or --extra-time, or a quieter runner)\n";
  const g::GateSummary summary = g::summarize_comparison(base, head, rows, o.fail_on_speedup);
  write_json(o.json, g::comparison_document(rows, summary.provenance, exit_code, o.fail_on_speedup, extra));
  if (!o.html.empty() || !o.markdown.empty() || !summary_file.empty())
    write_comparison_reports(o, summary_file, summary, exit_code, source_url, extra_line, floors_line);
  return exit_code;
}

// Round 0's candidates promoted into the scratch baselines, which fix each test's launches per sample for both
// sides' rounds (a comparison refuses samples taken with different batching).
void fix_launches_per_sample(const fs::path& round0, const fs::path& scratch, const fs::path& logs) {
  PromoteOptions fix;
  fix.candidates = round0;
  fix.baselines = scratch;
  fix.new_gpu = fix.force = true;
  fix.invocation = "bankgate compare, round 0";
  std::ofstream log(logs / "round0-promote.log");
  const PlainConsole plain;  // the table goes to a file: no colour codes in it
  try {
    promote(fix, log);
  } catch (const std::exception& e) {
    std::cerr << "bankgate: round 0 could not fix launches per sample (" << e.what()
              << "); the rounds choose their own\n";
  }
}

int compare(const CompareOptions& o) {
  const std::string source_url = source_url_template(o.source_url);  // refused before minutes of measuring
  const bool builds = fs::exists(o.base / "CTestTestfile.cmake") && fs::exists(o.head / "CTestTestfile.cmake");
  if (!builds) return compare_candidates(o);
  if (o.rounds < 1) throw std::invalid_argument("--rounds must be at least 1");
  extra_budget(o, 0.0);  // a malformed --extra-time is refused before minutes of measuring
  const fs::path base = absolute_build(o.base), head = absolute_build(o.head);
  const fs::path work = protocol::compare_run(head);
  const fs::path logs = protocol::compare_logs(work);
  std::error_code ec;
  fs::remove_all(work, ec);
  fs::create_directories(logs);
  SuiteRun run;
  run.filter = o.filter;
  run.measure_only = true;  // the pooled rounds are judged once, below; no round's suite process compares
  // Round 0, base only: warms the machine and records baselines in a scratch folder that fix each test's
  // launches per sample for both sides (a comparison refuses samples taken with different batching).
  const fs::path scratch = work / "baselines";
  run.baseline_dir = scratch;
  run_ctest(run, base, work / "round-0", work / "round-0.xml", false, (logs / "base-round0.log").string());
  require_measured(work / "round-0", "the base build",
                   logs);  // in its warm-up round: not minutes of rounds for nothing
  fix_launches_per_sample(work / "round-0", scratch, logs);
  const Clock::time_point rounds_start = Clock::now();
  for (int round = 1; round <= o.rounds; ++round) {
    measure_round(run, {base, head, work, logs}, round);
    progress("bankgate compare: round " + std::to_string(round) + " of " + std::to_string(o.rounds) + " done");
  }
  const double rounds_seconds = seconds_since(rounds_start);
  const double budget = extra_budget(o, rounds_seconds);
  std::optional<g::ExtraRounds> extra;
  if (budget > 0.0 && has_candidates(protocol::compare_side(work, "base")) &&
      has_candidates(protocol::compare_side(work, "head")))
    extra = give_extra_rounds(run, {base, head, work, logs}, o.rounds, budget, rounds_seconds);
  for (const char* side : {"base", "head"})
    require_measured(protocol::compare_side(work, side), std::string("the ") + side + " build", logs);
  CompareOptions pooled = o;
  pooled.base = protocol::compare_side(work, "base");
  pooled.head = protocol::compare_side(work, "head");
  if (pooled.json.empty())
    pooled.json = protocol::compare_result(work);  // for tools: verdicts without the console table
  if (pooled.html.empty()) pooled.html = protocol::html_report(work);
  if (pooled.sources.empty()) pooled.sources = configured_source_dir(head);
  pooled.source_url = source_url;
  // The summary beside result.json, for CI to keep; each side a run of the history.
  return appended(o.history, base, head, pooled, compare_candidates(pooled, protocol::summary_markdown(work), extra));
}

Runner define_compare(CLI::App& command) {
  const auto o = std::make_shared<CompareOptions>();
  command.add_option("--base", o->base, "the base build folder (or a folder of its candidates)")
      ->required()
      ->check(CLI::ExistingDirectory);
  command.add_option("--head", o->head, "the head build folder (or a folder of its candidates)")
      ->required()
      ->check(CLI::ExistingDirectory);
  add_comparison_options(command, *o, "builds: " + protocol::html_report(protocol::compare_run("<head>")).string());
  command.footer(exit_codes_of({exit_code::regression, exit_code::unreadable, exit_code::inconclusive}));
  return [o] { return compare(*o); };
}

}  // namespace bankgate::cli
