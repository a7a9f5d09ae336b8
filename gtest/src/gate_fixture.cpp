#include <bankgate/gtest/gate_fixture.hpp>

#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <initializer_list>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <utility>

#include <bankgate/gate/store/baseline_folder.hpp>
#include <bankgate/gate/store/candidates.hpp>
#include <bankgate/gate/rules/baseline_changes.hpp>
#include <bankgate/gate/rules/comparison.hpp>
#include <bankgate/gate/rules/expectation_check.hpp>
#include <bankgate/gtest/device_lock.hpp>
#include <bankgate/gtest/prepared.hpp>
#include <bankgate/gtest/suite_config.hpp>
#include <bankgate/gate/rules/gpu_key.hpp>
#include <bankgate/gate/rules/instruction_lines.hpp>
#include <bankgate/gate/rules/line_comparison.hpp>
#include <bankgate/gate/reports/report.hpp>
#include <bankgate/gate/protocol/run_protocol.hpp>
#include <bankgate/gate/protocol/settings.hpp>
#include <bankgate/gate/rules/statistics.hpp>
#include <bankgate/metrics.hpp>

#include "case_check.hpp"
#include "case_record.hpp"
#include "case_verdict.hpp"
#include "fixture_console.hpp"

namespace bankgate::gtest {

using namespace bankgate::gate;
namespace {

namespace property = protocol::property;

// What every test in the process shares: settings, the device check and one collector. Each is tried once;
// a failure is kept and reported by every test rather than retried.
struct Session {
  std::optional<Settings> settings;
  std::string settings_error;
  std::optional<DeviceProbe> probe;
  std::unique_ptr<Collector> collector;
  std::optional<CollectorError> collector_error;
};

Session& session() {
  static Session s;
  return s;
}

// Where several shards of a suite start at once, one per GPU of this host (their manifest names claims), their CUDA
// start-ups take turns. The driver serialises much of a start-up across processes anyway; taking turns lets
// the first shard measure, and claim tests, while the next starts, instead of every shard finishing its
// start-up late and together.
std::optional<DeviceLock> take_start_up_turn(std::chrono::seconds timeout) {
  if (!claims_folder(process_environment)) return std::nullopt;
  return DeviceLock::acquire(default_device_lock_dir(), "host-start-up", DeviceLock::Wait::until_free, timeout);
}

// Runs a function when the scope ends, whichever way it ends (GoogleTest's fatal assertions return early).
class RunOnExit {
 public:
  explicit RunOnExit(std::function<void()> run) : run_(std::move(run)) {}
  ~RunOnExit() { run_(); }
  RunOnExit(const RunOnExit&) = delete;
  RunOnExit& operator=(const RunOnExit&) = delete;

