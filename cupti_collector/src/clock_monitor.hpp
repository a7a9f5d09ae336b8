#pragma once
// The SM clock and the driver's reasons for holding it down, read through NVML so that durations measured
// while the GPU was clocked down can be recognised. NVML is opened at run time (dlopen of
// libnvidia-ml.so.1, which the driver installs): the collector neither links it nor needs it. Without it
// every reading says "unknown" and timing goes on without clock checks. Clocks are only read, never set.

#include <cstdint>
#include <string>

namespace bankgate::detail {

struct ClockReading {
  bool known = false;  // false: NVML is unavailable or the query failed
  double sm_mhz = 0.0;
  std::uint64_t reasons = 0;  // nvmlClocksEventReason* bits active at the time of the reading
};

class ClockMonitor {
 public:
  // `pci_bus_id` as cudaDeviceGetPCIBusId gives it, so NVML's device is the same GPU whatever the order
  // of devices under CUDA_VISIBLE_DEVICES.
  explicit ClockMonitor(const std::string& pci_bus_id);
  ~ClockMonitor();
  ClockMonitor(const ClockMonitor&) = delete;
  ClockMonitor& operator=(const ClockMonitor&) = delete;

  bool available() const { return device_ != nullptr; }
  const std::string& unavailable_reason() const { return reason_; }
  ClockReading read() const;

  // Reasons that mean the GPU ran slower than it could: hardware slowdown, software and hardware thermal
  // slowdown, hardware power brake and the software power cap. Idle, application-clock and sync-boost
  // reasons are not slowdowns of running work.
  static bool slowed_down(std::uint64_t reasons);
  static std::string describe(std::uint64_t reasons);  // "power cap, thermal" or "none"

 private:
  struct Api;
  void* library_ = nullptr;
  Api* api_ = nullptr;
  void* device_ = nullptr;
  std::string reason_;
};

}  // namespace bankgate::detail
