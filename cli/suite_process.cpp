// run-suite, discover: a GPU suite runs as one process (CUPTI set-up, the first profiled kernel and a
// CUDA context paid once) while ctest still sees one test per GoogleTest test.
//
// bankgate_add_gpu_suite() registers, per suite, a measuring test (run-suite, holding a GPU) that the suite's
// per-test entries require as a ctest fixture; each per-test entry (verdict, commands/verdict.cpp) judges its test.
// A test that crashes its process, hangs in it, or leaves the CUDA context unusable, costs no other test its
// verdict: the runner charges it to the test that was running and continues the rest in a fresh process. Every
// test the plan names ends with a record: the suite process's, or run-suite's saying why there is none (a crash,
// a hang, the run's time running out before the test was reached).

#include <chrono>
#include <csignal>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <algorithm>
#include <set>
#include <sstream>
#include <utility>

#include <bankgate/gate/protocol/duration_confirmation.hpp>
#include <bankgate/gate/store/atomic_file.hpp>
#include <bankgate/gate/store/baseline_folder.hpp>
#include <bankgate/gate/store/candidates.hpp>
#include <bankgate/gate/protocol/run_manifest.hpp>
#include <bankgate/gate/protocol/run_protocol.hpp>
#include <bankgate/gate/protocol/settings.hpp>
#include <bankgate/gate/protocol/test_claims.hpp>
#include <bankgate/gate/protocol/test_plan.hpp>
#include <bankgate/gate/protocol/test_result.hpp>
#include <bankgate/gate/rules/test_filter.hpp>
#include <bankgate/gate/text/text.hpp>

#include "commands.hpp"
#include "driver_stub.hpp"
#include "process.hpp"

