#pragma once
// Plain data returned by the collector. No CUPTI types: programs that use the collector never see CUPTI.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace bankgate {

// Counter values of one kernel launch, by CUPTI metric name (sums over the whole grid).
struct KernelCounters {
  std::map<std::string, double> values;

  // The value of `metric`; throws CollectorError(unknown_metric) when it was not collected.
  double at(const std::string& metric) const;
};

// GPU durations of one kernel across repeated launches, in nanoseconds, from the Activity API's
// start/end timestamps (the GPU timer ticks every 32 ns on Hopper).
struct KernelTiming {
  std::string kernel_name;           // demangled function name without parameters, e.g. "setRowReadRow"
  std::vector<double> durations_ns;  // one per timed launch, in launch order
};

// The name a kernel is known by in results: "void ns::(anonymous namespace)::kern<32>(int*, float)" becomes
// "kern<32>" (no return type, namespaces or parameters).
std::string kernel_base_name(const std::string& demangled);

struct DeviceInfo {
  int index = 0;
  std::string name;       // e.g. "NVIDIA H200"
  std::string chip_name;  // CUPTI's chip name, e.g. "GH100"; empty until a Collector is made
  int compute_capability_major = 0;
  int compute_capability_minor = 0;
  int multiprocessor_count = 0;
  int driver_version = 0;   // as cudaDriverGetVersion: 13000 for 13.0
  int runtime_version = 0;  // as cudaRuntimeGetVersion
  std::uint32_t cupti_version = 0;
  std::string pci_bus_id;
};

}  // namespace bankgate
