// gate, record, refresh: the subcommands that build a project and run its GPU suites through ctest.

#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <optional>

#include <nlohmann/json.hpp>

#include <bankgate/gate/store/candidates.hpp>
#include <bankgate/gate/reports/gate_summary.hpp>
#include <bankgate/gate/store/input_file.hpp>
#include <bankgate/gate/reports/report.hpp>
#include <bankgate/gate/protocol/run_protocol.hpp>
#include <bankgate/gate/rules/shard_plan.hpp>
#include <bankgate/gate/rules/test_filter.hpp>
#include <bankgate/gate/text/text.hpp>

#include "commands.hpp"
#include "console.hpp"
#include "process.hpp"
#include "shard_run.hpp"
#include "source_checkout.hpp"

namespace bankgate::cli {
namespace {

namespace fs = std::filesystem;
namespace g = bankgate::gate;
namespace protocol = bankgate::gate::protocol;
namespace env = bankgate::gate::protocol::env;

// The build folder, made absolute; refused where it holds no tests, with the advice that fits where bankgate runs.
fs::path absolute_build(const fs::path& build) {
  fs::path dir = fs::absolute(build).lexically_normal();
  if (!dir.has_filename()) dir = dir.parent_path();  // "." gives "/project/build/": no trailing separator in messages
  if (fs::exists(dir / "CTestTestfile.cmake")) return dir;
  if (fs::exists(dir / "CMakeCache.txt")) {
    const fs::path source = configured_source_dir(dir);
    throw Refusal(dir.string() + " is a build folder, but its project registers no tests: gate kernels with "
                  "bankgate_add_gpu_suite() (docs/adopting.md) and configure it again (cmake -S " +
                  (source.empty() ? "<your project>" : g::shell_quote(source.string())) + " -B " + g::shell_quote(dir.string()) + ")");
  }
  const fs::path here = fs::current_path();
  if (fs::exists(here / "CMakeCache.txt"))
    throw Refusal(dir.string() + " is not a configured build folder, and bankgate runs inside one (" + here.string() +
                  "): give that folder with --build . or leave --build out");
  const bool in_project = fs::exists(here / "CMakeLists.txt");
  throw Refusal(dir.string() + " is not a configured build folder with tests: configure the project first (cmake -S " +
                (in_project ? "." : "<your project>") + " -B " + g::shell_quote(build.string()) + ") and give that folder with --build");
}

// Builds the project, its output shown as it comes; with --quiet kept in a log, and shown only where the build
// fails (its errors are what the user must see).
void build_project(const fs::path& build) {
  const std::vector<std::string> command{"cmake", "--build", build.string()};
  progress("bankgate: building: " + as_command_line(command));
  if (!console().quiet) {
    if (run_program(command) != 0) throw Refusal("the build failed (" + as_command_line(command) + "; errors above)");
    return;
  }
  const fs::path log = protocol::build_log(build);
  fs::create_directories(log.parent_path());
  if (run_program(command, log.string()) == 0) return;
  std::cerr << std::ifstream(log).rdbuf() << std::flush;
  throw Refusal("the build failed (" + as_command_line(command) + "; errors above, kept in " + log.string() + ")");
}

// The number of GPUs a CTest resource spec lists ({"local": [{"gpus": [{"id": "0", "slots": 1}, ...]}]}).
int gpus_in_resource_spec(const fs::path& spec) {
  const std::string how = "; write one with bankgate-resource-spec (installed beside bankgate), or see CTest's resource spec format";
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(g::read_input_file(spec));
  } catch (const g::InputFileError& e) {
    throw Refusal(std::string("the resource spec cannot be read: ") + e.what() + how);
  } catch (const nlohmann::json::exception& e) {
    throw Refusal("the resource spec " + spec.string() + " is not JSON (" + e.what() + ")" + how);
  }
  const auto local = doc.find("local");
  if (local == doc.end() || !local->is_array() || local->empty() || !(*local)[0].is_object())
    throw Refusal("the resource spec " + spec.string() + " has no \"local\" list" + how);
  const auto gpus = (*local)[0].find("gpus");
  if (gpus == (*local)[0].end() || !gpus->is_array() || gpus->empty())
    throw Refusal("the resource spec " + spec.string() + " lists no \"gpus\"; bankgate's GPU tests ask for RESOURCE_GROUPS "
                  "\"gpus:1\"" + how);
  return static_cast<int>(gpus->size());
}

// Runs the project's GPU tests ("gpu" label) with their measurements going to `candidates` and ctest's JUnit
// report to `junit`; its output to `log` when given. Returns ctest's status: verdicts come from the files.
int run_ctest(const SuiteRun& run, const fs::path& build, const fs::path& candidates, const fs::path& junit, bool strict,
              const std::string& log = "", bool attribute = false) {
  std::error_code ec;
  setenv(env::attribute, attribute ? "1" : "0", 1);
  setenv(env::suite_filter, run.filter.c_str(), 1);  // each suite's measuring run runs only the selection
  fs::remove_all(protocol::gtest_results(build), ec);  // no report of an earlier run may explain this one
  // Names this ctest run, whose results folder was just cleared: the shards of a suite claim its tests there.
  const auto now = std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::system_clock::now().time_since_epoch());
  const std::string run_id = std::to_string(::getpid()) + "-" + std::to_string(now.count());
  setenv(env::run_id, run_id.c_str(), 1);
  setenv(env::candidate_dir, candidates.c_str(), 1);
  setenv(env::require_gpu, strict ? "1" : "0", 1);
  export_source_commit(configured_source_dir(build));

