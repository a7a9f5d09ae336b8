#include <bankgate/gate/rules/process_spread.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include <bankgate/gate/rules/statistics.hpp>

namespace bankgate::gate {
namespace {

// One test's records, in the processes' order, with the labels of the processes that recorded it.
struct TestRecords {
  std::vector<std::string> labels;
  std::vector<const TestRecord*> records;
};

// suite -> test -> its records, for every test any process recorded.
std::map<std::string, std::map<std::string, TestRecords>> records_by_test(
    const std::vector<ProcessRecording>& processes) {
  std::map<std::string, std::map<std::string, TestRecords>> tests;
  for (const ProcessRecording& p : processes)
    for (const auto& [suite, file] : p.suites)
      for (const auto& [test, record] : file.tests) {
        TestRecords& r = tests[suite][test];
        r.labels.push_back(p.label);
        r.records.push_back(&record);
      }
  return tests;
}

// Whether each record timed the kernel alike and kept its samples: only then can the processes be compared and
// pooled. A test without a baseline may choose its launches per sample in each process anew; its durations stay
// the first process's.
bool comparable(const std::vector<LabelledRecord>& entries) {
  const KernelRecord& first = *entries.front().record;
  for (const LabelledRecord& e : entries) {
    const KernelRecord& r = *e.record;
    if (!r.timing || r.samples_ns.empty()) return false;
    if (r.timing->l2 != first.timing->l2 || r.timing->launches_per_sample != first.timing->launches_per_sample)
      return false;
  }
  return true;
}

std::vector<TimingEvidence> evidence_of(const std::vector<LabelledRecord>& entries) {
  std::vector<TimingEvidence> processes;
  for (const LabelledRecord& e : entries) processes.push_back(evidence(*e.record->timing));
  return processes;
}

// Kernel k of each record; none where the records launched different kernels (the merge refuses those).
std::vector<std::vector<LabelledRecord>> kernels_of(const TestRecords& test) {
  const std::vector<std::string> launched = kernel_labels(*test.records.front());
  for (const TestRecord* r : test.records)
    if (kernel_labels(*r) != launched) return {};
  std::vector<std::vector<LabelledRecord>> kernels(launched.size());
  for (std::size_t r = 0; r < test.records.size(); ++r) {
    const std::vector<const KernelRecord*> of_record = test.records[r]->kernels();
    for (std::size_t k = 0; k < launched.size(); ++k) kernels[k].push_back({test.labels[r], of_record[k]});
  }
  return kernels;
}

void merge_kernel(const std::string& name, const std::vector<LabelledRecord>& entries,
                  const ProcessSpreadPolicy& policy, KernelRecord& merged, std::vector<ModalKernel>& modal) {
  if (entries.size() < 2 || !comparable(entries)) return;
  const std::vector<TimingEvidence> processes = evidence_of(entries);
  if (!processes_disagree(processes, policy)) {
    std::vector<double> pooled;
    merged.timing = pool_timings(entries, pooled);
    merged.samples_ns = std::move(pooled);
    return;
  }
  // Levels: the fastest process's own timing is the baseline, its tolerance the test's own. A gate's process on a
  // slower level is measured again in fresh processes and its fastest judged (duration_confirmation.hpp), so no
  // tolerance has to hold every level and a slowdown as large as the gap between levels still fails.
  ModalKernel found{name, {}};
  std::size_t fastest = 0;
  for (std::size_t i = 0; i < processes.size(); ++i) {
    found.medians_ns.push_back(processes[i].median_ns);
    if (processes[i].median_ns < processes[fastest].median_ns) fastest = i;
  }
  TimingSummary t = *entries[fastest].record->timing;
  const std::string own_reason = t.tolerance.reason;
  t.tolerance.modes_ns = found.medians_ns;
  t.tolerance.reason = (own_reason.empty() ? "" : own_reason + "; ") + modes_reason(found.medians_ns);
  merged.timing = std::move(t);
  merged.samples_ns = entries[fastest].record->samples_ns;
  modal.push_back(std::move(found));
}

}  // namespace

bool processes_disagree(const std::vector<TimingEvidence>& processes, const ProcessSpreadPolicy& policy) {
  for (std::size_t i = 0; i < processes.size(); ++i)
    for (std::size_t j = i + 1; j < processes.size(); ++j) {
      const TimingEvidence& a = processes[i];
      const TimingEvidence& b = processes[j];
      const double gap = std::abs(a.median_ns - b.median_ns);
      const double noise = policy.z * std::hypot(a.median_se_ns, b.median_se_ns);
      const double floor = policy.relative_floor * std::min(a.median_ns, b.median_ns) + policy.absolute_floor_ns;
      if (gap > noise && gap > floor) return true;
    }
  return false;
}

ProcessMerge merge_processes(const std::vector<ProcessRecording>& processes, const ProcessSpreadPolicy& policy) {
  if (processes.empty()) throw RunnerMergeError("no process's recording to merge");
  ProcessMerge result;
  for (const auto& [suite, tests] : records_by_test(processes)) {
    for (const auto& [test, recorded] : tests) {
      const KernelMerge merge = [&](const std::string& kernel, const std::vector<LabelledRecord>& entries,
                                    KernelRecord& merged) {
        merge_kernel(kernel, entries, policy, merged, result.modal);
      };
      TestRecord merged =
          merge_test_records(suite + "." + test, recorded.labels, recorded.records,
                             "the kernels a test launches must not depend on the process: record it with "
                             "--processes 1, or make its choice of kernels fixed",
                             merge);
      auto [file, inserted] = result.suites.try_emplace(suite);
      if (inserted) {
        // The suite's file as the first process that recorded it wrote it, its tests merged in one by one.
        for (const ProcessRecording& p : processes)
          if (const auto s = p.suites.find(suite); s != p.suites.end()) {
            file->second = s->second;
            break;
          }
        file->second.tests.clear();
      }
      file->second.tests[test] = std::move(merged);
    }
  }
  std::sort(result.modal.begin(), result.modal.end(),
            [](const ModalKernel& a, const ModalKernel& b) { return a.name < b.name; });
  return result;
}

std::vector<std::string> tests_needing_another_process(const std::vector<ProcessRecording>& processes,
                                                       std::size_t processes_wanted,
                                                       const ProcessSpreadPolicy& policy) {
  std::vector<std::string> needed;
  for (const auto& [suite, tests] : records_by_test(processes))
    for (const auto& [test, recorded] : tests) {
      if (recorded.records.size() >= processes_wanted || recorded.records.size() < 2) continue;
      for (const std::vector<LabelledRecord>& kernel : kernels_of(recorded))
        if (comparable(kernel) && processes_disagree(evidence_of(kernel), policy)) {
          needed.push_back(suite + "." + test);
          break;
        }
    }
  return needed;  // records_by_test's maps keep them sorted
}

std::string filter_selecting(const std::vector<std::string>& tests) {
  std::string filter;
  for (const std::string& test : tests) filter += (filter.empty() ? "" : ":") + test;
  return filter;
}

std::string duration_text(double ns) {
  char text[32];
  if (std::abs(ns) < 10000.0)
    std::snprintf(text, sizeof text, "%.0f ns", ns);
  else
    std::snprintf(text, sizeof text, "%.1f us", ns / 1000.0);
  return text;
}

std::string modes_reason(const std::vector<double>& medians_ns) {
  std::vector<double> sorted = medians_ns;
  std::sort(sorted.begin(), sorted.end());
  const bool micro = sorted.front() >= 10000.0;
  std::string listed;
  for (double m : sorted) {
    char number[32];
    std::snprintf(number, sizeof number, micro ? "%.1f" : "%.0f", micro ? m / 1000.0 : m);
    listed += (listed.empty() ? "" : ", ") + std::string(number);
  }
  return "speed depends on the process: medians " + listed + (micro ? " us" : " ns") + " in " +
         std::to_string(medians_ns.size()) + " processes; the fastest is recorded, and a gate's slower process is " +
         "measured again in fresh processes";
}

}  // namespace bankgate::gate
