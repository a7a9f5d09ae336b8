#include <cuda_runtime_api.h>
#include <cupti_version.h>

#include <fstream>
#include <regex>
#include <string>

#include <bankgate/preflight.hpp>

namespace bankgate {
namespace {

// The driver's own release number ("580.159.04"). cudaDriverGetVersion only says which CUDA API level the
// driver offers (13000), which stays the same across driver updates that do change timings. The kernel
// module announces itself in /proc; where that file is absent (containers without it) the field stays empty.
std::string read_driver_release() {
  std::ifstream in("/proc/driver/nvidia/version");
  std::string line;
  if (!std::getline(in, line)) return {};
  static const std::regex release(R"(Kernel Module(?:\s+for\s+\S+)?\s+([0-9]+(?:\.[0-9]+)+))");
  std::smatch match;
  return std::regex_search(line, match, release) ? match[1].str() : std::string{};
}

}  // namespace

DeviceProbe probe_device(int index) {
  DeviceProbe probe;
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess) {
    probe.reason = std::string("no usable CUDA driver or GPU on this machine (cudaGetDeviceCount: ") +
                   cudaGetErrorName(status) + ", " + cudaGetErrorString(status) + ")";
    cudaGetLastError();  // the runtime keeps the error sticky otherwise
    return probe;
  }
  if (index < 0 || index >= count) {
    probe.reason = "GPU index " + std::to_string(index) + " does not exist: this machine has " +
                   std::to_string(count) + " CUDA device(s)";
    return probe;
  }
  cudaDeviceProp prop{};
  if (const cudaError_t e = cudaGetDeviceProperties(&prop, index); e != cudaSuccess) {
    probe.reason = std::string("cannot read the properties of GPU ") + std::to_string(index) + ": " + cudaGetErrorString(e);
    return probe;
  }
  DeviceInfo& info = probe.info;
  info.index = index;
  info.name = prop.name;
  info.compute_capability_major = prop.major;
  info.compute_capability_minor = prop.minor;
  info.multiprocessor_count = prop.multiProcessorCount;
  cudaDriverGetVersion(&info.driver_version);
  cudaRuntimeGetVersion(&info.runtime_version);
  info.driver_release = read_driver_release();
  char bus_id[32] = {};
  if (cudaDeviceGetPCIBusId(bus_id, sizeof bus_id, index) == cudaSuccess) info.pci_bus_id = bus_id;
  info.cupti_version = CUPTI_API_VERSION;
  if (prop.major < 7) {
    probe.reason = info.name + " has compute capability " + std::to_string(prop.major) + "." +
                   std::to_string(prop.minor) + "; the collector's counters need 7.0 or newer";
    return probe;
  }
  probe.available = true;
  return probe;
}

}  // namespace bankgate
