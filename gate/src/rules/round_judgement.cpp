#include <bankgate/gate/rules/round_judgement.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <stdexcept>

#include <bankgate/gate/rules/student_t.hpp>

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

double median_of(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

// The side's log medians without the rounds that landed on a slower speed level (the header's rule); `set_aside`
// counts them. At least the half at or below the side's median always stays.
std::vector<double> on_the_common_level(const std::vector<double>& logs, const NoisePolicy& policy,
                                        std::size_t& set_aside) {
  const double middle = median_of(logs);
  std::vector<double> deviations;
  for (double v : logs) deviations.push_back(std::abs(v - middle));
  const double spread = 1.4826 * median_of(deviations);
  const double gap = std::max(std::log1p(policy.level_gap), policy.level_spreads * spread);
  std::vector<double> kept;
  for (double v : logs)
    if (v - middle <= gap) kept.push_back(v);
  if (kept.size() < 2) return logs;  // two rounds far apart: neither is known to be the slower level
  set_aside += logs.size() - kept.size();
  return kept;
}

}  // namespace

double practical_floor(double median_ns, int launches_per_sample, const NoisePolicy& policy) {
  const double shortest = std::log(policy.short_kernel_ns), longest = std::log(policy.long_kernel_ns);
  const double at = std::clamp(std::log(std::max(median_ns, 1.0)), shortest, longest);
  const double along = (at - shortest) / (longest - shortest);
  const double relative =
      std::exp(std::log(policy.short_floor) + along * (std::log(policy.long_floor) - std::log(policy.short_floor)));
  const double quantization = policy.tick_fraction * policy.tick_ns / std::max(1, launches_per_sample);
  return std::max(relative, quantization / median_ns);
}

RoundDecision judge_rounds(const RoundEvidence& e, const NoisePolicy& policy) {
  if (e.base_medians_ns.size() < 2 || e.head_medians_ns.size() < 2)
    throw std::invalid_argument("judge_rounds needs at least two rounds per side");
  const auto positive = [](const std::vector<double>& v) {
    return std::all_of(v.begin(), v.end(), [](double x) { return x > 0.0; });
  };
  if (!positive(e.base_medians_ns) || !positive(e.head_medians_ns))
    throw std::invalid_argument("judge_rounds: a median is not positive");
  RoundDecision d;
  const std::vector<double> lb = on_the_common_level(logs_of(e.base_medians_ns), policy, d.slower_level_rounds);
  const std::vector<double> lh = on_the_common_level(logs_of(e.head_medians_ns), policy, d.slower_level_rounds);
  const std::size_t nb = lb.size(), nh = lh.size();
  d.rounds = std::min(nb, nh);
  const std::size_t dof = nb + nh - 2;
  const double between = std::sqrt((squared_deviations(lb) + squared_deviations(lh)) / static_cast<double>(dof));
  const double base_ns = std::exp(mean(lb));
  // A uniform rounding error of one tick (through the launches per sample) has a deviation of tick / sqrt(12).
  const double tick_deviation = policy.tick_ns / std::max(1, e.launches_per_sample) / std::sqrt(12.0) / base_ns;
  d.noise = std::max(between, tick_deviation);
  const double se = d.noise * std::sqrt(1.0 / static_cast<double>(nb) + 1.0 / static_cast<double>(nh));
  const double log_change = mean(lh) - mean(lb);
  const double half_width =
      student_t_quantile(1.0 - (1.0 - policy.change_confidence) / 2.0, static_cast<double>(dof)) * se;
  const double equivalence_half_width =
      student_t_quantile(1.0 - (1.0 - policy.equivalence_confidence) / 2.0, static_cast<double>(dof)) * se;
  d.change = std::exp(log_change) - 1.0;
  d.low = std::exp(log_change - half_width) - 1.0;
  d.high = std::exp(log_change + half_width) - 1.0;
  d.floor = practical_floor(base_ns, e.launches_per_sample, policy);
  if (e.test_floor > d.floor) {
    d.floor = e.test_floor;
    d.floor_of_test = true;
  }
  d.detectable = std::max(d.floor, std::exp(half_width) - 1.0);
  if (d.low > 0.0 && d.change > d.floor)
    d.verdict = Verdict::slower;
  else if (d.high < 0.0 && -d.change > d.floor)
    d.verdict = Verdict::faster;
  else if (std::exp(log_change + equivalence_half_width) - 1.0 < d.floor &&
           std::exp(log_change - equivalence_half_width) - 1.0 > -d.floor)
    d.verdict = Verdict::pass;
  else
    d.verdict = Verdict::inconclusive;
  char level[16];
  std::snprintf(level, sizeof level, "%g%%", 100.0 * policy.change_confidence);
  d.detail = percent(d.change) + " (" + level + " interval " + percent(d.low) + " to " + percent(d.high) + ") over " +
             std::to_string(nb) + "+" + std::to_string(nh) + " rounds; round-to-round noise " +
             percent(d.noise).substr(1) + ", floor " + percent(d.floor).substr(1) +
             (d.floor_of_test ? " (the test's own)" : "") + "; smallest detectable change " + percent(d.detectable) +
             (d.slower_level_rounds == 0 ? ""
                                         : "; " + std::to_string(d.slower_level_rounds) +
                                               " round(s) on a slower per-process speed level set aside");
  return d;
}

double change_standard_error(double noise, std::size_t rounds) {
  return noise * std::sqrt(2.0 / static_cast<double>(std::max<std::size_t>(rounds, 1)));
}

namespace {

// Whether `d`, with its noise and change kept, would be decided with `rounds` rounds a side.
bool decided_with(const RoundDecision& d, std::size_t rounds, const NoisePolicy& policy) {
  const double dof = 2.0 * static_cast<double>(rounds) - 2.0;
  const double se = change_standard_error(d.noise, rounds);
  const double log_change = std::log1p(d.change);
  const double change = student_t_quantile(1.0 - (1.0 - policy.change_confidence) / 2.0, dof) * se;
  const double equivalence = student_t_quantile(1.0 - (1.0 - policy.equivalence_confidence) / 2.0, dof) * se;
  const bool beyond = std::abs(d.change) > d.floor && std::abs(log_change) > change;
  const bool within =
      std::exp(log_change + equivalence) - 1.0 < d.floor && std::exp(log_change - equivalence) - 1.0 > -d.floor;
  return beyond || within;
}

}  // namespace

std::size_t rounds_to_decide(const RoundDecision& d, std::size_t most, const NoisePolicy& policy) {
  if (d.verdict != Verdict::inconclusive) return 0;
  for (std::size_t rounds = std::max<std::size_t>(d.rounds + 1, 2); rounds < most; ++rounds)
    if (decided_with(d, rounds, policy)) return rounds;
  return most;
}

}  // namespace bankgate::gate
