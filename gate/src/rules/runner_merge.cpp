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

// One runner's record of one kernel of a test.
struct Entry {
  const RunnerRecording* runner;
  const KernelRecord* record;
};

void check_counters_agree(const std::string& name, const Entry& first, const Entry& other) {
  const auto& a = first.record->counters;
  const auto& b = other.record->counters;
  for (const auto& [metric, value] : a) {
    const auto it = b.find(metric);
    if (it == b.end())
      throw RunnerMergeError(name + ": " + other.runner->label + " has no " + metric + ", which " + first.runner->label + " measured");
    if (it->second.value != value.value)
      throw RunnerMergeError(name + ": " + metric + " is " + format_number(value.value) + " on " + first.runner->label + " but " +
                             format_number(it->second.value) + " on " + other.runner->label +
                             "; counters describe the binary, so the runners built different code: record every runner "
                             "from one commit");
  }
  if (b.size() != a.size())
    throw RunnerMergeError(name + ": " + other.runner->label + " measured counters that " + first.runner->label + " did not");
  if (first.record->kernel != other.record->kernel)
    throw RunnerMergeError(name + ": the kernel is " + first.record->kernel + " on " + first.runner->label + " but " +
                           other.record->kernel + " on " + other.runner->label);
}

void check_timed_alike(const std::string& name, const Entry& first, const Entry& other) {
  const auto& a = first.record->timing;
  const auto& b = other.record->timing;
  if (a.has_value() != b.has_value())
    throw RunnerMergeError(name + ": timed on " + (a ? first : other).runner->label + " only");
  if (!a) return;
  if (a->l2 != b->l2 || a->launches_per_sample != b->launches_per_sample)
    throw RunnerMergeError(name + ": timed with L2 " + a->l2 + ", " + std::to_string(a->launches_per_sample) + " launch(es) per sample on " +
                           first.runner->label + " but L2 " + b->l2 + ", " + std::to_string(b->launches_per_sample) + " on " +
                           other.runner->label + "; record every runner against the same committed baselines, which fix both");
  if (first.record->samples_ns.empty() || other.record->samples_ns.empty())
    throw RunnerMergeError(name + ": a recording without its samples (merge candidates, not baselines)");
}

TimingSummary merged_timing(const std::string& name, const std::vector<Entry>& entries, const RunnerMergePolicy& policy,
                            std::vector<double>& pooled) {
  std::vector<double> medians, clocks;
  std::size_t warmup = 0, dropped = 0;
  for (const Entry& e : entries) {
    pooled.insert(pooled.end(), e.record->samples_ns.begin(), e.record->samples_ns.end());
    medians.push_back(e.record->timing->median_ns);
    clocks.push_back(e.record->timing->sm_clock_mhz);
    warmup = std::max(warmup, e.record->timing->warmup_launches);
    dropped += e.record->timing->dropped_samples;
  }
  const TimingSummary& own = *entries.front().record->timing;
  TimingSummary t = summarize_durations(pooled);
  t.l2 = own.l2;
  t.launches_per_sample = own.launches_per_sample;
  t.warmup_launches = warmup;
  t.dropped_samples = dropped;
  t.sm_clock_mhz = median(clocks);
  double spread = 0.0;
  for (double m : medians) spread = std::max(spread, std::abs(m - t.median_ns));
  // The absolute part grows by the runners' spread: runners far apart would loosen the gate for all of them (a
  // runner 3x slower than another let any kernel of the other slow down 3x). Machines of one GPU model measure
  // within a few percent of each other; beyond policy.max_spread they are not alike, and are refused.
  if (spread > policy.max_spread * t.median_ns) {
    const auto [low, high] = std::minmax_element(medians.begin(), medians.end());
    char ratio[16];
    std::snprintf(ratio, sizeof ratio, "%.2f", *high / *low);
    throw RunnerMergeError(name + ": the runners' medians are " + ratio + "x apart (" + nanoseconds(*low) + " on " +
                           entries[static_cast<std::size_t>(low - medians.begin())].runner->label + ", " + nanoseconds(*high) + " on " +
                           entries[static_cast<std::size_t>(high - medians.begin())].runner->label +
                           "): merged, the timing tolerance would widen by that much for every runner; machines that far "
                           "apart are not alike: find out why (clocks, another GPU, a busy runner) or record them apart");
  }
  t.tolerance = own.tolerance;
  t.tolerance.absolute_ns = own.tolerance.absolute_ns + policy.margin * spread;
  std::string listed;
  for (std::size_t i = 0; i < entries.size(); ++i)
    listed += (i ? ", " : "") + nanoseconds(medians[i]) + " (" + entries[i].runner->label + ")";
  char margin[16];
  std::snprintf(margin, sizeof margin, "%g", policy.margin);
  t.tolerance.reason = (own.tolerance.reason.empty() ? "" : own.tolerance.reason + "; ") + "merged from " +
                       std::to_string(entries.size()) + " runners whose medians were " + listed + ": the farthest lay " +
                       nanoseconds(spread) + " from the pooled median, and the absolute part adds " + margin +
                       " times that for runners not seen";
  return t;
}

