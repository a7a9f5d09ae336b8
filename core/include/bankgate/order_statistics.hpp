#pragma once
// Order statistics of duration samples, in one place for the collector (its stopping rule) and the gate (its
// summaries and verdicts): medians and the median absolute deviation, not means and standard deviations, so
// that a single preempted launch does not move either.

#include <vector>

namespace bankgate {

// Linear interpolation between the order statistics around q * (n - 1), q in [0, 1]; throws
// std::invalid_argument for no values or q outside [0, 1].
double quantile(std::vector<double> values, double q);
double median(std::vector<double> values);  // quantile(values, 0.5)
double median_absolute_deviation(const std::vector<double>& values);

}  // namespace bankgate
