// gate: build, run the GPU suites in strict mode against the baselines, print the verdict and write JUnit, JSON,
// markdown and HTML reports (through summary, which reads what the run left).

#include <iostream>
#include <memory>

#include <bankgate/gate/protocol/run_manifest.hpp>
#include <bankgate/gate/reports/gate_summary.hpp>
#include <bankgate/gate/store/input_file.hpp>
#include <bankgate/gate/reports/report.hpp>
#include <bankgate/gate/protocol/run_protocol.hpp>
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
namespace h = bankgate::history;

struct GateOptions {
  SuiteRun run;
  BaseOptions base;
  std::filesystem::path baselines;    // empty: each suite's own folder
  std::filesystem::path markdown;     // a file to append the markdown summary to (e.g. $GITHUB_STEP_SUMMARY)
  std::filesystem::path junit, json;  // copies of the JUnit and JSON reports elsewhere
  std::string source_url;             // the HTML report's source link template (default: the setting)
  std::string history;                // --history (history_append.hpp)
};

// The gate's last word, after the reports.
void print_verdict(int status) {
  const g::Palette& palette = console().palette;
  if (status == exit_ok) {
    std::cout << "bankgate gate: " << palette.paint("PASSED", g::Tone::good) << "\n";
    return;
  }
  std::cout << "bankgate gate: " << palette.paint("FAILED", g::Tone::bad)
            << (status == exit_regression ? " - regression (details above; each failure names its refresh command)\n"
                                          : " - could not measure, or could not read an input (reasons above)\n");
}

int gate(const GateOptions& o) {
  const std::string source_url = source_url_template(o.source_url);  // refused before minutes of building
  const fs::path build = absolute_build(o.run.build);
  const fs::path results = protocol::gate_run(build);
  // Answered while the suites measure (nvidia-smi starts before the first suite process has made its context).
  const std::shared_future<std::string> gpu_uuids = ask_gpu_uuids(o.history, build);
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
  // The history gets the gate's own verdicts, and the reports link each failed test's trend page drawn from it. Its
  // entries are collected while the run is judged.
  const std::shared_future<h::RunEntry> collected =
      ran ? start_collecting(o.history, {"gate", build, s.candidates, s.gtest_results, {}, {}, gpu_uuids})
          : std::shared_future<h::RunEntry>();
  s.before_reports = [&](const g::GateSummary& judged) {
    std::optional<Appended> appended;
    if (ran)
      appended = append_to_history(
          o.history, {"gate", build, s.candidates, s.gtest_results, g::to_json(judged), collected, gpu_uuids});
    return appended ? write_trend_pages(*appended, judged, results, source_url) : std::map<std::string, std::string>();
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
