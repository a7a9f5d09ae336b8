#pragma once
// Robust summaries of duration samples. Medians and the median absolute deviation, not means and standard
// deviations: a single preempted launch must not move the gate.

#include <cstddef>
#include <vector>

#include <bankgate/gate/rules/baseline.hpp>
#include <bankgate/order_statistics.hpp>

namespace bankgate::gate {

using bankgate::median;  // order_statistics.hpp: the collector's and the gate's one definition
using bankgate::median_absolute_deviation;
using bankgate::quantile;

// The standard error of the median: the standard deviation of the medians of `resamples` bootstrap
// resamples (drawn with replacement). The generator has a fixed seed, so the same samples always give the
// same answer and a verdict can be reproduced from a candidate file. Throws when `samples` is empty.
double median_standard_error(const std::vector<double>& samples, int resamples = 400);

// The distribution summary kept in candidates and baselines: median, MAD, p10, p90, min, count and the
// median's standard error. Fields describing how the samples were taken (L2, batching, clock) are left at
// their defaults for the caller to fill.
TimingSummary summarize_durations(const std::vector<double>& samples_ns);

}  // namespace bankgate::gate
