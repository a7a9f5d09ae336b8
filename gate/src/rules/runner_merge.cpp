#include <bankgate/gate/rules/runner_merge.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include <bankgate/gate/text/number_format.hpp>
#include <bankgate/gate/rules/statistics.hpp>

namespace bankgate::gate {
namespace {

std::string nanoseconds(double ns) {
  char text[32];
  std::snprintf(text, sizeof text, "%.0f ns", ns);
  return text;
}

using Entry = LabelledRecord;  // one runner's record of one kernel of a test

void check_counters_agree(const std::string& name, const Entry& first, const Entry& other) {
  const auto& a = first.record->counters;
  const auto& b = other.record->counters;
  for (const auto& [metric, value] : a) {
    const auto it = b.find(metric);
    if (it == b.end())
      throw RunnerMergeError(name + ": " + other.label + " has no " + metric + ", which " + first.label + " measured");
    if (it->second.value != value.value)
      throw RunnerMergeError(name + ": " + metric + " is " + format_number(value.value) + " on " + first.label +
                             " but " + format_number(it->second.value) + " on " + other.label +
                             "; counters describe the binary, so the runners built different code: record every runner "
                             "from one commit");
  }
  if (b.size() != a.size())
    throw RunnerMergeError(name + ": " + other.label + " measured counters that " + first.label + " did not");
  if (first.record->kernel != other.record->kernel)
    throw RunnerMergeError(name + ": the kernel is " + first.record->kernel + " on " + first.label + " but " +
                           other.record->kernel + " on " + other.label);
}

void check_timed_alike(const std::string& name, const Entry& first, const Entry& other) {
  const auto& a = first.record->timing;
  const auto& b = other.record->timing;
  if (a.has_value() != b.has_value())
    throw RunnerMergeError(name + ": timed on " + (a ? first : other).label + " only");
  if (!a) return;
  if (a->l2 != b->l2 || a->launches_per_sample != b->launches_per_sample)
    throw RunnerMergeError(name + ": timed with L2 " + a->l2 + ", " + std::to_string(a->launches_per_sample) +
                           " launch(es) per sample on " + first.label + " but L2 " + b->l2 + ", " +
                           std::to_string(b->launches_per_sample) + " on " + other.label +
                           "; record every runner against the same committed baselines, which fix both");
  if (first.record->samples_ns.empty() || other.record->samples_ns.empty())
    throw RunnerMergeError(name + ": a recording without its samples (merge candidates, not baselines)");
}

TimingSummary merged_timing(const std::string& name, const std::vector<Entry>& entries, const RunnerMergePolicy& policy,
                            std::vector<double>& pooled) {
  TimingSummary t = pool_timings(entries, pooled);
  const TimingTolerance own = t.tolerance;
  // Runners far apart would loosen the gate for all of them (a runner 3x slower than another let any kernel of the
  // other slow down 3x). Machines of one GPU model measure within a few percent of each other.
  const double spread =
      widen_by_spread(name, entries, policy, "runners",
                      "merged, the timing tolerance would widen by that much for every runner; machines that far "
                      "apart are not alike: find out why (clocks, another GPU, a busy runner) or record them apart",
                      t);
  std::string listed;
  for (std::size_t i = 0; i < entries.size(); ++i)
    listed += (i ? ", " : "") + nanoseconds(entries[i].record->timing->median_ns) + " (" + entries[i].label + ")";
  char margin[16];
  std::snprintf(margin, sizeof margin, "%g", policy.margin);
  t.tolerance.reason = (own.reason.empty() ? "" : own.reason + "; ") + "merged from " + std::to_string(entries.size()) +
                       " runners whose medians were " + listed + ": the farthest lay " + nanoseconds(spread) +
                       " from the pooled median, and the absolute part adds " + margin +
                       " times that for runners not seen";
  return t;
}

}  // namespace

TimingSummary pool_timings(const std::vector<LabelledRecord>& records, std::vector<double>& pooled) {
  std::vector<double> clocks;
  std::size_t warmup = 0, dropped = 0;
  for (const LabelledRecord& r : records) {
    pooled.insert(pooled.end(), r.record->samples_ns.begin(), r.record->samples_ns.end());
    clocks.push_back(r.record->timing->sm_clock_mhz);
    warmup = std::max(warmup, r.record->timing->warmup_launches);
    dropped += r.record->timing->dropped_samples;
  }
  const TimingSummary& own = *records.front().record->timing;
  TimingSummary t = summarize_durations(pooled);
  t.l2 = own.l2;
  t.launches_per_sample = own.launches_per_sample;
  t.warmup_launches = warmup;
  t.dropped_samples = dropped;
  t.sm_clock_mhz = median(clocks);
  t.tolerance = own.tolerance;
  return t;
}

double widen_by_spread(const std::string& name, const std::vector<LabelledRecord>& records,
                       const RunnerMergePolicy& policy, const std::string& sources, const std::string& advice,
                       TimingSummary& timing) {
  std::vector<double> medians;
  for (const LabelledRecord& r : records) medians.push_back(r.record->timing->median_ns);
  double spread = 0.0;
  for (double m : medians) spread = std::max(spread, std::abs(m - timing.median_ns));
  // The spread widens the tolerance of every recording it came from; beyond max_spread that would let a real
  // slowdown of the faster ones pass.
  if (spread > policy.max_spread * timing.median_ns) {
    const auto [low, high] = std::minmax_element(medians.begin(), medians.end());
    char ratio[16];
    std::snprintf(ratio, sizeof ratio, "%.2f", *high / *low);
    throw RunnerMergeError(name + ": the " + sources + "' medians are " + ratio + "x apart (" + nanoseconds(*low) +
                           " on " + records[static_cast<std::size_t>(low - medians.begin())].label + ", " +
                           nanoseconds(*high) + " on " +
                           records[static_cast<std::size_t>(high - medians.begin())].label + "): " + advice);
  }
  timing.tolerance.absolute_ns += policy.margin * spread;
  return spread;
}

TestRecord merge_test_records(const std::string& name, const std::vector<std::string>& labels,
                              const std::vector<const TestRecord*>& records, const std::string& other_kernels_advice,
                              const KernelMerge& merge_kernel) {
  TestRecord merged = *records.front();
  const std::vector<std::string> kernels_launched = kernel_labels(merged);
  for (std::size_t r = 1; r < records.size(); ++r) {
    merged.correct = merged.correct && records[r]->correct;
    if (kernel_labels(*records[r]) != kernels_launched)
      throw RunnerMergeError(name + ": " + labels[r] + " launched other kernels than " + labels.front() + "; " +
                             other_kernels_advice);
  }
  const std::vector<KernelRecord*> kernels = merged.kernels();
  for (std::size_t k = 0; k < kernels.size(); ++k) {
    std::vector<LabelledRecord> entries;
    for (std::size_t r = 0; r < records.size(); ++r) entries.push_back({labels[r], records[r]->kernels()[k]});
    merge_kernel(kernels_launched.size() > 1 ? name + " (kernel " + kernels_launched[k] + ")" : name, entries,
                 *kernels[k]);
  }
  return merged;
}

namespace {

// One kernel's records of every runner: counters alike, timed alike, durations pooled into `merged`.
void merge_kernel(const std::string& name, const std::vector<Entry>& entries, const RunnerMergePolicy& policy,
                  KernelRecord& merged) {
  for (std::size_t i = 1; i < entries.size(); ++i) {
    check_counters_agree(name, entries.front(), entries[i]);
    check_timed_alike(name, entries.front(), entries[i]);
  }
  if (merged.timing) {
    merged.samples_ns.clear();
    merged.timing = merged_timing(name, entries, policy, merged.samples_ns);
  }
}

const TestRecord* find_test(const RunnerRecording& runner, const std::string& suite, const std::string& test) {
  const auto s = runner.suites.find(suite);
  if (s == runner.suites.end()) return nullptr;
  const auto t = s->second.tests.find(test);
  return t == s->second.tests.end() ? nullptr : &t->second;
}

}  // namespace

std::map<std::string, SuiteFile> merge_runners(const std::vector<RunnerRecording>& runners,
                                               const RunnerMergePolicy& policy) {
  if (runners.empty()) throw RunnerMergeError("no runner's recording to merge");
  if (runners.size() == 1) return runners.front().suites;
  const RunnerRecording& first = runners.front();
  std::map<std::string, SuiteFile> merged;
  for (const RunnerRecording& r : runners)
    for (const auto& [suite, file] : r.suites)
      if (!first.suites.count(suite))
        throw RunnerMergeError(suite + ": recorded on " + r.label + " but not on " + first.label);
  for (const auto& [suite, file] : first.suites) {
    SuiteFile out = file;
    for (const auto& [test, record] : file.tests) {
      const std::string name = suite + "." + test;
      std::vector<std::string> recorded_on{first.label};
      std::vector<const TestRecord*> records{&record};
      for (std::size_t i = 1; i < runners.size(); ++i) {
        const TestRecord* other = find_test(runners[i], suite, test);
        if (other == nullptr)
          throw RunnerMergeError(name + ": recorded on " + first.label + " but not on " + runners[i].label +
                                 "; every runner must record the same tests (the same --filter)");
        if (runners[i].suites.at(suite).gpu != file.gpu)
          throw RunnerMergeError(name + ": " + runners[i].label + " recorded " + runners[i].suites.at(suite).gpu.model +
                                 ", " + first.label + " " + file.gpu.model + "; merge recordings of one GPU model");
        recorded_on.push_back(runners[i].label);
        records.push_back(other);
      }
      out.tests[test] = merge_test_records(
          name, recorded_on, records, "record every runner from one commit",
          [&policy](const std::string& kernel, const std::vector<Entry>& entries, KernelRecord& kernel_record) {
            merge_kernel(kernel, entries, policy, kernel_record);
          });
    }
    for (std::size_t i = 1; i < runners.size(); ++i)
      if (runners[i].suites.at(suite).tests.size() != file.tests.size())
        throw RunnerMergeError(suite + ": " + runners[i].label + " recorded tests that " + first.label + " did not");
    merged[suite] = std::move(out);
  }
  return merged;
}

}  // namespace bankgate::gate
