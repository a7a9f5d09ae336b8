#pragma once
// The rules that decide pass or fail, used by the GPU tests, the baseline tools and the same-runner
// comparison alike.

#include <cstddef>
#include <string>
#include <vector>

#include <bankgate/gate/rules/baseline.hpp>

namespace bankgate::gate {

enum class Verdict {
  pass,
  counter_changed,  // a counter left its tolerance, in either direction
  slower,           // the median duration rose significantly and beyond the timing tolerance
  faster,           // it fell likewise: reported with a refresh suggested; a failure only when asked for
  not_in_baseline,  // measured now, absent from the baseline
  not_measured,     // in the baseline, absent from this run
  method_changed,   // durations taken another way (L2 state, batching) than the baseline's: not comparable
  too_few_samples,  // not enough durations to decide either way
  inconclusive,     // same-runner rounds too noisy to tell a change of the practical floor from none
};

struct Finding {
  std::string metric;  // a counter name, or "duration (median)"
  bool timing = false;
  double measured = 0.0;
  double baseline = 0.0;
  std::string tolerance;  // in words, e.g. "exact" or "+3% +64 ns, significant at 99%"
  Verdict verdict = Verdict::pass;
  std::string detail;  // for durations: the ratio and its confidence interval, or why no decision was made
  std::string kernel;  // which kernel, as kernel_labels() names it, where the test has several; empty otherwise
};

inline constexpr const char* duration_metric = "duration (median)";

// Fewer durations than this on either side decide nothing (too_few_samples).
inline constexpr std::size_t min_timing_samples = 20;
// Two-sided 99% normal quantile: a rise must clear this many standard errors to count as significant.
inline constexpr double timing_confidence_z = 2.576;

bool counter_within_tolerance(double measured, double baseline, const Tolerance& tolerance);

// What one side of a timing comparison knows: its median and that median's standard error.
struct TimingEvidence {
  double median_ns = 0.0;
  double median_se_ns = 0.0;
  std::size_t samples = 0;
};
TimingEvidence evidence(const TimingSummary& summary);

struct TimingDecision {
  Verdict verdict = Verdict::pass;
  double ratio = 1.0;                        // measured median / baseline median
  double ratio_low = 1.0, ratio_high = 1.0;  // its confidence interval
  bool significant = false;                  // the interval excludes 1
  bool beyond_tolerance = false;             // the medians differ by more than the practical threshold
  std::string detail;
};

// The timing rule: slower only when the rise of the median is both significant (the confidence interval of
// the ratio of medians lies above 1) and larger than `tolerance` (relative part of the baseline median plus
// the absolute part); faster likewise in the other direction. The interval comes from the two medians'
// standard errors combined on the log scale. A tolerance set by process modes (TimingTolerance::modes_ns,
// process_spread.hpp) decides alone: beyond it is slower or faster, significant or not. The detail ends with the
// tolerance's reason, where it has one.
TimingDecision judge_timing(const TimingEvidence& measured, const TimingEvidence& baseline,
                            const TimingTolerance& tolerance);

std::string describe(const Tolerance& tolerance);
std::string describe(const TimingTolerance& tolerance);

// One finding per counter in either record, and one for the duration when either has timing, in the order of
// order_by_explanation(). Where either record has several kernels, each kernel is compared with the kernel of the
// same label (kernel_labels()) and its findings name it; a kernel on one side only has every figure not measured or
// not in the baseline.
std::vector<Finding> compare(const TestRecord& baseline, const TestRecord& measured);
// How many times this process has called compare(): each path judges a measurement once (gate, record and compare
// alike), and the tests that hold it to that count the calls.
std::size_t comparisons_made();

// The kernel of `record` that `label` names (kernel_labels()); the first where `label` is empty, none where no
// kernel has that label.
const KernelRecord* kernel_labelled(const TestRecord& record, const std::string& label);

// A test's findings in the order that explains them: shared-memory traffic and conflicts first, then global and
// local memory (each memory's transactions and sectors before its requests), then the duration, then the launch
// figures (registers, shared memory per block, occupancy) and last the instruction counts, which move with almost
// any edit. Within each, the larger relative change first; a
// counter that appeared or vanished counts as the largest. A bank conflict that quadrupled the transactions of a
// load therefore leads, not the static shared memory or the instruction count that moved with it. Every report
// (console, markdown, HTML, JSON, GoogleTest's messages) shows a test's changes in this order and sums them up
// by the first.
void order_by_explanation(std::vector<Finding>& findings);

// A speedup beyond the tolerance fails only when `fail_on_speedup` (BANKGATE_FAIL_ON_SPEEDUP=1) is set; an
// inconclusive duration is no failure (the comparison reports it with its own exit code).
bool is_failure(Verdict verdict, bool fail_on_speedup = false);
std::string to_string(Verdict verdict);
std::string verdict_id(Verdict verdict);  // as the JSON models write it, never to change: "counter_changed", ...

}  // namespace bankgate::gate
