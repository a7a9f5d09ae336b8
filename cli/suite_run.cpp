// What gate, record, refresh and compare share: building a project and running its GPU suites through ctest
// (suite_run.hpp).

#include <unistd.h>

#include <chrono>
#include <fstream>
#include <iostream>
#include <optional>
#include <set>

#include <nlohmann/json.hpp>

#include <bankgate/gate/store/candidates.hpp>
#include <bankgate/gate/store/confined_folder.hpp>
#include <bankgate/gate/protocol/test_plan.hpp>
#include <bankgate/gate/protocol/test_result.hpp>
#include <bankgate/gate/reports/gate_summary.hpp>
#include <bankgate/gate/store/input_file.hpp>
#include <bankgate/gate/reports/report.hpp>
#include <bankgate/gate/protocol/run_manifest.hpp>
#include <bankgate/gate/protocol/run_protocol.hpp>
#include <bankgate/gate/protocol/settings.hpp>
#include <bankgate/gate/rules/shard_plan.hpp>
#include <bankgate/gate/rules/test_filter.hpp>
#include <bankgate/gate/text/text.hpp>

#include "suite_run.hpp"

#include "cmake_cache.hpp"
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

}  // namespace

fs::path absolute_build(const fs::path& build) {
  fs::path dir = fs::absolute(build).lexically_normal();
  if (!dir.has_filename()) dir = dir.parent_path();  // "." gives "/project/build/": no trailing separator in messages
  if (fs::exists(dir / "CTestTestfile.cmake")) return dir;
  if (fs::exists(dir / "CMakeCache.txt")) {
    const fs::path source = configured_source_dir(dir);
    throw Refusal(
        dir.string() +
        " is a build folder, but its project registers no tests: gate kernels with "
        "bankgate_add_gpu_suite() (docs/adopting.md) and configure it again (" +
        g::command_line({"cmake", "-S", source.empty() ? "<your project>" : source.string(), "-B", dir.string()}) +
        ")");
  }
  const fs::path here = fs::current_path();
  if (fs::exists(here / "CMakeCache.txt"))
    throw Refusal(dir.string() + " is not a configured build folder, and bankgate runs inside one (" + here.string() +
                  "): give that folder with --build . or leave --build out");
  const bool in_project = fs::exists(here / "CMakeLists.txt");
  throw Refusal(dir.string() + " is not a configured build folder with tests: configure the project first (" +
                g::command_line({"cmake", "-S", in_project ? "." : "<your project>", "-B", build.string()}) +
                ") and give that folder with --build");
}

namespace {

// Builds the project, its output shown as it comes; with --quiet kept in a log, and shown only where the build
// fails (its errors are what the user must see).
void build_project(const fs::path& build) {
  const std::vector<std::string> command{build_tool(build, "cmake"), "--build", build.string()};
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
  const std::string how =
      "; write one with bankgate-resource-spec (installed beside bankgate), or see CTest's resource spec format";
  nlohmann::json doc;
  try {
    doc = g::parse_input_json(g::read_input_file(spec), spec.string());
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
    throw Refusal("the resource spec " + spec.string() +
                  " lists no \"gpus\"; bankgate's GPU tests ask for RESOURCE_GROUPS "
                  "\"gpus:1\"" +
                  how);
  return static_cast<int>(gpus->size());
}

// What the command tells every process of its ctest run (run_manifest.hpp), but the GPUs of a resource spec.
protocol::RunManifest command_run_manifest(const SuiteRun& run, const fs::path& build, const fs::path& candidates,
                                           bool strict, bool attribute) {
  protocol::RunManifest manifest;
  // Names this ctest run, whose results folder was just cleared: the shards of a suite claim its tests there.
  const auto now =
      std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::system_clock::now().time_since_epoch());
  manifest.run_id = std::to_string(::getpid()) + "-" + std::to_string(now.count());
  manifest.attribute = attribute;
  manifest.require_gpu = strict;
  manifest.candidate_dir = candidates;
  if (!run.baseline_dir.empty()) manifest.baseline_dir = fs::absolute(run.baseline_dir);
  manifest.suite_filter = run.filter;  // each suite's measuring run runs only the selection
  if (run.confirm_processes > 0) manifest.confirm_processes = run.confirm_processes;
  if (run.measure_only) manifest.measure_only = true;
  manifest.source = source_commit(configured_source_dir(build));
  // The suite-level settings of the command's own environment: its suites and verdict steps follow them, not
  // what ctest's environment happens to hold.
  g::SuiteLevelSettings own;
  try {
    own = g::suite_level_settings(g::process_environment);
  } catch (const g::SettingsError& e) {
    throw Refusal(e.what());
  }
  manifest.launch_only = own.launch_only;
  manifest.fail_on_speedup = own.fail_on_speedup;
  manifest.lock_timeout_s = own.lock_timeout_s;
  return manifest;
}

// ctest's own ways to select tests. The command runs the suites' measuring entries and tells them the tests in its
// run manifest; one of these, given with --ctest-arg, would replace that selection (and undo a --shard split).
void refuse_selecting_ctest_args(const std::vector<std::string>& ctest_args) {
  const std::set<std::string> selecting{
      "-R", "--tests-regex",       "-E", "--exclude-regex", "-L",  "--label-regex",        "-LE", "--label-exclude",
      "-I", "--tests-information", "-U", "--union",         "-FA", "--fixture-exclude-any"};
  for (const std::string& arg : ctest_args) {
    const std::string option = arg.substr(0, arg.find('='));
    if (selecting.count(option) || (option.size() > 2 && selecting.count(option.substr(0, 2)) && option[1] != '-'))
      throw Refusal("--ctest-arg " + arg +
                    " selects tests, which is --filter's work: the command runs each suite's measuring entry and "
                    "selects its tests with --filter (GoogleTest's syntax), the same on every runner and shard");
  }
}

// A name as a ctest regular expression (POSIX extended) that matches it alone.
std::string ctest_literal(std::string_view name) {
  std::string out;
  for (const char c : name) {
    if (std::string_view("\\^$.|+()[]{}*?").find(c) != std::string_view::npos) out += '\\';
    out += c;
  }
  return out;
}

}  // namespace