 private:
  std::function<void()> run_;
};

// Why a test that cannot measure failed rather than skipped: the run asked for measurements (`bankgate gate` asks,
// and GPU CI should).
const std::string strict_note = std::string(" [a failure, not a skip: ") + protocol::env::require_gpu +
                                "=1 asks every GPU test to measure, as bankgate gate does]";

// A test that cannot measure is skipped, its reason printed once per process (fixture_console.hpp), with the
// setting that makes a run fail instead as an option, once too: a project's tests run on machines without a GPU
// as often as on GPU runners.
void skip_note_once(const std::string& reason) {
  if (print_once(reason))
    print_once(std::string("to make a test that cannot measure fail instead, as GPU CI should, set ") +
               protocol::env::require_gpu + "=1");
}

// The launches per sample of the test's baseline: the gate samples the way the baseline was sampled, since
// the comparison refuses samples taken with another k, and a kernel a little slower than its baseline might
// otherwise get another automatic k. An unreadable baseline leaves the choice to the collector; the
// comparison reports it later.
// The suite's baseline file as this process first read it. Every test of a suite is judged against the same file,
// read before its timing (launches per sample) and after it (the comparison): read per test, StrideWidth's 15 tests
// parsed its 220 KB 30 times. A file that changed since (its size or time) is read again.
const std::optional<SuiteFile>& stored_baseline(const std::filesystem::path& dir, const GpuKey& gpu,
                                                const std::string& suite, const Collector& collector) {
  struct Read {
    std::filesystem::file_time_type written;
    std::uintmax_t size = 0;
    std::optional<SuiteFile> file;
    std::string error;  // why it could not be used
  };
  static std::map<std::filesystem::path, Read> reads;
  const std::filesystem::path path = suite_file_path(dir, gpu, suite);
  std::error_code no_time, no_size;
  const auto written = std::filesystem::last_write_time(path, no_time);
  const std::uintmax_t size = std::filesystem::file_size(path, no_size);
  auto it = reads.find(path);
  if (it == reads.end() || it->second.written != written || it->second.size != size) {
    Read read{written, size, std::nullopt, ""};
    try {
      std::set<std::string> known(collector.metrics().begin(), collector.metrics().end());
      for (const auto& [name, unused] : launch_counters({})) known.emplace(name);
      read.file = BaselineFolder(dir).read(gpu, suite, &known);
    } catch (const BaselineError& e) {
      read.error = e.what();
    }
    it = reads.insert_or_assign(path, std::move(read)).first;
  }
  if (!it->second.error.empty()) throw BaselineError(it->second.error);
  return it->second.file;
}

std::optional<int> baseline_launches_per_sample(const std::filesystem::path& baseline_dir, const GpuKey& gpu,
                                                const std::string& suite, const std::string& test,
                                                const Collector& collector) {
  try {
    const std::optional<SuiteFile>& stored = stored_baseline(baseline_dir, gpu, suite, collector);
    if (!stored) return std::nullopt;
    if (const auto it = stored->tests.find(test); it != stored->tests.end() && it->second.timing)
      return it->second.timing->launches_per_sample;
  } catch (const std::exception&) {  // the comparison names what is wrong with the file
  }
  return std::nullopt;
}

RefreshContext how_to_refresh() {
  const SuiteConfig project = suite_config();
  return {project.command, project.build_dir};
}

double ms_between(std::chrono::steady_clock::time_point from, std::chrono::steady_clock::time_point to) {
  return std::chrono::duration<double, std::milli>(to - from).count();
}

// RecordProperty for the helpers below, which are not members of the fixture.
void record_property(const std::string& key, const std::string& value) { ::testing::Test::RecordProperty(key, value); }

// ---- The session: settings, device and collector, made by the first test that needs them -------------------

void load_settings_once(Session& s) {
  if (s.settings || !s.settings_error.empty()) return;
  try {
    const SuiteConfig project = suite_config();
    s.settings = load_settings(process_environment, project.baseline_dir, project.candidate_dir);
  } catch (const SettingsError& e) {
    s.settings_error = e.what();
  }
}

// The process's first CUDA call (the driver's initialisation), in this host's start-up turn, which is handed
// back in `turn` to be held until the collector is made. A turn that cannot be taken fails the test and leaves
// the probe unmade.
void probe_in_start_up_turn(Session& s, const Settings& config, std::optional<DeviceLock>& turn) {
  try {
    turn = take_start_up_turn(std::chrono::seconds(config.lock_timeout_s));
  } catch (const DeviceLockError& e) {
    GTEST_FAIL() << "cannot measure: " << e.what();
  }
  const auto start = std::chrono::steady_clock::now();
  s.probe = probe_device(config.device);
  record_property(property::device_probe_ms, format_number(ms_between(start, std::chrono::steady_clock::now())));
}

// "probe 0.1, context 70.2, ...": one name and value per phase, as the bench scripts read them.
std::string phases_text(std::initializer_list<std::pair<const char*, double>> phases) {
  std::string parts;
  for (const auto& [name, ms] : phases)
    parts += (parts.empty() ? "" : ", ") + std::string(name) + " " + format_number(ms);
  return parts;
}

std::string setup_phases_text(const SetupPhases& p) {
  return phases_text({{"probe", p.probe_ms},
                      {"context", p.context_ms},
                      {"profiler", p.profiler_ms},
                      {"profiler_initialise", p.profiler_initialize_ms},
                      {"counter_availability", p.counter_availability_ms},
                      {"metric_config", p.metric_config_ms},
                      {"profiler_enable", p.profiler_enable_ms},
                      {"flusher", p.flusher_ms},
                      {"timer", p.timer_ms}});
}

std::string counter_phases_text(const CounterPhases& p) {
  return phases_text({{"flush", p.flush_ms},
                      {"switch", p.switch_ms},
                      {"image", p.image_ms},
                      {"set_config", p.set_config_ms},
                      {"start", p.start_ms},
                      {"launch", p.launch_ms},
                      {"stop", p.stop_ms},
                      {"decode", p.decode_ms},
                      {"evaluate", p.evaluate_ms},
                      {"tma_traffic", p.tma_traffic_ms}});
}

std::string timing_phases_text(const TimingPhases& p) {
  return phases_text({{"calls", static_cast<double>(p.calls)},
                      {"launch", p.launch_ms},
                      {"wait", p.wait_ms},
                      {"records", p.records_ms},
                      {"clock", p.clock_ms}});
}

// The collector, made once; a failure is kept in the session for every test to report.
void set_up_collector_once(Session& s, const Settings& config) {
  if (s.collector || s.collector_error) return;
  try {
    const auto start = std::chrono::steady_clock::now();
    // A case launches one kernel, or the few a library call launches (gate() checks them against the case); more
    // than 8 fails, naming the limit. Room for two from the start: a pair (a kernel and its second pass) is common,
    // and growing the room costs a process a fresh profiler object (about 150 ms) where a second place costs each
    // call a fraction of a millisecond (bench/RESULTS-speed.md).
    s.collector = std::make_unique<Collector>(
        CollectorOptions{.device = config.device, .max_kernels_per_call = 8, .room_for_kernels = 2});
    const double setup_ms = ms_between(start, std::chrono::steady_clock::now());
    std::cout << "[bankgate] collector set up in " << format_number(setup_ms) << " ms (CUPTI, once per process)\n";
    record_property(property::collector_setup_ms, format_number(setup_ms));  // the first test of a process pays it
    record_property(property::collector_setup_phases_ms, setup_phases_text(s.collector->setup_phases()));
  } catch (const CollectorError& e) {
    s.collector_error = e;
  }
}

// ---- gate(): one case, phase by phase ---------------------------------------------------------------------------

// The test being gated, as messages and files name it.
struct CaseName {
  std::string suite;
  std::string test;
  std::string label;  // "suite.test"
};

CaseName current_case() {
  const ::testing::TestInfo* info = ::testing::UnitTest::GetInstance()->current_test_info();
  CaseName name{info->test_suite_name(), info->name(), ""};
  name.label = name.suite + "." + name.test;
  return name;
}

// The case's own run: poisoned outputs, one launch, the outputs against the CPU reference. Wrong output is a
// non-fatal failure: the case is still measured, and its record says the output was wrong.
::testing::AssertionResult run_and_check_output(const KernelCase& kc, const CaseName& name,
                                                std::chrono::steady_clock::time_point set_up_at) {
  const auto entered = std::chrono::steady_clock::now();
  record_property(property::prepare_ms, format_number(ms_between(set_up_at, entered)));
  kc.poison_output();
  kc.launch();
  const ::testing::AssertionResult output_ok = kc.check_output();
  const auto checked = std::chrono::steady_clock::now();
  record_property(property::output_check_ms, format_number(ms_between(entered, checked)));
  std::string kernels;
  for (const std::string& kernel : named_kernels(kc)) kernels += (kernels.empty() ? "" : ", ") + kernel;
  EXPECT_TRUE(output_ok) << name.suite << "." << name.test << ": "
                         << (kc.kernel_names.size() > 1 ? "kernels " : "kernel ") << kernels
                         << " produced wrong output";
  return output_ok;
}

// What the collector measured of the case, with the host time each part took.
struct Measurement {
  std::vector<KernelCounters> counters;
  std::vector<KernelTiming> timings;
  double counter_host_ms = 0.0;
  double timing_host_ms = 0.0;
  CounterPhases counter_phases;
};

// Counters, then durations, of the case's launch, sampled as its baseline was. A collector error fails the
// test and leaves `out` empty.
void measure(Collector& collector, const KernelCase& kc, const CaseName& name, const Settings& config,
             std::optional<Measurement>& out) {
  TimingOptions timing_options = kc.timing;
  if (timing_options.launches_per_sample == 0)
    if (const auto k = baseline_launches_per_sample(config.baseline_dir, gpu_key(collector.device()), name.suite,
                                                    name.test, collector))
      timing_options.launches_per_sample = *k;
  Measurement m;
  try {
    const auto start = std::chrono::steady_clock::now();
    m.counters = collector.collect_counters(name.label, kc.launch);
    const auto counted = std::chrono::steady_clock::now();
    m.counter_host_ms = ms_between(start, counted);
    m.counter_phases = collector.last_counter_phases();
    if (kc.more_placements.empty()) {
      m.timings = collector.time_launches(name.label, kc.launch, timing_options);
    } else {
      std::vector<std::function<void()>> placements{kc.launch};
      placements.insert(placements.end(), kc.more_placements.begin(), kc.more_placements.end());
      m.timings = collector.time_over_placements(name.label, placements, timing_options);
    }
    m.timing_host_ms = ms_between(counted, std::chrono::steady_clock::now());
  } catch (const CollectorError& e) {
    GTEST_FAIL() << name.label << ": measurement failed: " << e.what();
  }
  out = std::move(m);
}

// One measured case, from its record to its verdicts: the candidate file, the report of the measurement, the
// source's expectation and the comparison with the baseline.
class MeasuredCase {
 public:
  MeasuredCase(const KernelCase& kc, const CaseName& name, const Settings& config, Collector& collector,
               const Measurement& measurement, bool output_ok)
      : kc_(kc),
        name_(name),
        config_(config),
        collector_(collector),
        gpu_(gpu_key(collector.device())),
        timings_(measurement.timings),
        measured_(case_record(measurement.timings, measurement.counters, output_ok, kc)) {}