  const g::CtestSelection selected = g::ctest_selection(run.filter);
  std::vector<std::string> ctest{"ctest", "--test-dir", build.string(), "-L", "^gpu$", "--no-tests=error",
                                 "--output-on-failure", "--output-junit", junit.string(),
                                 "-R", selected.include};
  if (!selected.exclude.empty()) ctest.insert(ctest.end(), {"-E", selected.exclude});
  int parallel = run.parallel;
  if (!run.resource_spec.empty()) {
    ctest.insert(ctest.end(), {"--resource-spec-file", fs::absolute(run.resource_spec).string()});
    // The spec holds the suites' measuring runs to one per GPU; the per-test verdict entries use no GPU and
    // fill the other slots, so that a GPU never waits on them.
    const int gpus = gpus_in_resource_spec(run.resource_spec);
    if (parallel == 0) parallel = 2 * gpus;
    setenv(env::gpus, std::to_string(gpus).c_str(), 1);  // a suite split into shards measures on all of them
  }
  if (parallel > 0) ctest.insert(ctest.end(), {"--parallel", std::to_string(parallel)});
  ctest.insert(ctest.end(), run.ctest_args.begin(), run.ctest_args.end());
  progress("bankgate: running: " + as_command_line(ctest) + (log.empty() ? "" : " > " + log));
  return run_program(ctest, log);
}

// Clears this run's folder, builds (unless asked not to) and runs the GPU tests, measurements going to the run's
// candidates and ctest's report to its ctest-junit.xml (its output to ctest.log with --quiet). With --shard, only
// this runner's part of them: returned, and where it is empty nothing runs. `attribute`: with per-line figures.
std::optional<g::ShardRecord> run_suites(const SuiteRun& run, const fs::path& build, const fs::path& results, bool strict,
                                         bool attribute, const fs::path& baselines) {
  // Refused before building or clearing.
  if (!run.resource_spec.empty()) gpus_in_resource_spec(run.resource_spec);
  const std::optional<ShardRequest> split = shard_request(run);
  // Cleared first: a build that fails leaves no earlier run's reports behind for CI to keep as this run's.
  std::error_code ec;
  fs::remove_all(results, ec);
  fs::create_directories(results);
  if (!run.no_build) build_project(build);
  SuiteRun part = run;
  const std::optional<ShardSelection> shard =
      split ? std::optional<ShardSelection>(select_shard(*split, run, build, baselines)) : std::nullopt;
  if (shard && shard->record.suites.empty()) return shard->record;
  if (shard) part.filter = shard->filter;
  const std::string log = console().quiet ? protocol::ctest_log(results).string() : "";
  run_ctest(part, build, protocol::run_candidates(results), protocol::ctest_junit(results), strict, log, attribute);
  return shard ? std::optional<g::ShardRecord>(shard->record) : std::nullopt;
}

// Copies the run's GoogleTest reports into the gate's folder (protocol::run_gtest_results), so that the folder
// alone explains the run (a merge of a split gate reads nothing else). Returns where the summary reads them: the
// copy, or the originals where it could not be made.
fs::path keep_gtest_reports(const fs::path& build, const fs::path& results) {
  const fs::path from = protocol::gtest_results(build), to = protocol::run_gtest_results(results);
  std::error_code ec;
  fs::create_directories(to, ec);
  for (auto it = fs::directory_iterator(from, ec); !ec && it != fs::directory_iterator(); it.increment(ec)) {
    const std::string name = it->path().filename().string();
    // One report per test; the claims and running files of the suites' processes (dot names) are no report.
    std::error_code kind;
    if (name.starts_with(".") || it->path().extension() != ".xml" || !it->is_regular_file(kind)) continue;
    fs::copy_file(it->path(), to / name, fs::copy_options::overwrite_existing, ec);
    if (ec) break;
  }
  if (!ec || ec == std::errc::no_such_file_or_directory) return to;
  std::cerr << "bankgate: the GoogleTest reports were not copied into " << to.string() << " (" << ec.message()
            << "); the reports read them from " << from.string() << "\n";
  return from;
}

bool has_candidates(const fs::path& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return false;
  for (const auto& entry : fs::recursive_directory_iterator(dir, ec))
    if (entry.path().extension() == ".json") return true;
  return false;
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

}  // namespace

