#pragma once
// Durations sampled at several placements of a kernel's buffers (Collector::time_over_placements): the parts,
// one timing per placement, merged into one timing per kernel.

#include <vector>

#include <bankgate/collector_options.hpp>

namespace bankgate::detail {

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
