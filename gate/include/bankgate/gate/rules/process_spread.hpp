#pragma once
// Recordings of one build made in several processes on one machine, merged into one recording. Some kernels run
// at one of a few speeds per process (Hopper GEMMs: medians of 251-257 us in one process, 279-283 us in another,
// each tight within its process). One process's samples say nothing of the next one's speed, so a baseline from
// one process gates the other speeds as regressions. A refresh therefore records in more than one process, and:
//
//   The processes disagree (the kernel has modes) when two of them have medians m_i, m_j with
//     |m_i - m_j| > z x sqrt(se_i^2 + se_j^2)                       beyond their own noise, z = 4; and
//     |m_i - m_j| > relative_floor x min(m_i, m_j) + absolute_floor_ns   beyond 0.5% + 64 ns.
//   z = 4 keeps even the ten pairs of five processes below a 1 in 1,000 chance of modes from noise alone; the
//   floor keeps the GPU timer's steps (32 ns, two of them as in the default tolerance) and the wobble of a
//   tenth of a percent that any two processes show from counting as modes: they are no speeds a gate needs to
//   know of, the default 3% + 64 ns absorbs them.
//
// Where the processes agree, their samples are pooled and the tolerance stays the test's own: nothing is added
// to the baseline. Where they disagree (levels), the fastest process's timing is recorded as it is, with its own
// tolerance, and the process medians beside it (TimingTolerance::modes_ns) with a reason naming them. The gate
// judges level by level: a process that lands on a slower level is measured again in fresh processes and the
// fastest is judged (protocol/duration_confirmation.hpp), so the tolerance is never widened to hold every level,
// and a slowdown as large as the gap between levels fails.
//
// Counters, per-line figures and everything else are the first process's: the processes ran one binary, and a
// single-process recording keeps them so.

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include <bankgate/gate/rules/baseline.hpp>
#include <bankgate/gate/rules/comparison.hpp>
#include <bankgate/gate/rules/runner_merge.hpp>

namespace bankgate::gate {

// One process's recording: its label ("process 2") and its candidates, as read_candidates gives them.
using ProcessRecording = RunnerRecording;

struct ProcessSpreadPolicy {
  double z = 4.0;
  double relative_floor = 0.005;
  double absolute_floor_ns = 64.0;
};

// Whether the processes' medians disagree beyond what their standard errors and the floor explain (the rule above).
bool processes_disagree(const std::vector<TimingEvidence>& processes, const ProcessSpreadPolicy& policy = {});

// A kernel found to have modes: its name (Suite.test, " (kernel <label>)" where the test launches several) and
// each process's median, in the processes' order.
struct ModalKernel {
  std::string name;
  std::vector<double> medians_ns;
};

struct ProcessMerge {
  std::map<std::string, SuiteFile> suites;
  std::vector<ModalKernel> modal;  // by name
};

// Every test any process recorded, merged over the processes that recorded it (a later process may have measured
// only some tests: tests_needing_another_process). Throws RunnerMergeError where a test launched other kernels in
// one process than in another, or its modes lie further apart than policy.widening.max_spread allows.
ProcessMerge merge_processes(const std::vector<ProcessRecording>& processes, const ProcessSpreadPolicy& policy = {});

// The tests (Suite.test, sorted) to measure in one more process: those of which a kernel's processes disagree, while
// fewer than `processes_wanted` processes have measured them. A test whose processes agree needs no more.
std::vector<std::string> tests_needing_another_process(const std::vector<ProcessRecording>& processes,
                                                       std::size_t processes_wanted,
                                                       const ProcessSpreadPolicy& policy = {});

// A test filter (test_filter.hpp) selecting exactly `tests` (Suite.test names): the selection of another process.
std::string filter_selecting(const std::vector<std::string>& tests);

// The reason a baseline of levels carries, e.g. "speed depends on the process: medians 251.3, 280.9 us in 2
// processes; the fastest is recorded, and a gate's slower process is measured again in fresh processes".
std::string modes_reason(const std::vector<double>& medians_ns);

// Durations as the reasons and the refresh's output show them: "812 ns" below 10 us, else "251.3 us".
std::string duration_text(double ns);

}  // namespace bankgate::gate
