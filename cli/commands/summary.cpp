// summary: the gate's verdict and reports from the files a GPU run left, or from the report folders of a gate split
// over runners (--shards: one verdict from every part's, shard_merge.hpp). `bankgate gate` ends with it.

#include <iostream>
#include <memory>

#include <nlohmann/json.hpp>

#include <bankgate/gate/reports/gate_summary.hpp>
#include <bankgate/gate/reports/html_report.hpp>
#include <bankgate/gate/protocol/run_protocol.hpp>
#include <bankgate/gate/protocol/settings.hpp>
#include <bankgate/gate/reports/shard_merge.hpp>
#include <bankgate/gate/rules/shard_plan.hpp>
#include <bankgate/gate/text/text.hpp>

#include "../base_baselines.hpp"
#include "../commands.hpp"
#include "../trend_pages.hpp"
#include "../console.hpp"
#include "../options.hpp"
#include "../process.hpp"
#include "../source_checkout.hpp"
#include "../subcommand_table.hpp"

namespace bankgate::cli {
namespace {

namespace fs = std::filesystem;
namespace g = bankgate::gate;
namespace protocol = bankgate::gate::protocol;

std::string names(const std::vector<std::string>& list) {
  std::string out;
  for (const std::string& name : list) out += (out.empty() ? "" : ", ") + name;
  return out.empty() ? "none" : out;
}

// The base branch the baselines are compared with, found from the baselines folder given, else the project's.
// Returns the problem that keeps the gate from comparing them: no base to read, where the user did not opt out.
std::optional<std::string> set_base(g::GateInputs& in, const SummaryOptions& o) {
  const fs::path anchor = !o.baselines.empty() ? o.baselines : !in.project.empty() ? in.project : fs::current_path();
  std::error_code ec;
  if (!fs::is_directory(anchor, ec)) return std::nullopt;
  std::optional<BaseRef> ref;
  try {
    ref = find_base(anchor, o.base.base_ref);
  } catch (const Refusal&) {
    throw;
  } catch (const std::exception& e) {
    return e.what();
  }
  if (!ref) {
    std::cout << "baselines: changes to them are not checked (--base-ref " << no_base << ")\n";
    return std::nullopt;
  }
  // Kept within the console table's 100 columns: a long ref name is the user's, the rest is bounded.
  std::cout << "baselines compared with " << g::terminal_line(ref->named) << " at " << ref->commit.substr(0, 12)
            << "\n";
  in.base_baseline = [ref = *ref](const fs::path& folder, const fs::path& relative) {
    return BaseBaselines(folder, ref).text(relative);
  };
  in.accept_loosened = o.base.accept_loosened;
  return std::nullopt;
}

// Read, then classify: one run's files, a part of a split gate that had nothing to run, or every part's reports.
g::GateSummary summarize_run(const SummaryOptions& o) {
  g::GateInputs in;
  in.gtest_results = o.gtest_results;
  in.fail_on_speedup = g::fail_on_speedup(g::process_environment);
  in.candidates = o.candidates;
  in.baselines = o.baselines;
  in.project = configured_source_dir(o.build);
  const std::optional<std::string> base_problem = set_base(in, o);
  in.refresh = {this_command(), o.build.empty() ? std::string() : fs::absolute(o.build).lexically_normal().string()};
  // The commit the build's sources are at (BANKGATE_GIT_COMMIT where given), for a run whose candidates name none.
  // Asked once however many shard reports a merge summarizes.
  in.source_tree = [build = o.build, known = std::make_shared<std::optional<std::optional<g::SourceTree>>>()] {
    if (!*known) *known = source_commit(configured_source_dir(build));
    return **known;
  };
  if (!o.shards.empty()) return g::merge_shard_reports(g::find_shard_reports(o.shards), in);
  g::GateSummary s;
  if (o.shard && o.shard->suites.empty())
    s.problems.push_back(g::empty_part_problem(o.shard->index, o.shard->count, o.shard->catalogue.size()));
  else
    s = g::summarize(in);
  if (base_problem) s.problems.push_back(*base_problem);
  s.shard = o.shard;
  return s;
}

// What part of a split gate the reports cover, for the console or (`markdown`) the markdown summary, each name
// encoded for it; empty for a whole gate.
std::string split_note(const g::GateSummary& s, bool markdown) {
  if (s.merged_shards > 0)
    return "Merged from the reports of all " + std::to_string(s.merged_shards) + " shards of a split gate.";
  if (!s.shard) return "";
  const std::string suites = names(s.shard->suites);
  return "Shard " + std::to_string(s.shard->index) + " of " + std::to_string(s.shard->count) +
         " of a split gate, suites: " + (markdown ? g::markdown_text(suites) : g::terminal_line(suites)) +
         ". The gate's verdict is the merge of every shard's reports (" +
         (markdown ? "`bankgate summary --shards`" : "bankgate summary --shards") + ").";
}

// Where the failed tests' trend pages are, for the markdown summary (a comment cannot link into the artifact), and
// how to draw one again; "" where there are none.
std::string trend_note(const std::map<std::string, std::string>& trend_pages) {
  if (trend_pages.empty()) return "";
  const std::string folder = fs::path(trend_pages.begin()->second).parent_path().string();
  return "\nEach failed test's history, its duration and counters run by run: " + g::markdown_code(folder + "/") +
         " beside this summary (" + std::to_string(trend_pages.size()) + " page(s)); draw one again with " +
         g::markdown_code(
             as_command_line({"bankgate", "history", "show", "--test", trend_pages.begin()->first, "--html", "FILE"})) +
         ".\n";
}

// A merge of a split gate's parts whose HTML report is written: it links the pages its parts drew.
bool merging_parts(const SummaryOptions& o) { return !o.shards.empty() && !o.html.empty(); }

// The failed tests' trend pages the parts drew, copied beside the merged HTML report.
std::map<std::string, std::string> parts_trend_pages(const SummaryOptions& o, const g::GateSummary& merged) {
  std::vector<fs::path> parts;
  for (const g::ShardReport& part : g::find_shard_reports(o.shards)) parts.push_back(part.folder);
  return merged_trend_pages(parts, merged, o.html.parent_path());
}

// --reports DIR: every report a gate writes, under its names, where not named one by one.
SummaryOptions with_report_folder(SummaryOptions o) {
  if (o.reports.empty()) return o;
  fs::create_directories(o.reports);
  if (o.json.empty()) o.json = protocol::summary_json(o.reports);
  if (o.junit_out.empty()) o.junit_out = protocol::junit_report(o.reports);
  if (o.html.empty()) o.html = protocol::html_report(o.reports);
  return o;
}

// Writes every report asked for, each on its own: one that cannot be written (a full disk, a FIFO in its place)
// costs none of the others, and is named. Returns what the summary's verdict and the unwritten reports make.
int write_reports(const g::GateSummary& s, const SummaryOptions& o, const std::string& source_url,
                  const std::map<std::string, std::string>& trend_pages) {
  std::vector<std::string> unwritten;
  const auto write_report = [&](const std::string& what, const fs::path& path, auto&& write) {
    if (path.empty()) return false;
    try {
      write();
      return true;
    } catch (const std::exception& e) {
      unwritten.push_back(what + " was not written: " + e.what());
      return false;
    }
  };
  write_report("the JSON summary", o.json, [&] { write_json(o.json, g::to_json(s)); });
  write_report("the JUnit report", o.junit_out, [&] { write_text(o.junit_out, g::render_junit(s)); });
  const bool html = write_report("the HTML report", o.html, [&] {
    write_text(o.html, g::render_html(s, {o.sources.empty() ? configured_source_dir(o.build) : o.sources,
                                          "bankgate gate", source_url, trend_pages}));
    std::cout << "report: " << g::terminal_line(fs::absolute(o.html).string()) << "\n";
  });
  std::string markdown = g::render_markdown(s);
  if (const std::string note = split_note(s, /*markdown=*/true); !note.empty()) markdown += "\n" + note + "\n";
  if (html)
    markdown +=
        "\nThe full report, with per-line figures and duration plots: " + g::markdown_code(o.html.filename().string()) +
        " (beside this summary in the run's reports).\n";
  markdown += trend_note(trend_pages);
  write_report("the markdown summary", o.markdown, [&] { g::append_markdown(o.markdown, markdown); });
  const fs::path folder_markdown = o.reports.empty() ? fs::path() : protocol::summary_markdown(o.reports);
  write_report("the markdown summary", folder_markdown, [&] { write_text(folder_markdown, markdown); });
  for (const std::string& problem : unwritten) std::cerr << "bankgate: " << g::terminal_safe(problem) << "\n";
  if (unwritten.empty()) return s.exit_code();
  // A report asked for and not written fails the run like an unreadable input; a regression still says 1.
  return s.exit_code() == exit_regression ? exit_regression : exit_not_measured;
}

}  // namespace

int summary(const SummaryOptions& options) {
  // A malformed BANKGATE_SOURCE_URL is refused before any report is written, where the HTML report is asked for.
  const std::string source_url =
      options.html.empty() && options.reports.empty() ? "" : source_url_template(options.source_url);
  // A merge that is refused throws before anything is written or printed.
  const g::GateSummary s = summarize_run(options);
  const SummaryOptions o = with_report_folder(options);
  std::cout << g::render_console(s, console().palette);
  if (const std::string note = split_note(s, /*markdown=*/false); !note.empty()) std::cout << note << "\n";
  const std::map<std::string, std::string> trend_pages = o.before_reports   ? o.before_reports(s)
                                                         : merging_parts(o) ? parts_trend_pages(o, s)
                                                                            : std::map<std::string, std::string>();
  return write_reports(s, o, source_url, trend_pages);
}

Runner define_summary(CLI::App& command) {
  const auto o = std::make_shared<SummaryOptions>();
  command.alias("gate-summary");
  CLI::Option* gtest_results = command.add_option(
      "--gtest-results", o->gtest_results,
      "the run's plans and its tests' result records (<build>/bankgate/gtest-results); ctest's JUnit is not read");
  CLI::Option* candidates = command.add_option("--candidates", o->candidates, "what the run measured");
  command
      .add_option("--shards", o->shards,
                  "instead of one run's files: merge the report folders of a gate split over runners (each "
                  "`gate --shard I/N` job's " +
                      protocol::gate_run("<build>").string() +
                      "), found at "
                      "or below this folder; refused (exit 2, nothing written) unless they are every part once")
      ->excludes(gtest_results)
      ->excludes(candidates);
  // One of the two inputs; CLI11 says "--gtest-results or --shards is required" as a usage error.
  command.parse_complete_callback([o] {
    if (o->gtest_results.empty() && o->shards.empty()) throw CLI::RequiredError("--gtest-results or --shards");
  });
  command.add_option("--baselines", o->baselines, "baselines folder (default: each suite's own)");
  add_base_options(command, o->base);
  command.add_option("--build", o->build, "the build folder, for the refresh commands the results name")
      ->check(names_a_folder());
  command.add_option("--markdown", o->markdown, "append the markdown summary to this file");
  command.add_option("--json", o->json, "write the JSON summary here");
  command.add_option("--junit-out", o->junit_out, "write a JUnit report with failure reasons here");
  command.add_option("--html", o->html, "write the self-contained HTML report here");
  command.add_option("--reports", o->reports,
                     "write junit.xml, summary.json, summary.md and report.html into this folder, as a gate does "
                     "(created where absent; --json, --junit-out and --html still name their own)");
  command.add_option(
      "--sources", o->sources,
      "the project's source folder, for source text in the HTML report (default: the one --build was configured from)");
  add_source_url_option(command, o->source_url);
  command.footer(exit_codes_of({exit_code::regression, exit_code::unreadable}));
  return [o] { return summary(*o); };
}

}  // namespace bankgate::cli