  void record();
  void report(const Measurement& measurement) const;
  void check_expectation() const;
  void find_baseline(std::optional<TestRecord>& baseline) const;
  void compare_with(const TestRecord& baseline);

 private:
  bool attribute();
  void keep_candidate() const;
  void report_timing(const std::string& label, const KernelRecord& kernel, const KernelTiming& timing,
                     double host_ms) const;
  std::filesystem::path baseline_file() const { return suite_file_path(config_.baseline_dir, gpu_, name_.suite); }

  const KernelCase& kc_;
  const CaseName& name_;
  const Settings& config_;
  Collector& collector_;
  const GpuKey gpu_;
  const std::vector<KernelTiming>& timings_;  // as the collector gave them: stopping rule, warm-up, clocks
  TestRecord measured_;
};

// Per-line figures: with every recording, so baselines carry them, and otherwise only once a counter has
// changed (compare_with), so a passing gate never pays for them. A failure to attribute fails the test but
// not the gate.
bool MeasuredCase::attribute() {
  try {
    const auto start = std::chrono::steady_clock::now();
    attach_lines(measured_, collector_.attribute_instructions(name_.label, kc_.launch), suite_config().source_dir);
    const double ms = ms_between(start, std::chrono::steady_clock::now());
    record_property(property::attribution_host_ms, format_number(ms));
    std::size_t lines = 0;
    for (const KernelRecord* kernel : measured_.kernels()) lines += kernel->lines.size();
    std::cout << "[bankgate] " << name_.label << ": per-line figures in " << format_number(ms) << " ms host time ("
              << lines << " source lines)\n";
    for (const KernelRecord* kernel : measured_.kernels())
      if (lacks_line_table(kernel->lines)) print_once(no_line_table_note(kernel->kernel));
    return true;
  } catch (const CollectorError& e) {
    ADD_FAILURE() << name_.label << ": per-line attribution failed: " << e.what();
    return false;
  }
}

void MeasuredCase::keep_candidate() const {
  Provenance provenance = device_provenance(collector_.device());
  // The commit of the build measured, as the bankgate command found it (or BANKGATE_GIT_COMMIT said): reports and
  // promoted baselines name what they measured.
  if (const SourceTree tree = source_tree(process_environment); tree.commit != "unknown") {
    provenance.git_commit = tree.commit;
    provenance.git_dirty = tree.dirty;
  }
  write_candidate(config_.candidate_dir, gpu_, provenance, name_.suite, name_.test, measured_, config_.baseline_dir);
}

// The measurement as a candidate for the refresh tool, whatever the verdict. A recording whose lines could not be
// attributed keeps none: a baseline without them would name no line when it fails, so the test is not measured.
void MeasuredCase::record() {
  if (config_.attribute && !attribute()) return;
  keep_candidate();
}

// The figures as test properties (the first kernel's, where the case launched several), and the cost of profiling
// and timing on the console: for users weighing the gate against running ncu (bench/collector-cost.sh), and for
// bench/timing-gate.sh, which reads the "timing in" figure.
void MeasuredCase::report(const Measurement& measurement) const {
  for (const auto& [name, value] : measured_.derived) record_property(name, format_number(value));
  const TimingSummary& timed = *measured_.timing;
  record_property(property::median_ns, format_number(timed.median_ns));
  record_property(property::counter_host_ms, format_number(measurement.counter_host_ms));
  record_property(property::timing_host_ms, format_number(measurement.timing_host_ms));
  record_property(property::counter_phases_ms, counter_phases_text(measurement.counter_phases));
  if (!timings_.empty()) record_property(property::timing_phases_ms, timing_phases_text(timings_.front().host));
  record_property(property::timing_samples, std::to_string(timed.samples));
  record_property(property::launches_per_sample, std::to_string(timed.launches_per_sample));
  record_property(property::warmup_launches, std::to_string(timed.warmup_launches));
  record_property(property::dropped_samples, std::to_string(timed.dropped_samples));
  record_property(property::sm_clock_mhz, format_number(timed.sm_clock_mhz));
  std::cout << "[bankgate] " << name_.label << ": counters in " << format_number(measurement.counter_host_ms)
            << " ms host time (" << collector_.passes() << " pass)\n";
  const std::vector<const KernelRecord*> kernels = measured_.kernels();
  const std::vector<std::string> labels = kernel_labels(measured_);
  for (std::size_t i = 0; i < kernels.size(); ++i)
    report_timing(kernels.size() == 1 ? name_.label : name_.label + " (kernel " + labels[i] + ")", *kernels[i],
                  timings_[i], measurement.timing_host_ms);
}

void MeasuredCase::report_timing(const std::string& label, const KernelRecord& kernel, const KernelTiming& timing,
                                 double host_ms) const {
  const TimingSummary& timed = *kernel.timing;
  char noise[32];
  std::snprintf(noise, sizeof noise, "%.2f%%", 100.0 * timing.relative_noise);
  std::cout << "[bankgate] " << label << ": timing in " << format_number(host_ms) << " ms: median "
            << format_number(timed.median_ns) << " ns (standard error " << format_number(timed.median_se_ns) << " ns), "
            << timed.samples << " samples of " << timed.launches_per_sample << " launch(es), L2 " << timed.l2
            << ", warm-up " << timed.warmup_launches << " launches, " << timed.dropped_samples << " dropped, SM clock "
            << (timed.sm_clock_mhz > 0.0 ? format_number(timed.sm_clock_mhz) + " MHz" : std::string("unknown"))
            << ", stopped: " << timing.stop_reason << " (noise " << noise << ")\n";
  if (!timing.warmup_stable)
    std::cout << "[bankgate] note: " << label << ": durations were still drifting when the warm-up time ran out\n";
  if (timing.clocked_down)
    std::cout
        << "[bankgate] warning: " << label << ": the GPU was clocked down (thermal, power or hardware slowdown) "
        << "during most of the timing; its durations are suspect. Check the machine (nvidia-smi -q -d PERFORMANCE)\n";
}

// The ratios the kernel's source states, where it states them: each that does not hold fails the test.
void MeasuredCase::check_expectation() const {
  const std::vector<const KernelRecord*> kernels = measured_.kernels();
  const std::vector<std::string> labels = kernel_labels(measured_);
  for (std::size_t i = 0; i < kernels.size(); ++i)
    for (const std::string& unmet : unmet_expectations(*kernels[i]))
      ADD_FAILURE() << name_.label << (kernels.size() == 1 ? "" : " (kernel " + labels[i] + ")") << ": " << unmet;
}

// The test's baseline. An unreadable baseline folder fails the test; a missing baseline skips it (fails it
// with BANKGATE_REQUIRE_GPU=1) with the command that records one. Either way `baseline` stays empty.
void MeasuredCase::find_baseline(std::optional<TestRecord>& baseline) const {
  const std::optional<SuiteFile>* stored = nullptr;
  try {
    stored = &stored_baseline(config_.baseline_dir, gpu_, name_.suite, collector_);
  } catch (const BaselineError& e) {
    GTEST_FAIL() << "unusable baseline: " << e.what();
  }
  if (const std::optional<SuiteFile>& read = *stored; read)
    if (const auto it = read->tests.find(name_.test); it != read->tests.end()) baseline = it->second;
  if (!baseline) {
    const DeviceInfo& device = collector_.device();
    const std::string message = "no baseline for " + name_.label + " on " + device.name + " (" + gpu_.arch + "/" +
                                gpu_.model + ") in " + baseline_file().string() +
                                "; record one with: " + refresh_command(how_to_refresh(), name_.suite, name_.test) +
                                (*stored ? "" : " --new-gpu");
    if (config_.require_gpu) GTEST_FAIL() << message << strict_note;
    GTEST_SKIP() << message;
  }
}

// Every finding beyond its tolerance fails the test; a faster run passes with a note.
void MeasuredCase::compare_with(const TestRecord& baseline) {
  const TestLocation where{name_.suite, name_.test, baseline_file(), how_to_refresh()};
  std::vector<Finding> findings = compare(baseline, measured_);
  CaseVerdict& verdict = running_case_verdict();
  verdict.compared = true;
  verdict.findings = findings;
  const bool counter_changed = std::any_of(findings.begin(), findings.end(), [&](const Finding& f) {
    return !f.timing && is_failure(f.verdict, config_.fail_on_speedup);
  });
  if (counter_changed && measured_.lines.empty() && attribute()) keep_candidate();  // the report shows the lines too
  for (const Finding& f : findings) {
    if (is_failure(f.verdict, config_.fail_on_speedup))
      ADD_FAILURE() << format_failure(where, f, measured_, baseline);
    else if (!f.timing && f.verdict == Verdict::pass && f.measured != f.baseline)
      std::cout << "[bankgate] note: " << name_.label << ": " << display_name(f.metric)
                << " changed within its tolerance (" << format_number(f.baseline) << " -> " << format_number(f.measured)
                << ", " << f.tolerance << ")\n";
    else if (f.verdict == Verdict::faster)
      std::cout << "[bankgate] note: " << name_.label << " is faster than its baseline (" << format_number(f.measured)
                << " ns vs " << format_number(f.baseline)
                << " ns); if intended, refresh: " << refresh_command(how_to_refresh(), name_.suite, name_.test) << "\n";
  }
  if (const auto raised = floor_raised_beyond_baseline(name_.test, baseline, measured_))
    ADD_FAILURE() << name_.label << ": its KernelCase raises the " << raised->figure << " from " << raised->before
                  << " (its baseline's) to " << raised->after
                  << ". bankgate compare takes the floor from the build it runs, so a raised floor must come through "
                     "the baseline, where the change is named LOOSENED for review. If intended, refresh: "
                  << refresh_command(how_to_refresh(), name_.suite, name_.test);
}

}  // namespace

const char* fixture_source_file() { return __FILE__; }

CaseVerdict& running_case_verdict() {
  static CaseVerdict verdict;
  return verdict;
}

const Settings& GateTest::settings() const { return *session().settings; }

void GateTest::SetUp() {
  join_session();
  set_up_at_ = std::chrono::steady_clock::now();
}

// The session's settings, device and collector, made by the first test and shared by the rest; what went
// wrong for the first is reported by every test. Fails or skips the test where it cannot measure.
void GateTest::join_session() {
  Session& s = session();
  load_settings_once(s);
  if (!s.settings) GTEST_FAIL() << "bad bankgate setting: " << s.settings_error;
  const Settings& config = *s.settings;

  std::optional<DeviceLock> start_up_turn;  // held until the collector is made, then released with this scope
  if (!s.probe) {
    probe_in_start_up_turn(s, config, start_up_turn);
    if (!s.probe) return;  // the turn could not be taken: the test has failed
  }
  if (!s.probe->available) {
    if (config.require_gpu) GTEST_FAIL() << "cannot measure: " << s.probe->reason << strict_note;
    const std::string reason = s.probe->reason + "; GPU tests are skipped";
    skip_note_once(reason);
    GTEST_SKIP() << reason;
  }
  start_preparations();  // the suite's shared inputs and references, made while CUDA and CUPTI start
  try {                  // one measuring test per GPU
    RecordProperty(property::device, hold_device_lock(config.device, s.probe->info.pci_bus_id,
                                                      std::chrono::seconds(config.lock_timeout_s)));
  } catch (const DeviceLockError& e) {
    GTEST_FAIL() << "cannot measure: " << e.what();
  }
  if (config.launch_only) {
    ASSERT_EQ(cudaSetDevice(config.device), cudaSuccess);
    return;
  }
  set_up_collector_once(s, config);
  if (s.collector_error) {
    if (!means_cannot_measure_here(s.collector_error->kind())) GTEST_FAIL() << s.collector_error->what();
    if (config.require_gpu) GTEST_FAIL() << "cannot measure: " << s.collector_error->what() << strict_note;
    skip_note_once(s.collector_error->what());
    GTEST_SKIP() << s.collector_error->what();
  }
}

namespace {

// The kernels this program holds, read once (kernels_in_this_program: no GPU needed).
const ProgramKernels& program_kernels() {
  static const ProgramKernels kernels = kernels_in_this_program();
  return kernels;
}

}  // namespace

// Check, measure, record, compare. A phase that fails or skips the test (GTEST_FAIL, GTEST_SKIP) returns
// only from itself, so each such phase leaves its result empty and the test returns here too.
void GateTest::gate(const KernelCase& kc) {
  const CaseName name = current_case();
  const std::string& label = name.label;
  if (const std::vector<std::string> problems = case_problems(kc, program_kernels()); !problems.empty()) {
    std::string text;
    for (const std::string& problem : problems) text += "\n  " + problem;
    GTEST_FAIL() << label << ": the case cannot be gated:" << text;
  }
  const Settings& config = settings();
  if (config.launch_only) {
    // The launch a gate measures, alone: an output check may launch kernels of its own (a comparison on the GPU,
    // a library's reference), which the external profiler would count as the case's.
    kc.poison_output();
    kc.launch();
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess) << label << ": the launch failed";
    GTEST_SKIP() << "launch-only mode (" << protocol::env::launch_only
                 << "=1): the kernel ran for an external profiler; nothing was gated, and its output was not checked";
  }
  const ::testing::AssertionResult output_ok = run_and_check_output(kc, name, set_up_at_);