int run_ctest(const SuiteRun& run, const fs::path& build, const fs::path& candidates, const fs::path& junit,
              bool strict, const std::string& log, bool attribute) {
  refuse_selecting_ctest_args(run.ctest_args);
  std::error_code ec;
  fs::remove_all(protocol::gtest_results(build), ec);  // no report of an earlier run may explain this one
  protocol::RunManifest manifest = command_run_manifest(run, build, candidates, strict, attribute);
  // The suites' measuring entries alone: each runs the tests the manifest's filter selects, and the command judges
  // every planned test itself from the plans and records (gate_summary.hpp). The per-test verdict entries serve
  // plain ctest runs; in the command's they would judge each test a second time, in a process of its own each.
  const std::string measuring_entries = std::string("^").append(ctest_literal(protocol::measure_test_prefix));
  // The suites' folders alone where the build lists them (bankgate_add_gpu_suite()), else the whole build.
  std::error_code no_list;
  const fs::path tests = fs::exists(protocol::measuring_tests(build) / "CTestTestfile.cmake", no_list)
                             ? protocol::measuring_tests(build)
                             : build;
  std::vector<std::string> ctest{
      build_tool(build, "ctest"), "--test-dir",     tests.string(), "-L", "^gpu$",          "--no-tests=error",
      "--output-on-failure",      "--output-junit", junit.string(), "-R", measuring_entries};
  if (!run.idle_measuring.empty()) {
    std::string idle;
    for (const std::string& name : run.idle_measuring) {
      if (!idle.empty()) idle += '|';
      idle += ctest_literal(name);
    }
    ctest.insert(ctest.end(), {"-E", std::string("^(").append(idle).append(")$")});
  }
  int parallel = run.parallel;
  if (!run.resource_spec.empty()) {
    ctest.insert(ctest.end(), {"--resource-spec-file", fs::absolute(run.resource_spec).string()});
    // The spec holds the suites' measuring runs to one per GPU; with a slot for each, no GPU waits on another.
    const int gpus = gpus_in_resource_spec(run.resource_spec);
    if (parallel == 0) parallel = gpus;
    manifest.gpus = gpus;  // a suite split into shards measures on all of them
  }
  if (parallel > 0) ctest.insert(ctest.end(), {"--parallel", std::to_string(parallel)});
  ctest.insert(ctest.end(), run.ctest_args.begin(), run.ctest_args.end());
  const fs::path manifest_file = protocol::command_manifest(build);
  fs::create_directories(manifest_file.parent_path());
  protocol::write_manifest(manifest_file, manifest);
  progress("bankgate: running: " + as_command_line(ctest) + (log.empty() ? "" : " > " + log));
  return run_program(ctest, log, {{env::run_manifest, manifest_file.string()}});
}

// Clears this run's folder, builds (unless asked not to) and runs the GPU tests, measurements going to the run's
// candidates and ctest's report to its ctest-junit.xml (its output to ctest.log with --quiet). With --shard, only
// this runner's part of them: returned, and where it is empty nothing runs. `attribute`: with per-line figures.
std::optional<g::ShardRecord> run_suites(const SuiteRun& run, const fs::path& build, const fs::path& results,
                                         bool strict, bool attribute, const fs::path& baselines) {
  // Refused before building or clearing.
  refuse_selecting_ctest_args(run.ctest_args);
  if (!run.resource_spec.empty()) gpus_in_resource_spec(run.resource_spec);
  const std::optional<ShardRequest> split = shard_request(run);
  // Cleared first: a build that fails leaves no earlier run's reports behind for CI to keep as this run's.
  std::error_code ec;
  fs::remove_all(results, ec);
  fs::create_directories(results);
  if (!run.no_build) build_project(build);
  SuiteRun part = run;
  // The folder the suite processes judge against: --baselines, where given, for every suite (else each its own).
  if (part.baseline_dir.empty() && !baselines.empty()) part.baseline_dir = fs::absolute(baselines);
  const std::optional<ShardSelection> shard =
      split ? std::optional<ShardSelection>(select_shard(*split, run, build, baselines)) : std::nullopt;
  if (shard && shard->record.suites.empty()) return shard->record;
  if (shard) {
    part.filter = shard->filter;
    part.idle_measuring = shard->idle_measuring;
  }
  const std::string log = console().quiet ? protocol::ctest_log(results).string() : "";
  run_ctest(part, build, protocol::run_candidates(results), protocol::ctest_junit(results), strict, log, attribute);
  return shard ? std::optional<g::ShardRecord>(shard->record) : std::nullopt;
}

bool has_candidates(const fs::path& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return false;
  for (const auto& entry : fs::recursive_directory_iterator(dir, ec))
    if (entry.path().extension() == ".json") return true;
  return false;
}

// Records in subfolders are copied too: the summary refuses a test's second record, and must see it to. A copy is
// a read: each file is read inside the records' folder like any input (a link is no record, and one leading out is
// never followed into the artifact), so a test whose record cannot be read has none there and is NOT MEASURED.
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

}  // namespace bankgate::cli
