#include <bankgate/gate/rules/statistics.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <stdexcept>

namespace bankgate::gate {

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