  Collector& collector = *session().collector;
  std::optional<Measurement> measurement;
  measure(collector, kc, name, config, measurement);
  if (!measurement) return;  // the measurement failed, and with it the test
  // What the rest costs (candidate, baseline comparison, report), however the test ends.
  const RunOnExit record_rules_time{[measured_at = std::chrono::steady_clock::now()] {
    RecordProperty(property::gate_rules_ms, format_number(ms_between(measured_at, std::chrono::steady_clock::now())));
  }};
  std::vector<std::string> launched;
  for (const KernelTiming& timing : measurement->timings) launched.push_back(timing.kernel_name);
  ASSERT_EQ(measurement->counters.size(), launched.size()) << label << ": counters of " << measurement->counters.size()
                                                           << " kernel launches, durations of " << launched.size();
  if (const std::string mismatch = launch_mismatch(kc, launched); !mismatch.empty())
    GTEST_FAIL() << label << ": " << mismatch;
  // Code the driver compiled from the PTX of another architecture is not the build's: its counters would describe
  // other instructions, and a baseline recorded from it would hold them.
  for (const std::string& kernel : launched)
    if (const std::string why = collector.foreign_code(kernel); !why.empty())
      GTEST_FAIL() << label << " is not measured: " << why;

  MeasuredCase measured(kc, name, config, collector, *measurement, static_cast<bool>(output_ok));
  measured.record();
  running_case_verdict().measured = true;
  running_case_verdict().wrong_output = !output_ok;
  measured.report(*measurement);
  measured.check_expectation();
  // compare's rounds: the command judges the pooled rounds once; a round's comparison would be thrown away.
  if (config.measure_only) return;
  std::optional<TestRecord> baseline;
  measured.find_baseline(baseline);
  if (!baseline) return;  // none to compare with: the test has failed or been skipped
  measured.compare_with(*baseline);
}

}  // namespace bankgate::gtest
