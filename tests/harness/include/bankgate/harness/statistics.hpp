#pragma once
// Robust summaries of duration samples. Medians and the median absolute deviation, not means and standard
// deviations: a single preempted launch must not move the gate.

#include <cstddef>
#include <vector>

namespace bankgate::harness {

double median(std::vector<double> values);                    // throws std::invalid_argument when empty
double quantile(std::vector<double> values, double q);         // linear interpolation, q in [0, 1]
double median_absolute_deviation(const std::vector<double>& values);

}  // namespace bankgate::harness