namespace bankgate::cli {
namespace {

namespace fs = std::filesystem;
namespace g = bankgate::gate;
namespace protocol = bankgate::gate::protocol;
namespace env = bankgate::gate::protocol::env;

std::pair<std::string, std::string> split_name(const std::string& name) {
  const auto dot = name.find('.');
  if (dot == std::string::npos) return {name, ""};
  return {name.substr(0, dot), name.substr(dot + 1)};
}

std::string describe_exit(int status) {
  if (status > 128) {
    const char* what = strsignal(status - 128);
    return "killed by signal " + std::to_string(status - 128) + (what ? " (" + std::string(what) + ")" : "");
  }
  return "exit status " + std::to_string(status);
}

void write_failure(const fs::path& results, const std::string& name, const std::string& message) {
  const auto [suite, test] = split_name(name);
  g::TestResultRecord entry;
  entry.suite = suite;
  entry.test = test;
  entry.outcome = g::Outcome::not_measured;
  entry.messages.push_back(message);
  g::write_result_record(results, entry);
}

// The suite's tests, all of them (the command's filter is ours to apply: GoogleTest's cannot name every test
// exactly). A program that cannot list them (missing, not starting, failing) is a set-up error: its
// tests must never vanish from ctest or pass unmeasured.
std::vector<std::string> list_tests(const fs::path& binary, const ChildEnvironment& environment) {
  if (!fs::exists(binary)) throw Refusal("no suite program at " + binary.string() + ": build the project first");
  const std::vector<std::string> argv{binary.string(), "--gtest_list_tests"};
  const std::string listing = program_output(argv, environment);
  if (listing.empty()) {
    const int status = run_program(argv, "/dev/null", environment);
    if (status == 127)
      throw Refusal(
          binary.string() +
          " could not start (exit status 127): it or a shared library it needs is missing; run it "
          "by hand to see which. Where that is libcuda.so.1 (a suite linking CUDA::cuda_driver, on a machine without "
          "the NVIDIA driver), install the driver, or a CUDA toolkit with its stub driver (stubs/libcuda.so), which "
          "bankgate_add_gpu_suite() then lets the suite start with");
    if (status != 0)
      throw Refusal(binary.string() + " --gtest_list_tests failed (" + describe_exit(status) +
                    "); run it by hand to see why");
  }
  return g::parse_gtest_list(listing);
}

// Shows the suite process only the GPU CTest gave this measuring run, as its device 0: its kernels are timed with
// the GPU visibility of a one-GPU machine (where baselines are usually taken), and CUDA initialises that GPU
// alone. Left alone when the user chose a device (BANKGATE_DEVICE) or CTest allocates nothing; an allocation the
// suite cannot use is reported by the suite's own tests.
void show_only_the_allotted_gpu(g::protocol::RunManifest& manifest, ChildEnvironment& environment) {
  if (g::device_chosen(g::process_environment)) return;
  std::optional<int> gpu;
  try {
    gpu = g::ctest_assigned_gpu(g::process_environment);
  } catch (const g::SettingsError&) {
    return;
  }
  if (!gpu) return;
  const auto visible = g::visible_devices_for(*gpu, g::visible_devices(g::process_environment));
  if (!visible) return;
  environment.emplace_back(env::cuda_visible_devices, *visible);
  manifest.device = 0;
}

// The folder where the shards of this command's run claim the suite's tests, or nullopt outside a command's
// run (no command manifest with a run id: plain ctest), where nothing would clear claims left by an earlier run.
std::optional<fs::path> claims_folder(const RunSuiteOptions& o) {
  std::optional<std::string> run;
  try {
    run = g::run_id(g::process_environment);
  } catch (const g::SettingsError& e) {
    throw Refusal(e.what());
  }
  if (!run) return std::nullopt;
  return protocol::suite_claims(o.results, o.binary.filename().string(), *run);
}

// A CMake bracket argument, whatever the text holds.
std::string bracket(const std::string& text) {
  std::string equals = "=";
  while (text.find("]" + equals + "]") != std::string::npos) equals += "=";
  return "[" + equals + "[" + text + "]" + equals + "]";
}

// How many of the suite's shards measure in this run: one a GPU of the run, at most --shards.
int measuring_shards(const RunSuiteOptions& o) {
  if (o.shards <= 1) return 1;
  if (o.shard >= o.shards)
    throw Refusal("--shard " + std::to_string(o.shard) + " is not below --shards " + std::to_string(o.shards));
  try {
    return std::min(o.shards, g::gpus_of_the_run(g::process_environment));
  } catch (const g::SettingsError& e) {
    throw Refusal(e.what());
  }
}

std::vector<std::string> every_nth(const std::vector<std::string>& tests, int first, int step) {
  std::vector<std::string> mine;
  for (std::size_t i = first; i < tests.size(); i += step) mine.push_back(tests[i]);
  return mine;
}

// The command's run manifest, where a command started this run; an empty one under plain ctest.
g::protocol::RunManifest command_manifest() {
  try {
    return g::protocol::run_manifest(g::process_environment).value_or(g::protocol::RunManifest{});
  } catch (const g::SettingsError& e) {
    throw Refusal(e.what());
  }
}

// What the suite processes are started with: the command's run manifest plus where results go, the file that
// names the test in progress, the shard's claims and the GPU it sees, written as their own manifest.
struct SuiteProcessSetup {
  fs::path running;              // names the test in progress
  ChildEnvironment environment;  // the manifest's name, the GPU it sees, the driver stub where needed
};

// Makes the results folder ready and the suite processes' manifest (the command's, or `base` where given).
SuiteProcessSetup prepare_run(const RunSuiteOptions& o, const std::vector<std::string>& tests,
                              const std::optional<fs::path>& claims, ChildEnvironment environment,
                              const std::optional<g::protocol::RunManifest>& base = std::nullopt) {
  fs::create_directories(o.results);
  const std::string program = o.binary.filename().string();
  g::protocol::RunManifest manifest = base ? *base : command_manifest();
  manifest.results_dir = fs::absolute(o.results);
  manifest.running_file = fs::absolute(protocol::running_file(o.results, program, o.shard));
  if (!claims) {
    for (const std::string& name : tests) {
      const auto [suite, test] = split_name(name);
      std::error_code ec;
      fs::remove(g::test_result_path(o.results, suite, test), ec);  // no earlier run may answer for this one
    }
  } else {  // a shard removes a test's old result as it claims the test
    manifest.claims_dir = fs::absolute(*claims);
    manifest.shard = o.shard;
  }
  show_only_the_allotted_gpu(manifest, environment);
  const fs::path file = protocol::process_manifest(o.results, program, o.shard);
  g::protocol::write_manifest(file, manifest);
  environment.emplace_back(env::run_manifest, fs::absolute(file).string());
  return {*manifest.running_file, std::move(environment)};
}

using Clock = std::chrono::steady_clock;

// The test the running file names ("" where none: before the first test, between two).
std::string running_test(const fs::path& running) {
  std::string name;
  std::ifstream(running) >> name;
  return name;
}

// A suite process let go as it exits (hand_over_exit), not yet reaped: the next one waits for it. run-suite itself
// leaves it when it ends, so that ctest and the command go on while the driver releases its context.
pid_t exiting_suite = 0;

// The exit status a suite process handed over as it finished its tests, where its running file says so.
std::optional<int> finished_status(const fs::path& running) {
  std::string marker;
  int status = 0;
  std::ifstream in(running);
  if (in >> marker >> status && marker == g::protocol::finished_marker) return status;
  return std::nullopt;
}

// Runs the chosen tests in as few suite processes as crashes and hangs allow: a process that dies, or that
// run-suite kills because a test runs past the test timeout, is charged to the test it was running (the running
// file names it) and the rest go on in a fresh process. Where the run's own time runs out first, every test left
// gets a record saying so.
class SuiteRunner {
 public:
  SuiteRunner(const RunSuiteOptions& o, std::vector<std::string> listed, std::optional<fs::path> claims,
              SuiteProcessSetup setup, std::optional<Clock::time_point> deadline)
      : o_(o),
        listed_(std::move(listed)),
        claims_(std::move(claims)),
        running_(std::move(setup.running)),
        environment_(std::move(setup.environment)),
        deadline_(deadline) {}

