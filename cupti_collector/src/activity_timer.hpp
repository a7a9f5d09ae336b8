#pragma once
// Kernel durations from the CUPTI Activity API: the GPU's own start/end timestamps of each launch, so host
// launch overhead and the gaps between launches never enter the numbers.

#include <functional>
#include <vector>

#include <bankgate/collector.hpp>

namespace bankgate::detail {

class ActivityTimer {
 public:
  ActivityTimer();
  std::vector<KernelTiming> time(const std::function<void()>& launch, const TimingOptions& options);
};

}  // namespace bankgate::detail
