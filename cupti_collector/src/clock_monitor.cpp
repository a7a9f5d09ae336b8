#include "clock_monitor.hpp"

#include <dlfcn.h>

#include <vector>

namespace bankgate::detail {
namespace {

// NVML's C interface, declared here with the types it uses on every supported platform (an enum return,
// opaque device handles) so that no NVML header is needed to build the collector.
using NvmlReturn = int;
constexpr NvmlReturn nvml_success = 0;
using NvmlDevice = void*;
constexpr int nvml_clock_sm = 1;  // nvmlClockType_t NVML_CLOCK_SM

// nvmlClocksEventReason* bits.
constexpr std::uint64_t reason_sw_power_cap = 0x4;
constexpr std::uint64_t reason_hw_slowdown = 0x8;
constexpr std::uint64_t reason_sw_thermal = 0x20;
constexpr std::uint64_t reason_hw_thermal = 0x40;
constexpr std::uint64_t reason_hw_power_brake = 0x80;
constexpr std::uint64_t slowdown_reasons =
    reason_sw_power_cap | reason_hw_slowdown | reason_sw_thermal | reason_hw_thermal | reason_hw_power_brake;

template <typename F>
F symbol(void* library, const char* name) {
  return reinterpret_cast<F>(dlsym(library, name));
}

}  // namespace

struct ClockMonitor::Api {
  NvmlReturn (*init)() = nullptr;
  NvmlReturn (*shutdown)() = nullptr;
  NvmlReturn (*handle_by_pci_bus_id)(const char*, NvmlDevice*) = nullptr;
  NvmlReturn (*clock_info)(NvmlDevice, int, unsigned int*) = nullptr;
  NvmlReturn (*reasons)(NvmlDevice, unsigned long long*) = nullptr;
};

ClockMonitor::ClockMonitor(const std::string& pci_bus_id) {
  library_ = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (library_ == nullptr) {
    reason_ = "libnvidia-ml.so.1 (NVML, part of the NVIDIA driver) could not be loaded";
    return;
  }
  api_ = new Api;
  api_->init = symbol<decltype(api_->init)>(library_, "nvmlInit_v2");
  api_->shutdown = symbol<decltype(api_->shutdown)>(library_, "nvmlShutdown");
  api_->handle_by_pci_bus_id =
      symbol<decltype(api_->handle_by_pci_bus_id)>(library_, "nvmlDeviceGetHandleByPciBusId_v2");
  api_->clock_info = symbol<decltype(api_->clock_info)>(library_, "nvmlDeviceGetClockInfo");
  // The "clocks event" name replaced "throttle" in drivers of 2023; older drivers only have the latter.
  api_->reasons = symbol<decltype(api_->reasons)>(library_, "nvmlDeviceGetCurrentClocksEventReasons");
  if (api_->reasons == nullptr)
    api_->reasons = symbol<decltype(api_->reasons)>(library_, "nvmlDeviceGetCurrentClocksThrottleReasons");
  if (api_->init == nullptr || api_->shutdown == nullptr || api_->handle_by_pci_bus_id == nullptr ||
      api_->clock_info == nullptr) {
    reason_ = "the NVML library lacks the clock queries";
    return;
  }
  if (api_->init() != nvml_success) {
    reason_ = "NVML did not initialise";
    api_->shutdown = nullptr;  // nothing to shut down
    return;
  }
  // CUDA writes the domain with 4 digits ("0000:17:00.0"), NVML with 8; try both.
  NvmlDevice device = nullptr;
  const std::vector<std::string> ids{pci_bus_id, "0000" + pci_bus_id};
  for (const std::string& id : ids)
    if (device == nullptr && api_->handle_by_pci_bus_id(id.c_str(), &device) != nvml_success) device = nullptr;
  if (device == nullptr) {
    reason_ = "NVML does not know the GPU at PCI bus id " + pci_bus_id;
    return;
  }
  device_ = device;
}

ClockMonitor::~ClockMonitor() {
  if (api_ != nullptr && api_->shutdown != nullptr) api_->shutdown();
  delete api_;
  if (library_ != nullptr) dlclose(library_);
}

ClockReading ClockMonitor::read() const {
  ClockReading r;
  if (device_ == nullptr) return r;
  unsigned int mhz = 0;
  if (api_->clock_info(device_, nvml_clock_sm, &mhz) != nvml_success) return r;
  unsigned long long reasons = 0;
  if (api_->reasons != nullptr && api_->reasons(device_, &reasons) != nvml_success) reasons = 0;
  r.known = true;
  r.sm_mhz = static_cast<double>(mhz);
  r.reasons = reasons;
  return r;
}

bool ClockMonitor::slowed_down(std::uint64_t reasons) { return (reasons & slowdown_reasons) != 0; }

std::string ClockMonitor::describe(std::uint64_t reasons) {
  std::string text;
  const auto add = [&](std::uint64_t bit, const char* name) {
    if ((reasons & bit) != 0) text += (text.empty() ? "" : ", ") + std::string(name);
  };
  add(reason_sw_power_cap, "power cap");
  add(reason_hw_slowdown, "hardware slowdown");
  add(reason_sw_thermal, "thermal (software)");
  add(reason_hw_thermal, "thermal (hardware)");
  add(reason_hw_power_brake, "power brake");
  return text.empty() ? "none" : text;
}

}  // namespace bankgate::detail
