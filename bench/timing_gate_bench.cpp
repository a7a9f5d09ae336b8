// bankgate-timing-bench: how well the timing gate separates a slower kernel from noise, on this GPU.
//
//   bankgate-timing-bench [--out DIR] [--trials N] [--rounds R] [--max-seconds S] [--device N]
//
// A kernel with a tunable amount of work (kernels/tunable_work.cu) is set to about 1 us ("short") and about
// 60 us ("long"). For each, variants with 1, 2, 3, 5 and 10% more work are calibrated (the achieved slowdown
// is measured and printed, not assumed), then every level is tried N times, base and slowed interleaved, and
// judged by the gate's own rule (bankgate::gate::compare) two ways:
//   same runner   R runs of base and R of the slowed kernel, pooled per side: what ci/compare-commits.sh does
//   vs baseline   one run of the slowed kernel against the summary of a base run measured before all
//                 trials: what the gate does against a committed baseline
// A third judgement takes the same-runner rounds by their own round-to-round noise (round_judgement.hpp), as
// bankgate compare does. Level 0 is base against base: every SLOWER there is a false alarm. A last column shows what the same rule
// would decide with the absolute part of the tolerance divided by the launches per sample (64/k ns), as
// evidence for choosing the tolerance; it is not the gate's verdict. Each run is timed exactly as a GPU test
// times its kernel (the default TimingOptions, launches per sample fixed after the first base run, as the
// gate fixes it to the baseline's).
//
// Prints a table and writes timing-gate-bench.json and timing-gate-bench.md into DIR. Exit 0 on success, 2
// when it cannot measure (no GPU, no permission), 1 when the kernel computes a wrong result.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <bankgate/collector.hpp>
#include <bankgate/gate/rules/baseline.hpp>
#include <bankgate/gate/rules/comparison.hpp>
#include <bankgate/gate/reports/report.hpp>
#include <bankgate/gate/reports/table.hpp>
#include <bankgate/gate/rules/round_judgement.hpp>
#include <bankgate/gate/rules/statistics.hpp>
#include <bankgate/kernels/device_buffer.hpp>
#include <bankgate/kernels/tunable_work.cuh>

namespace {

namespace fs = std::filesystem;
namespace h = bankgate::gate;
namespace k = bankgate::kernels;
using json = nlohmann::json;

struct Options {
  fs::path out = "build/timing-bench";
  int trials = 40;
  int rounds = 5;              // per side, as bankgate compare
  double max_seconds = 240.0;  // stop adding trials after this much wall time (all levels keep equal counts)
  int device = 0;
};

[[noreturn]] void usage(const std::string& problem) {
  std::cerr << "bankgate-timing-bench: " << problem
            << "\nusage: bankgate-timing-bench [--out DIR] [--trials N] [--rounds R] [--max-seconds S] [--device N]\n";
  std::exit(2);
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const auto value = [&]() -> std::string {
      if (i + 1 >= argc) usage(arg + " needs a value");
      return argv[++i];
    };
    try {
      if (arg == "--out")
        o.out = value();
      else if (arg == "--trials")
        o.trials = std::stoi(value());
      else if (arg == "--rounds")
        o.rounds = std::stoi(value());
      else if (arg == "--max-seconds")
        o.max_seconds = std::stod(value());
      else if (arg == "--device")
        o.device = std::stoi(value());
      else
        usage("unknown option '" + arg + "'");
    } catch (const std::logic_error&) {
      usage(arg + " needs a number");
    }
  }
  if (o.trials < 1 || o.rounds < 1 || o.max_seconds <= 0)
    usage("--trials, --rounds and --max-seconds must be positive");
  return o;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

std::string percent(double fraction, int decimals = 1) {
  char text[32];
  std::snprintf(text, sizeof text, "%+.*f%%", decimals, 100.0 * fraction);
  return text;
}

// One timing run of the kernel at `iterations`, exactly as a GPU test takes it.
struct Run {
  std::vector<double> samples;
  int launches_per_sample = 1;
  double host_ms = 0.0;
  std::size_t dropped = 0;
  double sm_clock_mhz = 0.0;
  bool converged = false;
};

class Bench {
 public:
  Bench(bankgate::Collector& collector, int blocks, float* out) : collector_(collector), blocks_(blocks), out_(out) {}

