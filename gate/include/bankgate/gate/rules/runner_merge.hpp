#pragma once
// Recordings of one GPU model made on several runners, merged into one baseline per suite. Counters must agree
// exactly: they describe the binary, not the machine. Durations do not: two H200s at the same clock time the same
// short kernel tens of nanoseconds apart, the same every run on each. So the merged duration pools every
// runner's samples, and its tolerance carries how far the runners lay from the pooled median:
//
//   absolute_ns = the test's own absolute part + margin x (largest distance of a runner's median from the
//                 pooled median)
//
// with margin 2: a runner not yet seen may lie as far beyond the extremes as they lie from the centre. The
// relative part stays the test's own. The reason names the runners' medians, so a reader of the baseline sees
// what the tolerance rests on.

#include <functional>
#include <map>
#include <string>
#include <vector>

#include <bankgate/gate/rules/baseline.hpp>

namespace bankgate::gate {

struct RunnerRecording {
  std::string label;                        // where it came from (its folder), for messages and reasons
  std::map<std::string, SuiteFile> suites;  // as read_candidates gives them
};

struct RunnerMergePolicy {
  double margin = 2.0;
  // The farthest runner's median may lie at most this share of the pooled median from it: machines of one GPU
  // model measure within a few percent of each other, and the spread widens every runner's tolerance.
  double max_spread = 0.10;
};

class RunnerMergeError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// One recording's record of one kernel, named by where it came from (a runner's folder, "process 2").
struct LabelledRecord {
  std::string label;
  const KernelRecord* record = nullptr;
};

// The steps a merge of runners and a merge of processes (process_spread.hpp) share, on one kernel's timed records,
// each with its samples.
//
// Every record's samples pooled into `pooled` and summarized; how they were taken (L2, batching) and the tolerance
// are the first record's, the warm-up the longest, the dropped samples their sum and the clock their median.
TimingSummary pool_timings(const std::vector<LabelledRecord>& records, std::vector<double>& pooled);
// The largest distance of a record's median from `timing`'s (pooled) median; its tolerance's absolute part grows by
// policy.margin times that. Beyond policy.max_spread of the median, RunnerMergeError names `name`, the extremes and
// `sources` ("runners"), ending with `advice`: what so wide a spread means and what to do.
double widen_by_spread(const std::string& name, const std::vector<LabelledRecord>& records,
                       const RunnerMergePolicy& policy, const std::string& sources, const std::string& advice,
                       TimingSummary& timing);

// One test's records (the first's figures first), merged kernel by kernel: every record must launch the same
// kernels (else RunnerMergeError ending with `other_kernels_advice`), the output is correct only where every record's
// was, and `merge_kernel` merges each kernel's records (named "<name> (kernel <label>)" where the test launches
// several) into the returned copy of the first's. `labels` name the records, in their order.
using KernelMerge =
    std::function<void(const std::string& name, const std::vector<LabelledRecord>& records, KernelRecord& merged)>;
TestRecord merge_test_records(const std::string& name, const std::vector<std::string>& labels,
                              const std::vector<const TestRecord*>& records, const std::string& other_kernels_advice,
                              const KernelMerge& merge_kernel);

// Every runner must hold the same suites and tests, with equal counters and the same timing method; otherwise
// RunnerMergeError names the test, the runners and what differs. One runner is returned as it is.
std::map<std::string, SuiteFile> merge_runners(const std::vector<RunnerRecording>& runners,
                                               const RunnerMergePolicy& policy = {});

}  // namespace bankgate::gate
