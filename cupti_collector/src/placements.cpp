#include "placements.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include <bankgate/errors.hpp>
#include <bankgate/order_statistics.hpp>

#include "activity_timer.hpp"

namespace bankgate::detail {
namespace {

// Throws where `part` is not the timing of the kernels `first` timed, batched alike.
void require_same_kernels(const std::vector<KernelTiming>& first, const std::vector<KernelTiming>& part,
                          std::size_t index) {
  const std::string which = "placement " + std::to_string(index + 1);
  if (part.size() != first.size())
    throw CollectorError(ErrorKind::cupti_failure, which + " launched " + std::to_string(part.size()) +
                                                       " kernels, the first " + std::to_string(first.size()) +
                                                       ": every placement must launch the same kernels");
  for (std::size_t j = 0; j < first.size(); ++j) {
    if (part[j].kernel_name != first[j].kernel_name)
      throw CollectorError(ErrorKind::cupti_failure, which + " launched " + part[j].kernel_name + " where the first " +
                                                         "launched " + first[j].kernel_name +
                                                         ": every placement must launch the same kernels");
    if (part[j].launches_per_sample != first[j].launches_per_sample)
      throw CollectorError(ErrorKind::cupti_failure,
                           which + " averaged " + std::to_string(part[j].launches_per_sample) +
                               " launches per sample, the first " + std::to_string(first[j].launches_per_sample));
  }
}

std::string stop_reasons(const std::vector<std::vector<KernelTiming>>& parts, std::size_t kernel) {
  std::vector<std::string> reasons;
  for (const auto& part : parts)
    if (std::find(reasons.begin(), reasons.end(), part[kernel].stop_reason) == reasons.end())
      reasons.push_back(part[kernel].stop_reason);
  std::string text;
  for (const std::string& r : reasons) text += (text.empty() ? "" : ", ") + r;
  return "over " + std::to_string(parts.size()) + " placements: " + text;
}

KernelTiming merged_kernel(const std::vector<std::vector<KernelTiming>>& parts, std::size_t kernel,
                           const TimingOptions& options) {
  std::size_t each = parts.front()[kernel].durations_ns.size();
  for (const auto& part : parts) each = std::min(each, part[kernel].durations_ns.size());
  if (each == 0)
    throw CollectorError(ErrorKind::cupti_failure,
                         "a placement gave no samples of " + parts.front()[kernel].kernel_name);
  KernelTiming merged = parts.front()[kernel];
  merged.durations_ns.clear();
  merged.warmup_launches = 0;
  merged.dropped_samples = 0;
  merged.host = {};
  std::vector<double> clocks;
  for (const auto& part : parts) {
    const KernelTiming& t = part[kernel];
    merged.durations_ns.insert(merged.durations_ns.end(), t.durations_ns.begin(),
                               t.durations_ns.begin() + static_cast<std::ptrdiff_t>(each));
    merged.warmup_launches += t.warmup_launches;
    merged.warmup_stable = merged.warmup_stable && t.warmup_stable;
    merged.dropped_samples += t.dropped_samples;
    merged.clocked_down = merged.clocked_down || t.clocked_down;
    merged.host.calls += t.host.calls;
    merged.host.launch_ms += t.host.launch_ms;
    merged.host.wait_ms += t.host.wait_ms;
    merged.host.records_ms += t.host.records_ms;
    merged.host.clock_ms += t.host.clock_ms;
    if (t.sm_clock_mhz > 0.0) clocks.push_back(t.sm_clock_mhz);  // 0: not known there
  }
  merged.sm_clock_mhz = clocks.empty() ? 0.0 : bankgate::median(std::move(clocks));
  merged.relative_noise = relative_median_noise(merged.durations_ns, timer_tick_ns / merged.launches_per_sample);
  merged.converged = merged.durations_ns.size() >= static_cast<std::size_t>(options.min_samples) &&
                     merged.relative_noise <= options.target_relative_noise;
  merged.stop_reason = stop_reasons(parts, kernel);
  return merged;
}

}  // namespace

TimingOptions placement_share(const TimingOptions& options, std::size_t placements) {
  const auto n = static_cast<int>(placements);
  const auto share = [n](int count) { return std::max(1, count / n + (count % n != 0 ? 1 : 0)); };
  TimingOptions part = options;
  part.time_budget_s = options.time_budget_s / n;
  part.min_samples = share(options.min_samples);
  part.max_samples = std::max(part.min_samples, share(options.max_samples));
  part.chunk_samples = std::min(options.chunk_samples, part.min_samples);
  part.target_relative_noise = options.target_relative_noise * std::sqrt(static_cast<double>(n));
  return part;
}

std::vector<KernelTiming> merge_placements(const std::vector<std::vector<KernelTiming>>& parts,
                                           const TimingOptions& options) {
  if (parts.empty()) throw CollectorError(ErrorKind::invalid_options, "timing over placements needs at least one");
  if (parts.size() == 1) return parts.front();  // as time_launches gives it
  for (std::size_t i = 1; i < parts.size(); ++i) require_same_kernels(parts.front(), parts[i], i);
  std::vector<KernelTiming> merged;
  for (std::size_t j = 0; j < parts.front().size(); ++j) merged.push_back(merged_kernel(parts, j, options));
  return merged;
}

}  // namespace bankgate::detail