  Run run(int iterations, int launches_per_sample, bankgate::L2State l2 = bankgate::L2State::warm) {
    bankgate::TimingOptions options;  // the gate's defaults
    options.launches_per_sample = launches_per_sample;
    options.l2 = l2;
    const auto start = std::chrono::steady_clock::now();
    const auto timings = collector_.time_launches(
        "bench", [&] { k::launch_tunable_work(out_, iterations, blocks_); }, options);
    Run r;
    r.host_ms = 1000.0 * seconds_since(start);
    const bankgate::KernelTiming& t = timings.at(0);
    r.samples = t.durations_ns;
    r.launches_per_sample = t.launches_per_sample;
    r.dropped = t.dropped_samples;
    r.sm_clock_mhz = t.sm_clock_mhz;
    r.converged = t.converged;
    return r;
  }

  // Iterations whose median duration comes closest to `target_ns`, searched within 1% of the duration around
  // `estimate`. Short kernels' durations do not follow the iteration count in exact proportion at the scale
  // of a few nanoseconds, so a slowdown is set by measuring, not by arithmetic alone.
  int closest(int estimate, double target_ns, double ns_per_iteration, int launches_per_sample) {
    const int span = std::max(2, static_cast<int>(std::lround(0.01 * target_ns / ns_per_iteration)));
    const int step = std::max(1, span / 4);
    int best = estimate;
    double best_error = std::abs(median_ns(estimate, launches_per_sample, 2) - target_ns);
    for (int n = std::max(1, estimate - span); n <= estimate + span; n += step) {
      if (n == estimate) continue;
      const double error = std::abs(median_ns(n, launches_per_sample, 2) - target_ns);
      if (error < best_error) best = n, best_error = error;
    }
    return best;
  }

  double median_ns(int iterations, int launches_per_sample, int repeats = 3) {
    std::vector<double> medians;
    for (int i = 0; i < repeats; ++i) medians.push_back(h::median(run(iterations, launches_per_sample).samples));
    return h::median(medians);
  }

