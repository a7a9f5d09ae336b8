#include <bankgate/gate/round_judgement.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <stdexcept>

namespace bankgate::gate {
namespace {

double mean(const std::vector<double>& values) {
  return std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size());
}

std::vector<double> logs_of(const std::vector<double>& values) {
  std::vector<double> out;
  for (double v : values) out.push_back(std::log(v));
  return out;
}

double squared_deviations(const std::vector<double>& values) {
  const double m = mean(values);
  double sum = 0.0;
  for (double v : values) sum += (v - m) * (v - m);
  return sum;
}

std::string percent(double fraction) {
  char text[32];
  std::snprintf(text, sizeof text, "%+.2f%%", 100.0 * fraction);
  return text;
}

}  // namespace

double t_quantile_999(std::size_t dof) {
  // Two-sided 99.9% (0.9995 quantile); beyond 30 degrees of freedom the normal's 3.291 is within 11%.
  static constexpr std::array<double, 30> table{636.62, 31.599, 12.924, 8.610, 6.869, 5.959, 5.408, 5.041, 4.781, 4.587,
                                                4.437,  4.318,  4.221,  4.140, 4.073, 4.015, 3.965, 3.922, 3.883, 3.850,
                                                3.819,  3.792,  3.768,  3.745, 3.725, 3.707, 3.690, 3.674, 3.659, 3.646};
  if (dof == 0) throw std::invalid_argument("t_quantile_999: no degrees of freedom");
  return dof <= table.size() ? table[dof - 1] : 3.291;
}

double t_quantile_90(std::size_t dof) {
  // Two-sided 90% (0.95 quantile).
  static constexpr std::array<double, 30> table{6.314, 2.920, 2.353, 2.132, 2.015, 1.943, 1.895, 1.860, 1.833, 1.812,
                                                1.796, 1.782, 1.771, 1.761, 1.753, 1.746, 1.740, 1.734, 1.729, 1.725,
                                                1.721, 1.717, 1.714, 1.711, 1.708, 1.706, 1.703, 1.701, 1.699, 1.697};
  if (dof == 0) throw std::invalid_argument("t_quantile_90: no degrees of freedom");
  return dof <= table.size() ? table[dof - 1] : 1.645;
}

RoundDecision judge_rounds(const RoundEvidence& e, const NoisePolicy& policy) {
  const std::size_t nb = e.base_medians_ns.size(), nh = e.head_medians_ns.size();
  if (nb < 2 || nh < 2) throw std::invalid_argument("judge_rounds needs at least two rounds per side");
  const auto positive = [](const std::vector<double>& v) { return std::all_of(v.begin(), v.end(), [](double x) { return x > 0.0; }); };
  if (!positive(e.base_medians_ns) || !positive(e.head_medians_ns)) throw std::invalid_argument("judge_rounds: a median is not positive");
  const std::vector<double> lb = logs_of(e.base_medians_ns), lh = logs_of(e.head_medians_ns);
  RoundDecision d;
  d.rounds = std::min(nb, nh);
  const std::size_t dof = nb + nh - 2;
  const double between = std::sqrt((squared_deviations(lb) + squared_deviations(lh)) / static_cast<double>(dof));
  const auto mean_or_zero = [](const std::vector<double>& v) { return v.empty() ? 0.0 : mean(v); };
  const double within = std::max(mean_or_zero(e.base_relative_se), mean_or_zero(e.head_relative_se));
  d.noise = std::max(between, within);
  const double se = d.noise * std::sqrt(1.0 / static_cast<double>(nb) + 1.0 / static_cast<double>(nh));
  const double log_change = mean(lh) - mean(lb);
  const double half_width = t_quantile_999(dof) * se;
  const double equivalence_half_width = t_quantile_90(dof) * se;
  d.change = std::exp(log_change) - 1.0;
  d.low = std::exp(log_change - half_width) - 1.0;
  d.high = std::exp(log_change + half_width) - 1.0;
  const double base_ns = std::exp(mean(lb));
  const double quantization = policy.tick_fraction * policy.tick_ns / std::max(1, e.launches_per_sample);
  d.floor = std::max(policy.relative_floor, quantization / base_ns);
  if (d.low > 0.0 && d.change > d.floor) d.verdict = Verdict::slower;
  else if (d.high < 0.0 && -d.change > d.floor) d.verdict = Verdict::faster;
  else if (std::exp(log_change + equivalence_half_width) - 1.0 < d.floor &&
           std::exp(log_change - equivalence_half_width) - 1.0 > -d.floor)
    d.verdict = Verdict::pass;
  else d.verdict = Verdict::inconclusive;
  d.detail = percent(d.change) + " (99.9% interval " + percent(d.low) + " to " + percent(d.high) + ") over " +
             std::to_string(nb) + "+" + std::to_string(nh) + " rounds; round-to-round noise " + percent(d.noise).substr(1) +
             ", floor " + percent(d.floor).substr(1);
  return d;
}

}  // namespace bankgate::gate
