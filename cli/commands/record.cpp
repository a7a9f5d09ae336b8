// record: build, run the GPU suites and keep what they measured as candidates, shown against the baselines; writes
// no baseline. A function of its options and the stream its table goes to (commands.hpp): refresh calls it too.

#include <iostream>
#include <memory>

#include <bankgate/gate/reports/console_tables.hpp>
#include <bankgate/gate/reports/gate_summary.hpp>
#include <bankgate/gate/reports/measured_count.hpp>
#include <bankgate/gate/rules/process_spread.hpp>
#include <bankgate/gate/rules/shard_plan.hpp>
#include <bankgate/gate/store/baseline_folder.hpp>
#include <bankgate/gate/store/candidates.hpp>
#include <bankgate/gate/text/text.hpp>

#include "../baseline_reading.hpp"
#include "../commands.hpp"
#include "../console.hpp"
#include "../history_append.hpp"
#include "../options.hpp"
#include "../subcommand_table.hpp"
#include "../suite_run.hpp"

namespace bankgate::cli {

namespace fs = std::filesystem;
namespace g = bankgate::gate;
namespace protocol = bankgate::gate::protocol;

namespace {

std::string process_label(int n) { return "process " + std::to_string(n); }

// Every test a process recorded, as a filter selecting them all: what the next process measures.
std::vector<std::string> tests_recorded(const std::vector<g::ProcessRecording>& processes) {
  std::vector<std::string> tests;
  for (const g::ProcessRecording& p : processes)
    for (const auto& [suite, file] : p.suites)
      for (const auto& [test, unused] : file.tests) tests.push_back(suite + "." + test);
  return tests;
}

// Runs the tests `filter` selects once more, in fresh suite processes, into the folder of process `n`.
g::ProcessRecording record_again(const SuiteRun& run, const fs::path& build, const fs::path& results, int n,
                                 const std::string& filter, std::size_t tests, const g::GpuKey& gpu) {
  const fs::path folder = protocol::record_process(results, n);
  fs::create_directories(folder);
  progress("bankgate: " + process_label(n) + ": measuring " + g::counted(tests, "test") +
           " again, to see whether their "
           "speed depends on the process");
  SuiteRun again = run;
  again.filter = filter;
  const std::string log = console().quiet ? protocol::ctest_log(folder).string() : "";
  run_ctest(again, build, protocol::run_candidates(folder), protocol::ctest_junit(folder), /*strict=*/false, log);
  return {process_label(n), g::read_candidates(protocol::run_candidates(folder), gpu)};
}

// One GPU's recordings in up to o.processes processes: the second measures every test the first did, each later one
// only the tests whose processes disagreed so far.
std::vector<g::ProcessRecording> recordings_of_processes(const RecordOptions& o, const fs::path& build,
                                                         const fs::path& results, const g::GpuKey& gpu) {
  const fs::path first = protocol::run_candidates(protocol::record_process(results, 1));
  std::vector<g::ProcessRecording> processes{{process_label(1), g::read_candidates(first, gpu)}};
  std::vector<std::string> tests = tests_recorded(processes);
  for (int n = 2; n <= o.processes && !tests.empty(); ++n) {
    processes.push_back(record_again(o.run, build, results, n, g::filter_selecting(tests), tests.size(), gpu));
    tests = g::tests_needing_another_process(processes, static_cast<std::size_t>(o.processes));
  }
  return processes;
}

// Measures the first process's tests in more processes and makes the run's candidates their merge; returns the
// kernels found to have modes. The first process's candidates move beside the others'.
std::vector<g::ModalKernel> merge_more_processes(const RecordOptions& o, const fs::path& build,
                                                 const fs::path& results) {
  const fs::path candidates = protocol::run_candidates(results);
  const fs::path first = protocol::run_candidates(protocol::record_process(results, 1));
  fs::create_directories(first.parent_path());
  fs::rename(candidates, first);
  std::vector<g::ModalKernel> modal;
  for (const g::GpuKey& gpu : g::gpu_folders(first)) {
    g::ProcessMerge merged;
    try {
      merged = g::merge_processes(recordings_of_processes(o, build, results, gpu));
    } catch (const g::RunnerMergeError& e) {
      throw Refusal(std::string("the processes' recordings cannot be merged: ") + e.what() +
                    " (each process's candidates are in " + protocol::record_processes(results).string() + ")");
    }
    for (const auto& [suite, file] : merged.suites)
      for (const auto& [test, record] : file.tests)
        g::write_candidate(candidates, gpu, file.provenance, suite, test, record, file.baseline_dir);
    modal.insert(modal.end(), merged.modal.begin(), merged.modal.end());
  }
  return modal;
}

void show_modes(const std::vector<g::ModalKernel>& modal, int processes, std::ostream& out) {
  if (modal.empty()) {
    out << "no test's speed depended on the process (up to " << processes << " processes)\n";
    return;
  }
  out << "speed depends on the process (their timing tolerance widens to hold every speed; "
         "docs/timing.md#modes-a-speed-per-process):\n";
  for (const g::ModalKernel& m : modal) {
    std::string medians;
    for (double ns : m.medians_ns) medians += (medians.empty() ? "" : ", ") + g::duration_text(ns);
    out << "  " << g::terminal_line(m.name) << ": medians " << medians << "\n";
  }
}

// The run's plans and records folded with its candidates and baselines, once: which tests it selected, those that
// left no candidate (with the reason their record gives), and bankgate's one comparison of each measurement, which
// the table shows (g::review_rows) rather than compare again.
g::GateSummary judged_run(const fs::path& build, const fs::path& records, const fs::path& results,
                          const fs::path& baselines) {
  g::GateInputs in;
  in.gtest_results = records;
  in.candidates = protocol::run_candidates(results);
  in.baselines = baselines;
  in.project = configured_source_dir(build);
  return g::summarize(in);
}

// The old / new / change table of what was recorded: the summary's comparison of each measurement, shown as it was
// made, never made again.
void show_recorded(const g::GateSummary& judged, const fs::path& candidates, std::ostream& out) {
  const g::GpuKey gpu = candidate_gpu(candidates, "");
  out << "GPU " << g::terminal_line(gpu.arch + "/" + gpu.model) << ": measured (new) in "
      << g::terminal_line(candidates.string()) << " against the baselines (old)\n"
      << g::render(g::review_rows(judged), /*changes_only=*/false, console().palette);
}

}  // namespace

RecordResult record(const RecordOptions& o, std::ostream& out) {
  const fs::path build = absolute_build(o.run.build);
  const fs::path results = protocol::record_run(build);
  const fs::path candidates = protocol::run_candidates(results);
  // Tests may fail here (that is why a refresh is wanted); their measurements are still written.
  const auto shard = run_suites(o.run, build, results, /*strict=*/false, /*attribute=*/true, o.baselines);
  if (shard && shard->suites.empty())
    throw std::runtime_error(g::empty_part_problem(shard->index, shard->count, shard->catalogue.size()));
  if (!has_candidates(candidates))
    throw std::runtime_error(
        "nothing was measured (no GPU, no counter permission, or no GPU test matches the filter '" + o.run.filter +
        "'); the test output " +
        (console().quiet ? "in " + protocol::ctest_log(results).string() : std::string("above")) + " says why");
  // The first process's plans and records, kept before later processes write theirs over them.
  const fs::path records = keep_result_records(build, results);
  const std::vector<g::ModalKernel> modal =
      o.processes > 1 ? merge_more_processes(o, build, results) : std::vector<g::ModalKernel>{};
  progress("");  // apart from ctest's output
  // One judgement of what was recorded: with several processes, of their merged candidates, a measurement of its
  // own. A table with changes is the point of recording, not a failure.
  const g::GateSummary judged = judged_run(build, records, results, o.baselines);
  const RecordResult result{build, candidates, g::count_measured(judged)};
  show_recorded(judged, candidates, out);
  if (o.processes > 1) show_modes(modal, o.processes, out);
  // The candidates alone: with several processes the result records are the first process's, not of their merge.
  append_to_history(o.history, {o.command, build, candidates, {}});
  out << "candidates in " << g::terminal_line(candidates.string()) << "; promote them after review with: "
      << g::terminal_line(g::command_line({this_command(), "promote", "--build", build.string()})) << "\n";
  return result;
}

Runner define_record(CLI::App& command) {
  const auto o = std::make_shared<RecordOptions>();
  add_suite_run_options(command, o->run);
  add_shard_options(command, o->run);
  add_processes_option(command, o->processes);
  command.add_option("--baselines", o->baselines, "baselines folder to compare with (default: each suite's own)");
  add_history_option(command, o->history);
  command.footer(
      exit_codes_of({exit_code::unreadable, exit_code::refused}));  // changes are what recording shows, not a failure;
                                                                    // a test not measured is exit 2
  return [o] {
    const RecordResult recorded = record(*o, std::cout);
    std::cout << g::render_measured(recorded.measured, "bankgate record");
    return g::measured_exit_code(recorded.measured);
  };
}

}  // namespace bankgate::cli
