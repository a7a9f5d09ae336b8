// compare: judge a head build against a base build, both measured on this machine in alternating rounds (or two
// candidate folders measured earlier): counters by the gate's rules, durations by their round-to-round noise.
// compare-commits runs it on two builds it made.

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
#include <bankgate/gate/rules/run_comparison.hpp>
#include <bankgate/gate/protocol/run_protocol.hpp>
#include <bankgate/gate/text/text.hpp>

#include "../commands.hpp"
#include "../console.hpp"
#include "../options.hpp"
#include "../subcommand_table.hpp"
#include "../suite_run.hpp"

namespace bankgate::cli {
namespace {

namespace fs = std::filesystem;
namespace g = bankgate::gate;
namespace protocol = bankgate::gate::protocol;

// The comparison's markdown summary: the gate's, headed as a comparison, with what base and head are and the
// verdict the gate's summary has no word for (INCONCLUSIVE) under its heading.
std::string comparison_markdown(const g::GateSummary& s, const CompareOptions& o, int exit_code) {
  std::string notes;
  if (!o.sides.empty()) notes += "Compared: " + g::markdown_text(o.sides) + ".\n\n";
  if (exit_code == exit_inconclusive)
    notes += "**INCONCLUSIVE**: no regression found, but the rounds of some tests were too noisy to tell a change of the "
             "floor's size from none (more `--rounds`, or a quieter runner).\n\n";
  std::string markdown = g::render_markdown(s, "bankgate compare");
  const std::size_t after_heading = markdown.find("\n\n");
  return after_heading == std::string::npos ? markdown + "\n" + notes : markdown.insert(after_heading + 2, notes);
}

// compare's reports beside its table and JSON: the HTML report, the run's summary.md and the markdown appended to
// --markdown. Like the gate's copy for a CI step summary, an unwritable --markdown is said and changes no verdict.
void write_comparison_reports(const CompareOptions& o, const fs::path& summary_file, const g::GateSummary& s, int exit_code,
                              const std::string& source_url) {
  if (!o.html.empty()) {
    const std::string title = "bankgate compare: " + (o.sides.empty() ? std::string("head against base") : o.sides);
    write_text(o.html, g::render_html(s, {o.sources, title, source_url}));
    std::cout << "report: " << g::terminal_line(fs::absolute(o.html).string()) << "\n";
  }
  const std::string markdown = comparison_markdown(s, o, exit_code);
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
    throw std::runtime_error(who + " measured nothing (no GPU, no counter permission, or no test matches the filter); "
                             "logs in " + logs.string());
}

}  // namespace

int compare_candidates(const CompareOptions& o, const fs::path& summary_file) {
  // A malformed BANKGATE_SOURCE_URL is refused before anything is read, where a report is asked for.
  const std::string source_url = o.html.empty() ? "" : source_url_template(o.source_url);
  const auto base = g::pooled_candidates(o.base, o.filter);
  const auto head = g::pooled_candidates(o.head, o.filter);
  if (base.records.empty() || head.records.empty())
    throw std::runtime_error("no candidate files for the filter '" + o.filter + "' under " + (base.records.empty() ? o.base : o.head).string() +
                             ": run the GPU suites of both builds first");
  const auto rows = g::compare_runs(base, head);
  std::cout << "head (" << g::terminal_line(o.head.string()) << ") against base (" << g::terminal_line(o.base.string()) << "), rounds pooled per side; "
            << "durations judged by their round-to-round noise where each side has two rounds or more\n"
            << g::render_comparison(rows, o.fail_on_speedup, console().palette);
  const bool failed = g::any_failure(rows, o.fail_on_speedup);
  const int exit_code = failed ? exit_regression : g::any_inconclusive(rows) ? exit_inconclusive : exit_ok;
  if (exit_code == exit_inconclusive)
    std::cout << "bankgate compare: " << console().palette.paint("INCONCLUSIVE", g::Tone::doubtful)
              << ": no regression found, but the rounds of the tests marked INCONCLUSIVE were too noisy to tell a change "
                 "of the floor's size from none (more --rounds, or a quieter runner)\n";
  const g::GateSummary summary = g::summarize_comparison(base, head, rows, o.fail_on_speedup);
  write_json(o.json, g::comparison_document(rows, summary.provenance, exit_code, o.fail_on_speedup));
  if (!o.html.empty() || !o.markdown.empty() || !summary_file.empty())
    write_comparison_reports(o, summary_file, summary, exit_code, source_url);
  return exit_code;
}

int compare(const CompareOptions& o) {
  const std::string source_url = source_url_template(o.source_url);  // refused before minutes of measuring
  const bool builds = fs::exists(o.base / "CTestTestfile.cmake") && fs::exists(o.head / "CTestTestfile.cmake");
  if (!builds) return compare_candidates(o);
  if (o.rounds < 1) throw std::invalid_argument("--rounds must be at least 1");
  const fs::path base = absolute_build(o.base), head = absolute_build(o.head);
  const fs::path work = protocol::compare_run(head);
  const fs::path logs = protocol::compare_logs(work);
  std::error_code ec;
  fs::remove_all(work, ec);
  fs::create_directories(logs);
  SuiteRun run;
  run.filter = o.filter;
  // Round 0, base only: warms the machine and records baselines in a scratch folder that fix each test's
  // launches per sample for both sides (a comparison refuses samples taken with different batching).
  const fs::path scratch = work / "baselines";
  run.baseline_dir = scratch;
  run_ctest(run, base, work / "round-0", work / "round-0.xml", false, (logs / "base-round0.log").string());
  require_measured(work / "round-0", "the base build", logs);  // in its warm-up round: not minutes of rounds for nothing
  {
    PromoteOptions fix;
    fix.candidates = work / "round-0";
    fix.baselines = scratch;
    fix.new_gpu = fix.force = true;
    fix.invocation = "bankgate compare, round 0";
    std::ofstream log(logs / "round0-promote.log");
    const PlainConsole plain;  // the table goes to a file: no colour codes in it
    try {
      promote(fix, log);
    } catch (const std::exception& e) {
      std::cerr << "bankgate: round 0 could not fix launches per sample (" << e.what() << "); the rounds choose their own\n";
    }
  }
  for (int round = 1; round <= o.rounds; ++round) {
    // base, head, then head, base: a drift of the machine during a round does not favour one side.
    const bool base_first = round % 2 == 1;
    for (const bool is_base : {base_first, !base_first}) {
      const std::string side = is_base ? "base" : "head";
      const std::string tag = side + "-round" + std::to_string(round);
      run_ctest(run, is_base ? base : head, protocol::compare_side(work, side) / ("round-" + std::to_string(round)),
                work / (tag + ".xml"), false, (logs / (tag + ".log")).string());
    }
    progress("bankgate compare: round " + std::to_string(round) + " of " + std::to_string(o.rounds) + " done");
  }
  for (const char* side : {"base", "head"})
    require_measured(protocol::compare_side(work, side), (std::string("the ") + side + " build").c_str(), logs);
  CompareOptions pooled = o;
  pooled.base = protocol::compare_side(work, "base");
  pooled.head = protocol::compare_side(work, "head");
  if (pooled.json.empty()) pooled.json = protocol::compare_result(work);  // for tools: verdicts without the console table
  if (pooled.html.empty()) pooled.html = protocol::html_report(work);
  if (pooled.sources.empty()) pooled.sources = configured_source_dir(head);
  pooled.source_url = source_url;
  return compare_candidates(pooled, protocol::summary_markdown(work));  // beside result.json, for CI to keep
}

Runner define_compare(CLI::App& command) {
  const auto o = std::make_shared<CompareOptions>();
  command.add_option("--base", o->base, "the base build folder (or a folder of its candidates)")
      ->required()->check(CLI::ExistingDirectory);
  command.add_option("--head", o->head, "the head build folder (or a folder of its candidates)")
      ->required()->check(CLI::ExistingDirectory);
  add_comparison_options(command, *o, "builds: " + protocol::html_report(protocol::compare_run("<head>")).string());
  command.footer(exit_codes_of({exit_code::regression, exit_code::unreadable, exit_code::inconclusive}));
  return [o] { return compare(*o); };
}

}  // namespace bankgate::cli
