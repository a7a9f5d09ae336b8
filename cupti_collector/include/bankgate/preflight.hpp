#pragma once
// What can be asked before making a Collector: whether a device can be measured on, and how many replay
// passes a metric list needs. Neither makes a profiling session.

#include <cstddef>
#include <string>
#include <vector>

#include <bankgate/results.hpp>

namespace bankgate {

// Whether a usable CUDA device exists at `index`, without touching CUPTI (CUPTI calls have been seen to
// crash when no driver is present). `reason` says why not, in words a user can act on.
struct DeviceProbe {
  bool available = false;
  std::string reason;
  DeviceInfo info;
};
DeviceProbe probe_device(int index);

// Host-only metric configuration, needs no GPU: the number of replay passes `metrics` need on `chip_name`
// (e.g. "GH100"). Throws CollectorError(unknown_metric) naming the first metric the chip does not know.
std::size_t count_passes(const std::string& chip_name, const std::vector<std::string>& metrics);

}  // namespace bankgate
