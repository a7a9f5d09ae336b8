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

#include <map>
#include <string>
#include <vector>

#include <bankgate/gate/rules/baseline.hpp>

namespace bankgate::gate {

struct RunnerRecording {
  std::string label;                      // where it came from (its folder), for messages and reasons
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

// Every runner must hold the same suites and tests, with equal counters and the same timing method; otherwise
// RunnerMergeError names the test, the runners and what differs. One runner is returned as it is.
std::map<std::string, SuiteFile> merge_runners(const std::vector<RunnerRecording>& runners, const RunnerMergePolicy& policy = {});

}  // namespace bankgate::gate
