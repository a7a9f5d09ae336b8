// bankgate: the command for a project's whole loop, against any project's build folder.
//
//   bankgate gate      build, run the GPU suites in strict mode against the baselines, verdict and reports
//   bankgate record    build, run the GPU suites, keep what they measured as candidates, show them against the baselines
//   bankgate review    show candidates against the baselines (old / new / change)
//   bankgate promote   write reviewed candidates into the baselines
//   bankgate refresh   record, then promote (what a failure message names)
//   bankgate compare   judge a head build's candidates against a base build's, measured on one machine
//   bankgate summary   the gate's verdict and reports from the files a run left (JUnit, GoogleTest, candidates)
//   bankgate metrics   the collector's metric names
//   bankgate check-baselines  read every committed baseline with the gate's reader, without a GPU
//   bankgate kernel-name    the bare name results give a demangled kernel name (for scripts reading other tools)
//   bankgate readme-table   a README table of expected against measured transactions per request
//
// Exit codes (commands.hpp): 0 done; 1 regression; 2 could not measure or read; 3 build, set-up or refusal;
// 4 baselines of another schema version (readme-table); 64 usage error.

#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include <bankgate/gate/readme_table.hpp>

#include "commands.hpp"

namespace {

namespace cli = bankgate::cli;

void add_suite_run_options(CLI::App& command, cli::SuiteRun& run) {
  command.add_option("--build,-B", run.build, "the project's configured build folder")->capture_default_str();
  command.add_option("--filter", run.filter, "GoogleTest-style filter of the tests to run, e.g. 'Suite.*-Suite.slow'");
  command.add_flag("--no-build{false}", run.build_first, "run what is built, without building first");
  command.add_option("--resource-spec", run.resource_spec,
                     "ctest resource spec listing the GPUs: one test per GPU at a time, spread over all of them")
      ->check(CLI::ExistingFile);
  command.add_option("--parallel,-j", run.parallel, "tests at once (with --resource-spec: the number of GPUs)")
      ->check(CLI::NonNegativeNumber);
  command.add_option("--ctest-arg", run.ctest_args, "an extra ctest argument (repeatable)")->allow_extra_args(false);
}

// Where recorded candidates are and which baselines they are shown against or promoted into.
void add_candidate_options(CLI::App& command, std::filesystem::path& build, std::filesystem::path& candidates,
                           std::filesystem::path& baselines, std::string& gpu) {
  command.add_option("--build,-B", build, "build folder whose recorded candidates to use")->capture_default_str();
  command.add_option("--candidates", candidates, "candidates folder (default: <build>/bankgate/record/candidates)");
  command.add_option("--baselines", baselines, "baselines folder (default: each suite's own)");
  command.add_option("--gpu", gpu, "ARCH/MODEL, when candidates of several GPUs are present");
}

const char* exit_code_text =
    "Exit codes: 0 done; 1 regression (a counter changed, a kernel got slower, a wrong output); 2 could not measure "
    "or read an input; 3 the build or set-up failed, or the command refused; 4 baselines of another schema version; "
    "64 usage error.";

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"bankgate: gate CUDA kernels' shared-memory counters and durations against committed baselines", "bankgate"};
  app.footer(exit_code_text);
  app.require_subcommand(1);

  cli::GateOptions gate;
  CLI::App* gate_cmd = app.add_subcommand("gate", "build, run the GPU suites in strict mode against the baselines, print the "
                                                  "verdict and write JUnit, JSON and markdown reports");
  add_suite_run_options(*gate_cmd, gate.run);
  gate_cmd->add_option("--baselines", gate.baselines, "baselines folder for every suite (default: each suite's own)");
  gate_cmd->add_option("--markdown", gate.markdown, "also append the markdown summary to this file (e.g. $GITHUB_STEP_SUMMARY)");
  gate_cmd->add_option("--junit", gate.junit, "also write the JUnit report here");
  gate_cmd->add_option("--json", gate.json, "also write the JSON summary here");

  cli::RecordOptions record;
  CLI::App* record_cmd = app.add_subcommand("record", "build, run the GPU suites and keep what they measured as candidates, "
                                                      "shown against the baselines; writes no baseline");
  add_suite_run_options(*record_cmd, record.run);
  record_cmd->add_option("--baselines", record.baselines, "baselines folder to compare with (default: each suite's own)");

  cli::ReviewOptions review;
  CLI::App* review_cmd = app.add_subcommand("review", "show candidates against the baselines: old, new, change, verdict");
  review_cmd->alias("table");
  add_candidate_options(*review_cmd, review.build, review.candidates, review.baselines, review.gpu);
  review_cmd->add_flag("--changes-only", review.changes_only, "leave out rows that did not change");
  review_cmd->add_option("--json", review.json, "also write the rows as JSON here");

  cli::PromoteOptions promote;
  CLI::App* promote_cmd = app.add_subcommand("promote", "write reviewed candidates into the baselines (only tests whose "
                                                        "output matched the CPU reference)");
  add_candidate_options(*promote_cmd, promote.build, promote.candidates, promote.baselines, promote.gpu);
  promote_cmd->add_option("--filter", promote.filter, "GoogleTest-style filter of the tests to promote");
  promote_cmd->add_flag("--dry-run", promote.dry_run, "show the table, write nothing");
  promote_cmd->add_flag("--new-gpu", promote.new_gpu, "create baselines for a GPU that has none");
  promote_cmd->add_flag("--force", promote.force, "promote even where CI is set");
  promote_cmd->add_option("--command", promote.invocation, "what to record as the command that produced the baselines");

  cli::RefreshOptions refresh;
  CLI::App* refresh_cmd = app.add_subcommand("refresh", "record, then promote: re-measure tests after a deliberate change "
                                                        "and write them into the baselines");
  add_suite_run_options(*refresh_cmd, refresh.run);
  refresh_cmd->add_option("--baselines", refresh.baselines, "baselines folder (default: each suite's own)");
  refresh_cmd->add_flag("--dry-run", refresh.dry_run, "measure and show the table, write nothing");
  refresh_cmd->add_flag("--new-gpu", refresh.new_gpu, "create baselines for a GPU that has none");
  refresh_cmd->add_flag("--force", refresh.force, "refresh even where CI is set");

  cli::CompareOptions compare;
  CLI::App* compare_cmd = app.add_subcommand("compare", "judge a head build against a base build with the gate's rules, both "
                                                        "measured on this machine in alternating rounds, pooled per side");
  compare_cmd->add_option("--base", compare.base, "the base build folder (or a folder of its candidates)")
      ->required()->check(CLI::ExistingDirectory);
  compare_cmd->add_option("--head", compare.head, "the head build folder (or a folder of its candidates)")
      ->required()->check(CLI::ExistingDirectory);
  compare_cmd->add_option("--rounds", compare.rounds, "rounds per side, after a warm-up round of base (builds only)")
      ->capture_default_str()->check(CLI::PositiveNumber);
  compare_cmd->add_option("--filter", compare.filter, "GoogleTest-style filter of the tests to compare");
  compare_cmd->add_flag("--fail-on-speedup", compare.fail_on_speedup, "a faster head fails too");
  compare_cmd->add_option("--json", compare.json, "also write the result as JSON here");

  cli::SummaryOptions summary;
  CLI::App* summary_cmd = app.add_subcommand("summary", "the gate's verdict and reports from the files a GPU run left");
  summary_cmd->alias("gate-summary");
  summary_cmd->add_option("--junit", summary.junit, "ctest's JUnit report (ctest --output-junit)")->required();
  summary_cmd->add_option("--gtest-results", summary.gtest_results, "GoogleTest's per-test XML reports");
  summary_cmd->add_option("--candidates", summary.candidates, "what the run measured");
  summary_cmd->add_option("--baselines", summary.baselines, "baselines folder (default: each suite's own)");
  summary_cmd->add_option("--build", summary.build, "the build folder, for the refresh commands the results name");
  summary_cmd->add_option("--markdown", summary.markdown, "append the markdown summary to this file");
  summary_cmd->add_option("--json", summary.json, "write the JSON summary here");
  summary_cmd->add_option("--junit-out", summary.junit_out, "write a JUnit report with failure reasons here");

  bool metrics_json = false;
  CLI::App* metrics_cmd = app.add_subcommand("metrics", "the collector's metric names, comma-separated (for ncu --metrics)");
  metrics_cmd->add_flag("--json", metrics_json, "as a JSON list with display names");

  std::filesystem::path check_root = "baselines";
  CLI::App* check_cmd = app.add_subcommand("check-baselines", "read every committed baseline with the gate's reader (no GPU "
                                                              "needed): schema, names, tolerances and their reasons, ranges");
  check_cmd->add_option("--baselines", check_root, "baselines folder")->capture_default_str();

  std::vector<std::string> kernel_names;
  CLI::App* names_cmd = app.add_subcommand("kernel-name", "the name results give a kernel (its bare function name, as in "
                                                         "tests and baselines), as a JSON list of {name, bare}");
  names_cmd->add_option("names", kernel_names, "demangled kernel names (default: one per line on standard input)");

  bankgate::gate::ReadmeTableRequest table;
  CLI::App* table_cmd = app.add_subcommand("readme-table", "the table of expected against measured transactions per request, "
                                                           "from the baselines; printed, written into a README, or checked");
  table_cmd->add_option("--baselines", table.baselines, "baselines folder")->capture_default_str();
  table_cmd->add_option("--gpu", table.gpu, "ARCH/MODEL (default: the only GPU folder)");
  table_cmd->add_option("--readme", table.readme, "rewrite the table between the markers in this file");
  table_cmd->add_flag("--check", table.check, "with --readme: exit 1 when the file's table differs")->needs("--readme");

  for (CLI::App* sub : app.get_subcommands({})) sub->footer(exit_code_text);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int shown = app.exit(e);  // prints help (exit 0) or the error with a hint
    return shown == 0 ? 0 : cli::exit_usage;
  }

  try {
    if (*gate_cmd) return cli::gate(gate);
    if (*record_cmd) return cli::record(record);
    if (*review_cmd) return cli::review(review);
    if (*promote_cmd) return cli::promote(promote);
    if (*refresh_cmd) return cli::refresh(refresh);
    if (*compare_cmd) return cli::compare(compare);
    if (*summary_cmd) return cli::summary(summary);
    if (*metrics_cmd) return cli::metrics(metrics_json);
    if (*names_cmd) return cli::kernel_names(kernel_names);
    if (*check_cmd) return cli::check_baselines(check_root);
    table.program = cli::this_command();
    return bankgate::gate::run_readme_table(table, std::cout, std::cerr);
  } catch (const cli::Refusal& e) {
    std::cerr << "bankgate: refused: " << e.what() << "\n";
    return cli::exit_setup;
  } catch (const std::exception& e) {
    std::cerr << "bankgate: " << e.what() << "\nnothing was written\n";
    return cli::exit_not_measured;
  }
}