int gate(const GateOptions& o) {
  const std::string source_url = source_url_template(o.source_url);  // refused before minutes of building
  const fs::path build = absolute_build(o.run.build);
  const fs::path results = protocol::gate_run(build);
  SummaryOptions s;
  s.shard = run_suites(o.run, build, results, /*strict=*/true, /*attribute=*/false, o.baselines);
  progress("");  // apart from ctest's output
  s.junit = protocol::ctest_junit(results);
  const bool ran = !s.shard || !s.shard->suites.empty();  // an empty part runs nothing, and its summary reads nothing
  s.gtest_results = ran ? keep_gtest_reports(build, results) : fs::path();
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
  const int status = summary(s);
  if (!o.markdown.empty()) {
    try {
      g::append_markdown(o.markdown, g::read_input_file(markdown));
    } catch (const std::exception& e) {  // a copy like those below: it does not change the verdict
      std::cerr << "bankgate: the markdown summary was not appended to " << g::terminal_line(o.markdown.string()) << ": "
                << g::terminal_safe(e.what()) << "\n";
    }
  }
  // Copies for the caller; failing to make one must not change the verdict.
  for (const auto& [from, to] : {std::pair{s.junit_out, o.junit}, std::pair{s.json, o.json}}) {
    std::error_code copy_error;
    if (!to.empty() && !fs::copy_file(from, to, fs::copy_options::overwrite_existing, copy_error) && copy_error)
      std::cerr << "bankgate: could not copy " << g::terminal_line(from.string()) << " to " << g::terminal_line(to.string()) << ": "
                << copy_error.message() << "\n";
  }
  std::cout << "reports: " << g::terminal_line(results.string()) << "/{" << s.junit_out.filename().string() << "," << s.json.filename().string()
            << "," << markdown.filename().string() << "," << s.html.filename().string() << "}"
            << (console().quiet ? "; ctest's output: " + g::terminal_line(protocol::ctest_log(results).string()) : "") << "\n";
  print_verdict(status);
  return status;
}

int record(const RecordOptions& o) {
  const fs::path build = absolute_build(o.run.build);
  const fs::path results = protocol::record_run(build);
  const fs::path candidates = protocol::run_candidates(results);
  // Tests may fail here (that is why a refresh is wanted); their measurements are still written.
  const auto shard = run_suites(o.run, build, results, /*strict=*/false, /*attribute=*/true, o.baselines);
  if (shard && shard->suites.empty()) throw std::runtime_error(g::empty_part_problem(shard->index, shard->count, shard->catalogue.size()));
  if (!has_candidates(candidates))
    throw std::runtime_error("nothing was measured (no GPU, no counter permission, or no GPU test matches the filter '" +
                             o.run.filter + "'); the test output " +
                             (console().quiet ? "in " + protocol::ctest_log(results).string() : std::string("above")) + " says why");
  progress("");  // apart from ctest's output
  ReviewOptions review_options;
  review_options.candidates = candidates;
  review_options.build = build;  // the project its candidates' baselines folders must lie in
  review_options.baselines = o.baselines;
  review(review_options);  // a table with changes is the point of recording, not a failure
  std::cout << "candidates in " << g::terminal_line(candidates.string()) << "; promote them after review with: "
            << g::terminal_line(g::shell_quote(this_command()) + " promote --build " + g::shell_quote(build.string())) << "\n";
  return exit_ok;
}

int refresh(const RefreshOptions& o) {
  refuse_in_ci(o.force, o.dry_run);  // before minutes of building and measuring
  RecordOptions r{o.run, o.baselines};
  record(r);
  const fs::path build = absolute_build(o.run.build);
  PromoteOptions p;
  p.build = build;
  p.baselines = o.baselines;
  p.filter = o.run.filter;
  p.dry_run = o.dry_run;
  p.new_gpu = o.new_gpu;
  p.force = o.force;
  p.invocation = "bankgate refresh" + (o.run.filter.empty() ? std::string() : " --filter " + g::shell_quote(o.run.filter, /*always=*/true));
  std::cout << "\n";
  return promote(p);
}

// A comparison needs both sides measured; one that measured nothing (no GPU, no permission, a filter that
// matches nothing) ends it there, naming the logs.
void require_measured(const fs::path& candidates, const std::string& who, const fs::path& logs) {
  if (!has_candidates(candidates))
    throw std::runtime_error(who + " measured nothing (no GPU, no counter permission, or no test matches the filter); "
                             "logs in " + logs.string());
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
  setenv(env::baseline_dir, scratch.c_str(), 1);
  run_ctest(run, base, work / "round-0", work / "round-0.xml", false, (logs / "base-round0.log").string());
  require_measured(work / "round-0", "the base build", logs);  // in its warm-up round: not minutes of rounds for nothing
  {
    PromoteOptions fix;
    fix.candidates = work / "round-0";
    fix.baselines = scratch;
    fix.new_gpu = fix.force = true;
    fix.invocation = "bankgate compare, round 0";
    std::ofstream quiet(logs / "round0-promote.log");
    const PlainConsole plain;  // the table goes to a file: no colour codes in it
    std::streambuf* shown = std::cout.rdbuf(quiet.rdbuf());
    try {
      promote(fix);
    } catch (const std::exception& e) {
      std::cerr << "bankgate: round 0 could not fix launches per sample (" << e.what() << "); the rounds choose their own\n";
    }
    std::cout.rdbuf(shown);
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
  unsetenv(env::baseline_dir);
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

}  // namespace bankgate::cli
