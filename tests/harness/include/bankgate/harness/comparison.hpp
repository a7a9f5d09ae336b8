#pragma once
// The rules that decide pass or fail, used by the GPU tests and by the baseline tools alike.

#include <string>
#include <vector>

#include <bankgate/harness/baseline.hpp>

namespace bankgate::harness {

enum class Verdict {
  pass,
  counter_changed,  // a counter left its tolerance, in either direction
  slower,           // the median duration rose beyond the timing tolerance
  faster,           // the median fell beyond it: reported, with a refresh suggested, not a failure
  not_in_baseline,  // measured now, absent from the baseline
  not_measured,     // in the baseline, absent from this run
};

struct Finding {
  std::string metric;  // a counter name, or "duration (median)"
  bool timing = false;
  double measured = 0.0;
  double baseline = 0.0;
  std::string tolerance;  // in words, e.g. "exact" or "+5% +64 ns"
  Verdict verdict = Verdict::pass;
};

inline constexpr const char* duration_metric = "duration (median)";

bool counter_within_tolerance(double measured, double baseline, const Tolerance& tolerance);
Verdict judge_timing(double measured_median_ns, const TimingSummary& baseline);
std::string describe(const Tolerance& tolerance);
std::string describe(const TimingTolerance& tolerance);

// One finding per counter in either record, and one for the duration when either has timing.
std::vector<Finding> compare(const TestRecord& baseline, const TestRecord& measured);

bool is_failure(Verdict verdict);
std::string to_string(Verdict verdict);

}  // namespace bankgate::harness