 private:
  bankgate::Collector& collector_;
  int blocks_;
  float* out_;
};

// A test record holding only a duration, the way the gate and `bankgate compare` see one.
h::TestRecord record_of(const std::vector<double>& samples, int launches_per_sample) {
  h::TestRecord r;
  r.kernel = std::string(k::tunable_work_kernel_name);
  r.correct = true;
  h::TimingSummary t = h::summarize_durations(samples);
  t.launches_per_sample = launches_per_sample;
  r.timing = t;
  r.samples_ns = samples;
  return r;
}

// The same baseline with the absolute part of its tolerance divided by the launches per sample: what the gate
// would decide if that part (two timer ticks, against single-launch quantization) shrank with batching.
// Reported next to the gate's own verdicts, as evidence for choosing the tolerance; not the gate's rule.
h::TestRecord with_scaled_absolute(h::TestRecord baseline) {
  baseline.timing->tolerance.absolute_ns /= baseline.timing->launches_per_sample;
  return baseline;
}

h::Verdict timing_verdict(const h::TestRecord& baseline, const h::TestRecord& measured) {
  for (const h::Finding& f : h::compare(baseline, measured))
    if (f.timing) return f.verdict;
  return h::Verdict::not_measured;
}

struct Level {
  double intended = 0.0;  // fraction: 0.05 = 5% slower
  int iterations = 0;
  std::vector<double> ratios;  // per trial: pooled head median / pooled base median
  int trials = 0;
  int same_runner_slower = 0, same_runner_faster = 0, same_runner_undecided = 0;
  int vs_baseline_slower = 0, vs_baseline_faster = 0, vs_baseline_undecided = 0;
  int same_runner_slower_scaled = 0, vs_baseline_slower_scaled = 0, faster_scaled = 0, undecided_scaled = 0;
  // The same rounds judged by their own round-to-round noise (judge_rounds: what bankgate compare decides).
  int rounds_slower = 0, rounds_faster = 0, rounds_inconclusive = 0;
};

struct Config {
  std::string name;
  double target_ns = 0.0;
  int base_iterations = 0;
  double base_median_ns = 0.0;
  double cold_median_ns = 0.0, cold_host_ms = 0.0;  // the base kernel timed with L2 flushed before each launch
  double ns_per_iteration = 0.0;
  int launches_per_sample = 1;
  h::TestRecord reference;  // the "committed baseline": a base run before all trials
  std::vector<Level> levels;
  std::vector<double> run_host_ms;
  std::size_t dropped = 0;
  std::vector<double> clocks_mhz;
  int runs = 0, converged_runs = 0;
};

void tally(int& slower, int& faster, int& undecided, h::Verdict v) {
  if (v == h::Verdict::slower)
    ++slower;
  else if (v == h::Verdict::faster)
    ++faster;
  else if (v != h::Verdict::pass)
    ++undecided;
}

// The smallest level detected in at least 95% of trials, with every larger level detected as reliably.
std::string smallest_reliable(const Config& c, bool same_runner, bool scaled = false) {
  std::string answer = "none of the levels";
  for (auto it = c.levels.rbegin(); it != c.levels.rend(); ++it) {
    if (it->intended == 0.0 || it->trials == 0) continue;
    const int hits = scaled ? (same_runner ? it->same_runner_slower_scaled : it->vs_baseline_slower_scaled)
                            : (same_runner ? it->same_runner_slower : it->vs_baseline_slower);
    if (hits < 0.95 * it->trials) break;
    answer = percent(it->intended, 0) + " (achieved " + percent(h::median(it->ratios) - 1.0, 2) + ")";
  }
  return answer;
}

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse(argc, argv);
  const auto begin = std::chrono::steady_clock::now();
  std::unique_ptr<bankgate::Collector> collector;
  try {
    collector = std::make_unique<bankgate::Collector>(bankgate::CollectorOptions{.device = o.device});
  } catch (const bankgate::CollectorError& e) {
    std::cerr << "bankgate-timing-bench: cannot measure: " << e.what() << "\n";
    return 2;
  }
  const bankgate::DeviceInfo& device = collector->device();
  const int blocks = device.multiprocessor_count;
  k::DeviceBuffer<float> out(static_cast<std::size_t>(blocks) * k::tunable_work_threads);
  Bench bench(*collector, blocks, out.get());

  {  // The kernel must compute what it claims, or its duration means nothing.
    out.poison();
    k::launch_tunable_work(out.get(), 1000, blocks);
    if (out.to_host() != k::tunable_work_reference(1000, blocks)) {
      std::cerr << "bankgate-timing-bench: tunableWork computed a wrong result; durations of it would mean nothing\n";
      return 1;
    }
  }

  // Calibration: duration = fixed + iterations x slope, from two counts, then each configuration's base count.
  const int low = 64, high = 2048;
  const double t_low = bench.median_ns(low, 0), t_high = bench.median_ns(high, 0);
  const double slope = (t_high - t_low) / (high - low);
  const double fixed = t_low - slope * low;
  if (!(slope > 0.0)) {
    std::cerr << "bankgate-timing-bench: the kernel's duration does not grow with its work (" << t_low << " ns at "
              << low << ", " << t_high << " ns at " << high << " iterations); cannot calibrate\n";
    return 1;
  }
  std::cout << "GPU " << device.name << " (" << device.multiprocessor_count << " SMs), driver "
            << (device.driver_release.empty() ? std::to_string(device.driver_version) : device.driver_release) << "\n"
            << "tunableWork: " << h::format_number(fixed) << " ns + " << h::format_number(slope)
            << " ns per iteration (calibrated at " << low << " and " << high << " iterations)\n";