  void run(std::vector<std::string> remaining);
  bool holds(const std::string& name) const { return held_by(name) == o_.shard; }
  // The one-line account of the run: how many of `tests` this shard measured, in how many processes.
  void report(const std::vector<std::string>& tests) const;

 private:
  // Why run-suite ended a suite process itself.
  enum class Ending { none, hung, out_of_time };

  int run_process(const std::vector<std::string>& selection);
  bool watch(std::string& seen, Clock::time_point& since);
  bool go_on_after(int status, std::size_t before, std::vector<std::string>& remaining);
  void charge_out_of_time(const std::vector<std::string>& remaining, const std::string& culprit) const;
  std::string how_it_ended(int status) const;
  std::optional<int> held_by(const std::string& name) const;
  bool finished(const std::string& name) const;
  void charge(const std::string& name, const std::string& message) const;

  const RunSuiteOptions& o_;
  const std::vector<std::string> listed_;  // every test of the program, from which a process's filter picks
  const std::optional<fs::path> claims_;
  const fs::path running_;
  const ChildEnvironment environment_;
  const std::optional<Clock::time_point> deadline_;
  Ending ending_ = Ending::none;
  int processes_ = 0, crashes_ = 0, hangs_ = 0;
};

void SuiteRunner::run(std::vector<std::string> remaining) {
  while (!remaining.empty()) {
    const int status = run_process(remaining);
    const std::size_t before = remaining.size();
    std::erase_if(remaining, [this](const std::string& name) { return finished(name); });
    if (remaining.empty() || !go_on_after(status, before, remaining)) break;
  }
}

// One suite process over exactly the selected tests, watched; its exit status. Where GoogleTest's filter cannot
// select them apart from another test of the program, each is charged with that instead of running with it.
int SuiteRunner::run_process(const std::vector<std::string>& selection) {
  const std::optional<std::string> filter = g::exact_gtest_filter(selection, listed_);
  if (!filter) {
    for (const std::string& name : selection)
      charge(name, "GoogleTest's filter cannot run this test without another of " + o_.binary.filename().string() +
                       " whose name differs from it only in the characters * ? : - (which that filter cannot "
                       "name); rename one of them");
    return exit_ok;
  }
  // The process let go before this one (this runner's, or the run's before a confirming one) ends first: two
  // processes of a suite never hold the GPU at once.
  if (exiting_suite != 0) reap_child(std::exchange(exiting_suite, 0), std::chrono::seconds(o_.test_timeout));
  std::error_code ec;
  fs::remove(running_, ec);
  ending_ = Ending::none;
  std::string seen;
  Clock::time_point since = Clock::now();
  std::optional<int> handed_over;  // the status the process wrote as it finished (g::protocol::finished_marker)
  const Watched ended = run_program_watched({o_.binary.string(), "--gtest_filter=" + *filter}, environment_, [&] {
    if ((handed_over = finished_status(running_))) return Watching::let_go;
    return watch(seen, since) ? Watching::kill : Watching::go_on;
  });
  ++processes_;
  exiting_suite = ended.let_go;
  // The marker, whether the process was let go or ended before it was seen: no test of it is running.
  if (handed_over || finished_status(running_)) fs::remove(running_, ec);
  return ended.status ? *ended.status : *handed_over;
}

// Whether the suite process must be ended now: the run's time is out, or the same test (or no test at all) has
// been running for the test timeout. `seen` and `since` are the test last seen running and since when.
bool SuiteRunner::watch(std::string& seen, Clock::time_point& since) {
  const std::string now_running = running_test(running_);
  const Clock::time_point now = Clock::now();
  if (now_running != seen) {
    seen = now_running;
    since = now;
  }
  if (deadline_ && now >= *deadline_)
    ending_ = Ending::out_of_time;
  else if (now - since >= std::chrono::seconds(o_.test_timeout))
    ending_ = Ending::hung;
  return ending_ != Ending::none;
}

std::string SuiteRunner::how_it_ended(int status) const {
  if (ending_ == Ending::hung)
    return "killed by run-suite after " + std::to_string(o_.test_timeout) + " s without a test ending (--test-timeout)";
  return describe_exit(status);
}

// After a process that left tests unfinished (`before` of them were left before it): where it died or hung in a
// test, that test is charged and the rest go on (true); where it ended normally, died before its first test or ran
// out of the run's time, every test left is charged and the run stops (false).
bool SuiteRunner::go_on_after(int status, std::size_t before, std::vector<std::string>& remaining) {
  const std::string culprit = running_test(running_);
  if (ending_ == Ending::out_of_time) {
    charge_out_of_time(remaining, culprit);
    return false;
  }
  if (status == 0) {
    for (const std::string& name : remaining)
      charge(name, "the suite process ended (exit status 0) without running this test");
    return false;
  }
  if (!culprit.empty() && std::find(remaining.begin(), remaining.end(), culprit) != remaining.end()) {
    const bool hung = ending_ == Ending::hung;
    ++(hung ? hangs_ : crashes_);
    charge(culprit, (hung ? "the test hung: it ran for " + std::to_string(o_.test_timeout) +
                                " s without ending (run-suite --test-timeout), and its suite process was killed"
                          : "the suite process died during this test (" + describe_exit(status) + ")") +
                        "; the suite's other tests kept their verdicts, and those after it ran in a fresh process");
    std::cout << "[bankgate] " << culprit << ": " << (hung ? "it hung" : "its process died") << " ("
              << how_it_ended(status) << "); continuing the suite's remaining tests in a fresh process\n";
    std::erase(remaining, culprit);
    return true;
  }
  if (remaining.size() == before) {  // no test ran and none to charge: it failed before its first test
    for (const std::string& name : remaining)
      charge(name, "the suite process ended (" + how_it_ended(status) +
                       ") before running this test; its output is in the measuring test's log");
    return false;
  }
  return true;
}

// The run's time ran out (the measuring test's ctest TIMEOUT, less what run-suite keeps to write these): the test
// running is charged with it, and each test not reached says so. Where shards claim tests, a test no shard has
// taken is left to the others, which may still reach it.
void SuiteRunner::charge_out_of_time(const std::vector<std::string>& remaining, const std::string& culprit) const {
  const std::string timeout = "the measuring test's ctest TIMEOUT of " + std::to_string(o_.timeout) + " s";
  std::cout << "[bankgate] " << o_.binary.filename().string() << ": the run's time ran out (" << timeout << "); "
            << remaining.size() << " test(s) unfinished, each recorded as not measured\n";
  for (const std::string& name : remaining) {
    if (name == culprit)
      charge(name, "the run's time ran out during this test (" + timeout + "): its suite process was killed");
    else if (!claims_ || holds(name))
      charge(name, "never reached: the run's time ran out (" + timeout + ") before this test started");
  }
}

// The shard that holds the test: this one where shards do not claim tests; none where no shard has claimed it.
std::optional<int> SuiteRunner::held_by(const std::string& name) const {
  try {
    return claims_ ? g::test_claimant(*claims_, name) : std::optional<int>(o_.shard);
  } catch (const g::ClaimError& e) {
    throw Refusal(e.what());
  }
}

bool SuiteRunner::finished(const std::string& name) const {
  const auto holder = held_by(name);
  if (holder && *holder != o_.shard) return true;  // another shard's test: its verdict is that shard's concern
  const auto [suite, test] = split_name(name);
  return holder && fs::exists(g::test_result_path(o_.results, suite, test));
}

// Writes a failure as `name`'s result; where shards claim tests, only for a test this shard holds or can take.
void SuiteRunner::charge(const std::string& name, const std::string& message) const {
  try {
    if (claims_ && !g::claim_test(*claims_, name, o_.shard)) return;
  } catch (const g::ClaimError& e) {
    throw Refusal(e.what());
  }
  write_failure(o_.results, name, message);
}

void SuiteRunner::report(const std::vector<std::string>& tests) const {
  const auto measured_here =
      std::count_if(tests.begin(), tests.end(), [&](const std::string& name) { return held_by(name) == o_.shard; });
  std::cout << "bankgate run-suite: " << g::counted(static_cast<std::size_t>(measured_here), "test") << " of "
            << o_.binary.filename().string()
            << (o_.shards > 1 ? " (shard " + std::to_string(o_.shard) + ")" : std::string()) << " in " << processes_
            << " process(es)" << (crashes_ ? ", " + std::to_string(crashes_) + " crashed" : std::string())
            << (hangs_ ? ", " + std::to_string(hangs_) + " hung" : std::string()) << "\n";
}

// The tests of this shard whose only failure is a slower duration (duration_confirmation.hpp).
std::vector<std::string> slower_alone(const RunSuiteOptions& o, const std::vector<std::string>& tests) {
  std::vector<std::string> slower;
  for (const std::string& name : tests) {
    const auto [suite, test] = split_name(name);
    try {
      const auto record = g::read_result_record(g::test_result_path(o.results, suite, test));
      if (record && g::slower_duration_alone(*record)) slower.push_back(name);
    } catch (const g::ResultRecordError&) {
      // an unreadable record is the verdict step's to report
    }
  }
  return slower;
}

// The test's record in each process folder that measured and compared it (the first run's first), with its folder.
struct ProcessRecords {
  std::vector<g::TestResultRecord> records;
  std::vector<fs::path> folders;
};
ProcessRecords records_of(const std::vector<fs::path>& folders, const std::string& name) {
  const auto [suite, test] = split_name(name);
  ProcessRecords found;
  for (const fs::path& folder : folders) try {
      const auto record = g::read_result_record(g::test_result_path(folder, suite, test));
      if (record && (record->outcome == g::Outcome::passed || record->outcome == g::Outcome::regressed)) {
        found.records.push_back(*record);
        found.folders.push_back(folder);
      }
    } catch (const g::ResultRecordError&) {
      // a process whose record cannot be read is no evidence either way
    }
  return found;
}

// The chosen process's measurement as the run's candidate of the test, in place of the first process's.
void keep_candidate_of(const fs::path& from, const fs::path& to, const std::string& name) {
  const auto [suite, test] = split_name(name);
  for (const g::GpuKey& gpu : g::gpu_folders(from)) {
    const auto files = g::read_candidates(from, gpu);
    const auto file = files.find(suite);
    if (file == files.end()) continue;
    const auto record = file->second.tests.find(test);
    if (record != file->second.tests.end())
      g::write_candidate(to, gpu, file->second.provenance, suite, test, record->second, file->second.baseline_dir);
  }
}

// A test whose only failure is a slower duration is measured again in up to `confirm_processes` fresh processes
// (each into a folder of its own) until one is not slower; the fastest process's record and candidate stand.
void confirm_slower_durations(const RunSuiteOptions& o, const std::vector<std::string>& listed,
                              const std::vector<std::string>& tests, const ChildEnvironment& stub,
                              std::optional<Clock::time_point> deadline) {
  const g::protocol::RunManifest command = command_manifest();
  const int wanted = command.confirm_processes.value_or(0);
  std::vector<std::string> suspects = slower_alone(o, tests);
  if (wanted == 0 || suspects.empty() || !command.candidate_dir) return;
  std::vector<fs::path> folders{o.results};
  std::vector<std::string> remaining = suspects;
  const auto time_left = [&] { return !deadline || Clock::now() < *deadline; };
  for (int n = 1; n <= wanted && !remaining.empty() && time_left(); ++n) {
    std::cout << "[bankgate] " << g::counted(remaining.size(), "test")
              << " slower than their baseline: measuring again in fresh "
              << "process " << n << " of at most " << wanted << "\n";
    // Beside the results folder, never in it: every record there is a verdict of this run.
    RunSuiteOptions again = o;
    again.results = fs::absolute(o.results).parent_path() / "confirm" /
                    (o.binary.filename().string() + "." + std::to_string(o.shard) + "." + std::to_string(n));
    std::error_code ec;
    fs::remove_all(again.results, ec);
    g::protocol::RunManifest manifest = command;
    manifest.candidate_dir = fs::absolute(again.results / "candidates");
    manifest.confirm_processes.reset();
    SuiteRunner runner(again, listed, std::nullopt, prepare_run(again, remaining, std::nullopt, stub, manifest),
                       deadline);
    runner.run(remaining);
    folders.push_back(again.results);
    std::erase_if(remaining, [&](const std::string& name) {
      const ProcessRecords found = records_of({again.results}, name);
      return !found.records.empty() && !g::slower_duration_alone(found.records.front());
    });
  }
  for (const std::string& name : suspects) {
    const ProcessRecords found = records_of(folders, name);
    if (found.records.empty()) continue;
    const g::ConfirmedDuration c = g::confirm_by_fastest_process(found.records);
    g::write_result_record(o.results, g::confirmed_record(found.records));
    std::cout << "[bankgate] " << name << ": " << c.note << "\n";
    if (found.folders[c.chosen] != o.results)
      keep_candidate_of(found.folders[c.chosen] / "candidates", *command.candidate_dir, name);
  }
}

// The suite's tests, listed once by the program itself; the plan's are those the command's filter selects. A
// program that cannot list them leaves a plan that says so, so that the summary names the suite rather than
// miss its tests.
std::vector<std::string> listed_tests(const RunSuiteOptions& o, const std::string& filter,
                                      const ChildEnvironment& stub) {
  try {
    return list_tests(o.binary, stub);
  } catch (const Refusal& e) {
    g::write_plan(o.results, {o.binary.filename().string(), o.shard, filter, {}, e.what()});
    throw;
  }
}

// When run-suite ends its suite process itself: before the measuring test's ctest TIMEOUT, keeping a tenth of it
// (at most 30 s) to write the unfinished tests' records, which a process ctest kills could not; nullopt without one.
std::optional<Clock::time_point> run_deadline(const RunSuiteOptions& o) {
  if (o.timeout <= 0) return std::nullopt;
  const std::chrono::milliseconds total = std::chrono::seconds(o.timeout);
  return Clock::now() + total - std::min<std::chrono::milliseconds>(total / 10, std::chrono::seconds(30));
}

}  // namespace

// Choose the tests this shard measures, then run them.
int run_suite(const RunSuiteOptions& o) {
  const std::optional<Clock::time_point> deadline = run_deadline(o);
  const std::string filter = command_manifest().suite_filter;
  // An idle shard is decided before the suite is listed: a one-GPU run of a suite with many shards then pays
  // nothing for the idle ones.
  const int used = measuring_shards(o);
  if (o.shards > 1 && o.shard >= used) {
    std::cout << "bankgate run-suite: shard " << o.shard << " of " << o.binary.filename().string()
              << " has nothing to do: " << used << " GPU(s) in this run, so " << used << " of its " << o.shards
              << " shards measure\n";
    return exit_ok;
  }
  const ChildEnvironment stub = driver_stub_where_no_driver(o.driver_stub);
  if (!stub.empty())
    std::cout << "bankgate run-suite: no CUDA driver here (libcuda.so.1 cannot be loaded): "
              << o.binary.filename().string()
              << " runs with the CUDA toolkit's stub driver, so its tests report Skipped\n";
  const std::vector<std::string> listed = listed_tests(o, filter, stub);
  std::vector<std::string> tests;
  std::copy_if(listed.begin(), listed.end(), std::back_inserter(tests),
               [&](const std::string& name) { return g::matches_filter(name, filter); });
  // Shards of one command's run (its manifest's run id) share the tests out as they go (gate/protocol/test_claims.hpp);
  // otherwise each takes every used-th test, which every shard can work out alone.
  const std::optional<fs::path> claims = used > 1 ? claims_folder(o) : std::nullopt;
  if (used > 1 && !claims) tests = every_nth(tests, o.shard, used);
  g::write_plan(o.results, {o.binary.filename().string(), o.shard, filter, tests, ""});
  if (tests.empty()) {
    std::cout << "bankgate run-suite: " << o.binary.filename().string() << " has no test for the filter '" << filter
              << "'\n";
    return exit_ok;
  }
  SuiteRunner runner(o, listed, claims, prepare_run(o, tests, claims, stub), deadline);
  runner.run(tests);
  runner.report(tests);
  std::erase_if(tests, [&](const std::string& name) { return !runner.holds(name); });
  confirm_slower_durations(o, listed, tests, stub, deadline);
  return exit_ok;
}

// The kernel names the suite's sources give their cases, against its own device code, by the suite program itself
// (gtest/src/kernel_name_check.hpp), started as for listing: a misspelt name fails the build.
void check_kernel_names(const DiscoverOptions& o, const ChildEnvironment& environment) {
  if (o.sources.empty() || !fs::exists(o.binary)) return;
  std::string sources;
  for (const fs::path& s : o.sources) sources += (sources.empty() ? "" : ";") + s.string();
  const int status = run_program({o.binary.string(), "--bankgate-check-kernel-names=" + sources}, "", environment);
  if (status != 0)
    throw Refusal(o.binary.string() + ": a kernel name its sources give matches no kernel of its device code (above)");
}

int discover(const DiscoverOptions& o) {
  const ChildEnvironment environment = driver_stub_where_no_driver(o.driver_stub);
  check_kernel_names(o, environment);
  const std::vector<std::string> tests = list_tests(o.binary, environment);
  std::ostringstream out;
  out << "# Generated by bankgate discover from " << o.binary.string() << "; do not edit.\n";
  std::string labels;
  for (const std::string& l : o.labels) labels += (labels.empty() ? "" : ";") + l;
  std::string judged_against;
  if (!o.candidates.empty()) judged_against += " --candidates " + bracket(o.candidates.string());
  if (!o.baselines.empty()) judged_against += " --baselines " + bracket(o.baselines.string());
  for (const std::string& name : tests) {
    out << "add_test(" << bracket(name) << " " << bracket(this_command()) << " verdict --results "
        << bracket(o.results.string()) << " --test " << bracket(name) << judged_against << ")\n";
    // A skip is the record's, told by verdict's exit code: never text matched in the output, which a failure
    // message of the test's own could imitate.
    out << "set_tests_properties(" << bracket(name) << " PROPERTIES FIXTURES_REQUIRED " << bracket(o.fixture)
        << " LABELS " << bracket(labels) << " SKIP_RETURN_CODE " << protocol::exit_skipped << " TIMEOUT 60)\n";
  }
  g::write_file_atomically(o.out, [&](std::ostream& file) { file << out.str(); });
  return exit_ok;
}

}  // namespace bankgate::cli
