#pragma once
// What can be asked before making a Collector: whether a device can be measured on, how many replay passes a
// metric list needs, which kernels the program holds. None makes a profiling session.

#include <cstddef>
#include <set>
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

// The kernels this program holds, by the names results give them (kernel_base_name), read from the device code
// embedded in its executable and the shared libraries it has loaded: no GPU, no CUDA call. Where some device code
// could not be read (compressed with nvcc -compress-mode, or a library with more of it than is read here, such as
// the CUDA math libraries), `unread` says so, and a kernel missing from `names` may still exist.
struct ProgramKernels {
  std::set<std::string> names;
  std::vector<std::string> unread;
};
ProgramKernels kernels_in_this_program();

}  // namespace bankgate
