#include <bankgate/gate/statistics.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <stdexcept>

namespace bankgate::gate {

double quantile(std::vector<double> values, double q) {
  if (values.empty()) throw std::invalid_argument("quantile of no samples");
  if (!(q >= 0.0 && q <= 1.0)) throw std::invalid_argument("quantile outside [0, 1]");
  std::sort(values.begin(), values.end());
  const double position = q * static_cast<double>(values.size() - 1);
  const auto below = static_cast<std::size_t>(std::floor(position));
  const std::size_t above = std::min(below + 1, values.size() - 1);
  const double fraction = position - static_cast<double>(below);
  return values[below] + fraction * (values[above] - values[below]);
}

double median(std::vector<double> values) { return quantile(std::move(values), 0.5); }

double median_absolute_deviation(const std::vector<double>& values) {
  const double center = median(values);
  std::vector<double> deviations;
  deviations.reserve(values.size());
  for (double v : values) deviations.push_back(std::abs(v - center));
  return median(std::move(deviations));
}

double median_standard_error(const std::vector<double>& samples, int resamples) {
  if (samples.empty()) throw std::invalid_argument("standard error of no samples");
  if (samples.size() == 1 || resamples < 2) return 0.0;
  // mt19937_64's output sequence is fixed by the standard; the modulo keeps the draw the same on every
  // standard library, where uniform_int_distribution may differ. Its bias is below 1e-15 for these sizes.
  std::mt19937_64 generator(0x62616e6b67617465ULL);
  const std::uint64_t n = samples.size();
  std::vector<double> resample(samples.size());
  std::vector<double> medians;
  medians.reserve(static_cast<std::size_t>(resamples));
  for (int r = 0; r < resamples; ++r) {
    for (double& value : resample) value = samples[generator() % n];
    medians.push_back(median(resample));
  }
  double sum = 0.0;
  for (double m : medians) sum += m;
  const double mean = sum / resamples;
  double variance = 0.0;
  for (double m : medians) variance += (m - mean) * (m - mean) / (resamples - 1);
  return std::sqrt(variance);
}

TimingSummary summarize_durations(const std::vector<double>& samples_ns) {
  TimingSummary t;
  t.median_ns = median(samples_ns);
  t.mad_ns = median_absolute_deviation(samples_ns);
  t.p10_ns = quantile(samples_ns, 0.1);
  t.p90_ns = quantile(samples_ns, 0.9);
  t.min_ns = quantile(samples_ns, 0.0);
  t.samples = samples_ns.size();
  t.median_se_ns = median_standard_error(samples_ns);
  for (int i = 0; i <= 20; ++i) t.quantiles_ns.push_back(quantile(samples_ns, i / 20.0));
  return t;
}

}  // namespace bankgate::gate