  std::vector<Config> configs{{"short (~1 us)", 1000.0}, {"long (~60 us)", 60000.0}};
  const std::vector<double> intended{0.0, 0.01, 0.02, 0.03, 0.05, 0.10};
  for (Config& c : configs) {
    c.ns_per_iteration = slope;
    c.base_iterations = std::max(1, static_cast<int>(std::lround((c.target_ns - fixed) / slope)));
    // One refinement at the target itself: the line fitted at short counts need not hold exactly at 60 us.
    const double measured = bench.median_ns(c.base_iterations, 0);
    c.base_iterations =
        std::max(1, static_cast<int>(std::lround(c.base_iterations + (c.target_ns - measured) / slope)));
    const Run first = bench.run(c.base_iterations, 0);  // the automatic k, then fixed like a baseline's
    c.launches_per_sample = first.launches_per_sample;
    c.base_median_ns = bench.median_ns(c.base_iterations, c.launches_per_sample);
    // The local slope at the base count turns a wanted slowdown into extra iterations.
    const int probe = std::max(1, c.base_iterations / 10);
    c.ns_per_iteration = std::max(
        (bench.median_ns(c.base_iterations + probe, c.launches_per_sample) - c.base_median_ns) / probe, slope / 4);
    for (double p : intended) {
      Level level;
      level.intended = p;
      level.iterations = c.base_iterations + static_cast<int>(std::lround(p * c.base_median_ns / c.ns_per_iteration));
      if (p > 0.0)
        level.iterations =
            bench.closest(level.iterations, c.base_median_ns * (1.0 + p), c.ns_per_iteration, c.launches_per_sample);
      c.levels.push_back(level);
    }
    c.reference = record_of(bench.run(c.base_iterations, c.launches_per_sample).samples, c.launches_per_sample);
    // The cold-L2 mode once, to show it works here and what it costs: a flush before every launch.
    const Run cold = bench.run(c.base_iterations, c.launches_per_sample, bankgate::L2State::cold);
    c.cold_median_ns = h::median(cold.samples);
    c.cold_host_ms = cold.host_ms;
    std::cout << c.name << ": " << c.base_iterations << " iterations, median " << h::format_number(c.base_median_ns)
              << " ns, " << c.launches_per_sample << " launch(es) per sample\n";
  }

  // Trials: every level of every configuration once per trial, so drift over the benchmark spreads evenly.
  int trials_done = 0;
  for (int t = 0; t < o.trials; ++t) {
    if (t > 0 && seconds_since(begin) > o.max_seconds) {
      std::cout << "stopping after " << t << " trials: --max-seconds " << o.max_seconds << " reached\n";
      break;
    }
    for (Config& c : configs) {
      for (Level& level : c.levels) {
        std::vector<double> base, head;
        h::RoundEvidence by_round{{}, {}, c.launches_per_sample};
        Run first_head;
        for (int r = 0; r < o.rounds; ++r) {
          // Alternate which side runs first, so a trend in time favours neither.
          const bool base_first = (t + r) % 2 == 0;
          for (int side = 0; side < 2; ++side) {
            const bool is_base = (side == 0) == base_first;
            const Run run = bench.run(is_base ? c.base_iterations : level.iterations, c.launches_per_sample);
            (is_base ? base : head).insert((is_base ? base : head).end(), run.samples.begin(), run.samples.end());
            const h::TimingSummary round = h::summarize_durations(run.samples);
            (is_base ? by_round.base_medians_ns : by_round.head_medians_ns).push_back(round.median_ns);
            if (!is_base && r == 0) first_head = run;
            c.run_host_ms.push_back(run.host_ms);
            c.dropped += run.dropped;
            if (run.sm_clock_mhz > 0) c.clocks_mhz.push_back(run.sm_clock_mhz);
            ++c.runs;
            c.converged_runs += run.converged ? 1 : 0;
          }
        }
        const h::TestRecord base_record = record_of(base, c.launches_per_sample);
        const h::TestRecord head_record = record_of(head, c.launches_per_sample);
        level.ratios.push_back(head_record.timing->median_ns / base_record.timing->median_ns);
        tally(level.same_runner_slower, level.same_runner_faster, level.same_runner_undecided,
              timing_verdict(base_record, head_record));
        const h::TestRecord first_head_record = record_of(first_head.samples, c.launches_per_sample);
        tally(level.vs_baseline_slower, level.vs_baseline_faster, level.vs_baseline_undecided,
              timing_verdict(c.reference, first_head_record));
        tally(level.same_runner_slower_scaled, level.faster_scaled, level.undecided_scaled,
              timing_verdict(with_scaled_absolute(base_record), head_record));
        tally(level.vs_baseline_slower_scaled, level.faster_scaled, level.undecided_scaled,
              timing_verdict(with_scaled_absolute(c.reference), first_head_record));
        if (o.rounds >= 2) {
          const h::Verdict v = h::judge_rounds(by_round).verdict;
          level.rounds_slower += v == h::Verdict::slower;
          level.rounds_faster += v == h::Verdict::faster;
          level.rounds_inconclusive += v == h::Verdict::inconclusive;
        }
        ++level.trials;
      }
    }
    trials_done = t + 1;
  }