// One kernel's records of every runner: counters alike, timed alike, durations pooled into `merged`.
void merge_kernel(const std::string& name, const std::vector<Entry>& entries, const RunnerMergePolicy& policy, KernelRecord& merged) {
  for (std::size_t i = 1; i < entries.size(); ++i) {
    check_counters_agree(name, entries.front(), entries[i]);
    check_timed_alike(name, entries.front(), entries[i]);
  }
  if (merged.timing) {
    merged.samples_ns.clear();
    merged.timing = merged_timing(name, entries, policy, merged.samples_ns);
  }
}

// The test's records of every runner (the first runner's first), merged kernel by kernel.
TestRecord merged_test(const std::string& name, const std::vector<const RunnerRecording*>& runners,
                       const std::vector<const TestRecord*>& records, const RunnerMergePolicy& policy) {
  TestRecord merged = *records.front();
  const std::vector<std::string> labels = kernel_labels(merged);
  for (std::size_t r = 1; r < records.size(); ++r) {
    merged.correct = merged.correct && records[r]->correct;
    if (kernel_labels(*records[r]) != labels)
      throw RunnerMergeError(name + ": " + runners[r]->label + " launched other kernels than " + runners.front()->label +
                             "; record every runner from one commit");
  }
  const std::vector<KernelRecord*> kernels = merged.kernels();
  for (std::size_t k = 0; k < kernels.size(); ++k) {
    std::vector<Entry> entries;
    for (std::size_t r = 0; r < records.size(); ++r) entries.push_back({runners[r], records[r]->kernels()[k]});
    merge_kernel(labels.size() > 1 ? name + " (kernel " + labels[k] + ")" : name, entries, policy, *kernels[k]);
  }
  return merged;
}

const TestRecord* find_test(const RunnerRecording& runner, const std::string& suite, const std::string& test) {
  const auto s = runner.suites.find(suite);
  if (s == runner.suites.end()) return nullptr;
  const auto t = s->second.tests.find(test);
  return t == s->second.tests.end() ? nullptr : &t->second;
}

}  // namespace

std::map<std::string, SuiteFile> merge_runners(const std::vector<RunnerRecording>& runners, const RunnerMergePolicy& policy) {
  if (runners.empty()) throw RunnerMergeError("no runner's recording to merge");
  if (runners.size() == 1) return runners.front().suites;
  const RunnerRecording& first = runners.front();
  std::map<std::string, SuiteFile> merged;
  for (const RunnerRecording& r : runners)
    for (const auto& [suite, file] : r.suites)
      if (!first.suites.count(suite)) throw RunnerMergeError(suite + ": recorded on " + r.label + " but not on " + first.label);
  for (const auto& [suite, file] : first.suites) {
    SuiteFile out = file;
    for (const auto& [test, record] : file.tests) {
      const std::string name = suite + "." + test;
      std::vector<const RunnerRecording*> recorded_on{&first};
      std::vector<const TestRecord*> records{&record};
      for (std::size_t i = 1; i < runners.size(); ++i) {
        const TestRecord* other = find_test(runners[i], suite, test);
        if (other == nullptr)
          throw RunnerMergeError(name + ": recorded on " + first.label + " but not on " + runners[i].label +
                                 "; every runner must record the same tests (the same --filter)");
        if (runners[i].suites.at(suite).gpu != file.gpu)
          throw RunnerMergeError(name + ": " + runners[i].label + " recorded " + runners[i].suites.at(suite).gpu.model + ", " +
                                 first.label + " " + file.gpu.model + "; merge recordings of one GPU model");
        recorded_on.push_back(&runners[i]);
        records.push_back(other);
      }
      out.tests[test] = merged_test(name, recorded_on, records, policy);
    }
    for (std::size_t i = 1; i < runners.size(); ++i)
      if (runners[i].suites.at(suite).tests.size() != file.tests.size())
        throw RunnerMergeError(suite + ": " + runners[i].label + " recorded tests that " + first.label + " did not");
    merged[suite] = std::move(out);
  }
  return merged;
}

}  // namespace bankgate::gate
