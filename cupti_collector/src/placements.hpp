#pragma once
// Durations sampled at several placements of a kernel's buffers (Collector::time_over_placements): the parts,
// one timing per placement, merged into one timing per kernel.

#include <vector>

#include <bankgate/collector_options.hpp>

namespace bankgate::detail {

// The options each of `placements` parts is timed with: an equal share of the time budget and of the samples. The
// gate reads the merged samples, so a part needs only its share of `min_samples` and `max_samples` (in chunks no
// larger, or its first chunk would take more), and its own median known to within the noise target times the
// square root of the number of parts: n parts whose medians are each known to within e x sqrt(n) make a merged
// median known to within about e. merge_placements judges convergence on the merged samples by `options` itself.
TimingOptions placement_share(const TimingOptions& options, std::size_t placements);

// Each part is the timing of the same kernels at one placement, with the same launches per sample. Every kernel
// keeps the first samples of each part, as many as the smallest part has, in part order, so that each placement
// weighs the same in the median. Warm-up calls and dropped samples add up; the warm-up is stable and the clock
// steady only where they were in every part; the SM clock is the median of the parts that know theirs. The noise
// estimate and convergence are those of the merged samples under `options`, and the stop reason names the
// placements. One part is returned as it is. Throws CollectorError: invalid_options for no parts, cupti_failure
// where parts disagree on the kernels or their batching, or a part has no samples.
std::vector<KernelTiming> merge_placements(const std::vector<std::vector<KernelTiming>>& parts,
                                           const TimingOptions& options);

}  // namespace bankgate::detail
