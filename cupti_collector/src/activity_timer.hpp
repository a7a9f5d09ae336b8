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

// "void ns::kern<32>(int*, float)" -> "ns::kern<32>": the name users and ncu's "function" base use.
std::string base_kernel_name(const std::string& demangled);

}  // namespace bankgate::detail