  // Report.
  const h::TimingTolerance tolerance;
  std::vector<std::vector<std::string>> table{{"kernel", "slowdown wanted", "achieved (median)", "same-runner SLOWER",
                                               "vs-baseline SLOWER", "faster / undecided",
                                               "if 64/k ns: same-runner, vs-baseline, faster",
                                               "by round noise: SLOWER, faster, INCONCLUSIVE"}};
  json results = json::array();
  for (const Config& c : configs) {
    for (const Level& l : c.levels) {
      const double achieved = h::median(l.ratios) - 1.0;
      const auto rate = [&](int hits) { return std::to_string(hits) + "/" + std::to_string(l.trials); };
      table.push_back({c.name, l.intended == 0.0 ? "0 (false alarms)" : percent(l.intended, 0), percent(achieved, 2),
                       rate(l.same_runner_slower), rate(l.vs_baseline_slower),
                       std::to_string(l.same_runner_faster + l.vs_baseline_faster) + " / " +
                           std::to_string(l.same_runner_undecided + l.vs_baseline_undecided),
                       rate(l.same_runner_slower_scaled) + ", " + rate(l.vs_baseline_slower_scaled) + ", " +
                           std::to_string(l.faster_scaled),
                       rate(l.rounds_slower) + ", " + std::to_string(l.rounds_faster) + ", " +
                           std::to_string(l.rounds_inconclusive)});
      results.push_back({{"kernel", c.name},
                         {"iterations", l.iterations},
                         {"intended_slowdown", l.intended},
                         {"achieved_slowdown", achieved},
                         {"trials", l.trials},
                         {"same_runner_slower", l.same_runner_slower},
                         {"same_runner_faster", l.same_runner_faster},
                         {"same_runner_undecided", l.same_runner_undecided},
                         {"vs_baseline_slower", l.vs_baseline_slower},
                         {"vs_baseline_faster", l.vs_baseline_faster},
                         {"vs_baseline_undecided", l.vs_baseline_undecided},
                         {"scaled_absolute_same_runner_slower", l.same_runner_slower_scaled},
                         {"scaled_absolute_vs_baseline_slower", l.vs_baseline_slower_scaled},
                         {"scaled_absolute_faster", l.faster_scaled},
                         {"round_noise_slower", l.rounds_slower},
                         {"round_noise_faster", l.rounds_faster},
                         {"round_noise_inconclusive", l.rounds_inconclusive},
                         {"scaled_absolute_undecided", l.undecided_scaled}});
    }
  }
  std::ostringstream summary;
  json configs_json = json::array();
  for (const Config& c : configs) {
    const double threshold = c.base_median_ns * tolerance.relative + tolerance.absolute_ns;
    const double wall_median = h::median(c.run_host_ms), wall_p90 = h::quantile(c.run_host_ms, 0.9);
    summary << c.name << ": base " << h::format_number(c.base_median_ns) << " ns, " << c.launches_per_sample
            << " launch(es) per sample; the gate's practical threshold is " << h::format_number(threshold) << " ns ("
            << percent(threshold / c.base_median_ns)
            << "); smallest slowdown detected in >= 95% of trials: same-runner " << smallest_reliable(c, true)
            << ", vs baseline " << smallest_reliable(c, false) << " (with the absolute part at 64/k ns: threshold "
            << percent((threshold - tolerance.absolute_ns + tolerance.absolute_ns / c.launches_per_sample) /
                       c.base_median_ns)
            << ", same-runner " << smallest_reliable(c, true, true) << ", vs baseline "
            << smallest_reliable(c, false, true) << "); one timing run takes "
            << h::format_number(std::round(wall_median * 10) / 10) << " ms (p90 "
            << h::format_number(std::round(wall_p90 * 10) / 10) << " ms) of wall time; " << c.converged_runs << "/"
            << c.runs << " runs reached the noise target; " << c.dropped
            << " samples dropped for clocks; with L2 flushed before every launch the median is "
            << h::format_number(c.cold_median_ns) << " ns and a run takes "
            << h::format_number(std::round(c.cold_host_ms)) << " ms"
            << (c.clocks_mhz.empty() ? std::string(", SM clock unknown")
                                     : ", SM clock " + h::format_number(h::median(c.clocks_mhz)) + " MHz")
            << "\n";
    configs_json.push_back({{"kernel", c.name},
                            {"base_iterations", c.base_iterations},
                            {"base_median_ns", c.base_median_ns},
                            {"ns_per_iteration", c.ns_per_iteration},
                            {"launches_per_sample", c.launches_per_sample},
                            {"threshold_ns", threshold},
                            {"smallest_reliable_same_runner", smallest_reliable(c, true)},
                            {"smallest_reliable_vs_baseline", smallest_reliable(c, false)},
                            {"smallest_reliable_same_runner_scaled_absolute", smallest_reliable(c, true, true)},
                            {"smallest_reliable_vs_baseline_scaled_absolute", smallest_reliable(c, false, true)},
                            {"timing_run_wall_ms_median", wall_median},
                            {"timing_run_wall_ms_p90", wall_p90},
                            {"runs", c.runs},
                            {"converged_runs", c.converged_runs},
                            {"dropped_samples", c.dropped},
                            {"cold_l2_median_ns", c.cold_median_ns},
                            {"cold_l2_run_wall_ms", c.cold_host_ms},
                            {"sm_clock_mhz", c.clocks_mhz.empty() ? 0.0 : h::median(c.clocks_mhz)}});
  }
  const std::string rendered = h::format_table(table);
  std::ostringstream settings;
  settings << trials_done << " trials per level; same-runner pools " << o.rounds
           << " run(s) per side, vs-baseline is one run "
           << "against one base run measured before the trials; verdicts by bankgate::gate::compare (tolerance "
           << h::describe(tolerance) << "); " << h::format_number(std::round(seconds_since(begin))) << " s in all\n";
  std::cout << "\n" << rendered << "\n" << summary.str() << settings.str();

  fs::create_directories(o.out);
  const json document{{"gpu", device.name},
                      {"driver", device.driver_release},
                      {"trials", trials_done},
                      {"rounds", o.rounds},
                      {"tolerance", {{"relative", tolerance.relative}, {"absolute_ns", tolerance.absolute_ns}}},
                      {"wall_s", seconds_since(begin)},
                      {"configs", configs_json},
                      {"levels", results}};
  std::ofstream(o.out / "timing-gate-bench.json") << document.dump(2) << "\n";
  std::ofstream md(o.out / "timing-gate-bench.md");
  md << "# Timing gate sensitivity on " << device.name << "\n\n```\n"
     << rendered << "```\n\n"
     << summary.str() << "\n"
     << settings.str();
  std::cout << "wrote " << (o.out / "timing-gate-bench.json").string() << " and "
            << (o.out / "timing-gate-bench.md").string() << "\n";
  return 0;
}
