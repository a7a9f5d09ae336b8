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
//   bankgate run-suite, verdict, discover   a GPU suite as one process, one ctest entry per test (used by the
//                                           tests bankgate_add_gpu_suite() registers)
//
// Exit codes (commands.hpp): 0 done; 1 regression; 2 could not measure or read; 3 build, set-up or refusal;
// 4 baselines of another schema version (readme-table); 64 usage error.

#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "command_line.hpp"

namespace cli = bankgate::cli;

int main(int argc, char** argv) {
  CLI::App app{"bankgate: gate CUDA kernels' shared-memory counters and durations against committed baselines", "bankgate"};
  cli::Invocation in;
  cli::define_command_line(app, in);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int shown = app.exit(e);  // prints help (exit 0) or the error with a hint
    return shown == 0 ? 0 : cli::exit_usage;
  }

  try {
    if (*in.gate_cmd) return cli::gate(in.gate);
    if (*in.record_cmd) return cli::record(in.record);
    if (*in.review_cmd) return cli::review(in.review);
    if (*in.promote_cmd) return cli::promote(in.promote);
    if (*in.refresh_cmd) return cli::refresh(in.refresh);
    if (*in.compare_cmd) return cli::compare(in.compare);
    if (*in.summary_cmd) return cli::summary(in.summary);
    if (*in.metrics_cmd) return cli::metrics(in.metrics_json, in.metrics_set == "hardware");
    if (*in.names_cmd) return cli::kernel_names(in.kernel_names);
    if (*in.check_cmd) return cli::check_baselines(in.check_root);
    if (*in.run_suite_cmd) return cli::run_suite(in.run_suite);
    if (*in.verdict_cmd) return cli::verdict(in.verdict);
    if (*in.discover_cmd) return cli::discover(in.discover);
    in.table.program = cli::this_command();
    return bankgate::gate::run_readme_table(in.table, std::cout, std::cerr);
  } catch (const cli::Refusal& e) {
    std::cerr << "bankgate: refused: " << e.what() << "\n";
    return cli::exit_setup;
  } catch (const std::exception& e) {
    std::cerr << "bankgate: " << e.what() << "\nnothing was written\n";
    return cli::exit_not_measured;
  }
}
