// gate: build, run the GPU suites in strict mode against the baselines, print the verdict and write JUnit, JSON,
// markdown and HTML reports (through summary, which reads what the run left).

#include <iostream>
#include <memory>

#include <bankgate/gate/protocol/run_manifest.hpp>
#include <bankgate/gate/reports/gate_summary.hpp>
#include <bankgate/gate/store/confined_folder.hpp>
#include <bankgate/gate/store/input_file.hpp>
#include <bankgate/gate/reports/report.hpp>
#include <bankgate/gate/protocol/run_protocol.hpp>
#include <bankgate/gate/protocol/test_plan.hpp>
#include <bankgate/gate/text/text.hpp>

#include "../commands.hpp"
#include "../console.hpp"
#include "../history_append.hpp"
#include "../options.hpp"
#include "../subcommand_table.hpp"
#include "../suite_run.hpp"
#include "../trend_pages.hpp"

namespace bankgate::cli {
namespace {

namespace fs = std::filesystem;
namespace g = bankgate::gate;
namespace protocol = bankgate::gate::protocol;

struct GateOptions {
  SuiteRun run;
  BaseOptions base;
  std::filesystem::path baselines;    // empty: each suite's own folder
  std::filesystem::path markdown;     // a file to append the markdown summary to (e.g. $GITHUB_STEP_SUMMARY)
  std::filesystem::path junit, json;  // copies of the JUnit and JSON reports elsewhere
  std::string source_url;             // the HTML report's source link template (default: the setting)
  std::string history;                // --history (history_append.hpp)
};

// Copies the run's plans and test result records into the gate's folder (protocol::run_gtest_results), so that
// the folder alone explains the run (a merge of a split gate reads nothing else). Records in subfolders are
// copied too: the summary refuses a test's second record, and must see it to. A copy is a read: each file is read
// inside the records' folder like any input (a link is no record, and one leading out is never followed into the
// artifact), so a test whose record cannot be read has none there and is NOT MEASURED. Returns where the summary
// reads them: the copy, or the originals where it could not be made.
fs::path keep_result_records(const fs::path& build, const fs::path& results) {
  fs::path from = protocol::gtest_results(build), to = protocol::run_gtest_results(results);
  std::error_code ec;
  if (!fs::is_directory(from, ec)) return to;
  try {
    fs::create_directories(to);
    const g::ConfinedFolder records(from, "the test result records");
    for (auto it = fs::recursive_directory_iterator(from); it != fs::recursive_directory_iterator(); ++it) {
      const std::string name = it->path().filename().string();
      // The claims, manifests and running files of the suites' processes (dot names) are none of them.
      if (name.starts_with(".")) {
        if (it->is_directory()) it.disable_recursion_pending();
        continue;
      }
      if (!(name.ends_with(g::test_result_suffix) || name.ends_with(g::test_plan_suffix))) continue;
      const fs::path relative = it->path().lexically_relative(from);
      try {
        if (it->is_symlink() || !it->is_regular_file()) throw std::runtime_error("not a plain file");
        fs::create_directories((to / relative).parent_path());
        write_text(to / relative, records.read(relative));
      } catch (const std::exception& e) {
        std::cerr << "bankgate: " << g::terminal_line(records.display(relative).string()) << " is left out ("
                  << g::terminal_line(e.what()) << "): its test has no record\n";
      }
    }
    return to;
  } catch (const std::exception& e) {
    std::cerr << "bankgate: the test result records were not copied into " << g::terminal_line(to.string()) << " ("
              << g::terminal_line(e.what()) << "); the reports read them from " << g::terminal_line(from.string())
              << "\n";
    return from;
  }
}

// The gate's last word, after the reports.
void print_verdict(int status) {
  const g::Palette& palette = console().palette;
  if (status == exit_ok) {
    std::cout << "bankgate gate: " << palette.paint("PASSED", g::Tone::good) << "\n";
    return;
  }
  std::cout << "bankgate gate: " << palette.paint("FAILED", g::Tone::bad)
            << (status == exit_regression ? " - regression (details above; each failure names its refresh command)\n"
                                          : " - could not measure (reasons above)\n");
}

int gate(const GateOptions& o) {
  const std::string source_url = source_url_template(o.source_url);  // refused before minutes of building
  const fs::path build = absolute_build(o.run.build);
  const fs::path results = protocol::gate_run(build);
  SummaryOptions s;
  s.shard = run_suites(o.run, build, results, /*strict=*/true, /*attribute=*/false, o.baselines);
  progress("");                                           // apart from ctest's output
  const bool ran = !s.shard || !s.shard->suites.empty();  // an empty part runs nothing, and its summary reads nothing
  s.gtest_results = ran ? keep_result_records(build, results) : fs::path();
  s.candidates = protocol::run_candidates(results);
  s.baselines = o.baselines;
  s.base = o.base;
  s.build = build;
  s.json = protocol::summary_json(results);
  s.junit_out = protocol::junit_report(results);
  const fs::path markdown = protocol::summary_markdown(results);
  s.markdown = markdown;
  s.html = protocol::html_report(results);
  s.source_url = source_url;
  // The history gets the gate's own verdicts, and the reports link each failed test's trend page drawn from it.
  s.before_reports = [&](const g::GateSummary& judged) {
    std::optional<Appended> appended;
    if (ran)
      appended = append_to_history(o.history, {"gate", build, s.candidates, s.gtest_results, g::to_json(judged)});
    return appended ? write_trend_pages(*appended, judged, results) : std::map<std::string, std::string>();
  };
  const int status = summary(s);
  if (!o.markdown.empty()) {
    try {
      g::append_markdown(o.markdown, g::read_input_file(markdown));
    } catch (const std::exception& e) {  // a copy like those below: it does not change the verdict
      std::cerr << "bankgate: the markdown summary was not appended to " << g::terminal_line(o.markdown.string())
                << ": " << g::terminal_safe(e.what()) << "\n";
    }
  }
  // Copies for the caller; failing to make one must not change the verdict.
  for (const auto& [from, to] : {std::pair{s.junit_out, o.junit}, std::pair{s.json, o.json}}) {
    std::error_code copy_error;
    if (!to.empty() && !fs::copy_file(from, to, fs::copy_options::overwrite_existing, copy_error) && copy_error)
      std::cerr << "bankgate: could not copy " << g::terminal_line(from.string()) << " to "
                << g::terminal_line(to.string()) << ": " << copy_error.message() << "\n";
  }
  std::cout << "reports: " << g::terminal_line(results.string()) << "/{" << s.junit_out.filename().string() << ","
            << s.json.filename().string() << "," << markdown.filename().string() << "," << s.html.filename().string()
            << "}"
            << (console().quiet ? "; ctest's output: " + g::terminal_line(protocol::ctest_log(results).string()) : "")
            << "\n";
  print_verdict(status);
  return status;
}

}  // namespace

Runner define_gate(CLI::App& command) {
  const auto o = std::make_shared<GateOptions>();
  o->run.confirm_processes = 3;
  add_suite_run_options(command, o->run);
  add_shard_options(command, o->run);
  command.add_option("--baselines", o->baselines, "baselines folder for every suite (default: each suite's own)");
  command
      .add_option("--confirm-processes", o->run.confirm_processes,
                  "fresh processes that measure a test again before a slower duration becomes its verdict; the "
                  "fastest process is judged (docs/timing.md: per-process speed levels); 0: none")
      ->check(CLI::Range(0, g::protocol::max_confirm_processes))
      ->capture_default_str();
  add_base_options(command, o->base);
  command.add_option("--markdown", o->markdown,
                     "also append the markdown summary to this file (e.g. $GITHUB_STEP_SUMMARY)");
  command.add_option("--junit", o->junit, "also write the JUnit report here");
  command.add_option("--json", o->json, "also write the JSON summary here");
  add_source_url_option(command, o->source_url);
  add_history_option(command, o->history);
  command.footer(exit_codes_of({exit_code::regression, exit_code::unreadable, exit_code::refused}));
  return [o] { return gate(*o); };
}

}  // namespace bankgate::cli
