#include <cuda_runtime_api.h>
#include <cupti_version.h>
#include <dlfcn.h>

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

// Whether the NVIDIA driver's library can be loaded. Without it the CUDA runtime reports an "insufficient driver",
// as it does for a driver too old for it; only the second is worth updating.
bool driver_library_present() {
  void* driver = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
  if (driver != nullptr) dlclose(driver);
  return driver != nullptr;
}

// Why the CUDA runtime finds no device, in words a user can act on.
std::string no_device_reason(cudaError_t status) {
  const std::string call = std::string("cudaGetDeviceCount: ") + cudaGetErrorName(status);
  if (status == cudaErrorInsufficientDriver && !driver_library_present())
    return "no GPU on this machine (no NVIDIA driver is installed: libcuda.so.1 cannot be loaded)";
  if (status == cudaErrorInsufficientDriver) {
    int runtime = 0;
    cudaRuntimeGetVersion(&runtime);
    return "the NVIDIA driver on this machine is older than the CUDA " + std::to_string(runtime / 1000) + "." +
           std::to_string(runtime % 1000 / 10) + " runtime needs: update the driver (" + call + ")";
  }
  if (status == cudaErrorNoDevice) return "no GPU on this machine (the NVIDIA driver finds none; " + call + ")";
  return std::string("no usable GPU on this machine (") + cudaGetErrorString(status) + "; " + call + ")";
}

}  // namespace

DeviceProbe probe_device(int index) {
  DeviceProbe probe;
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status == cudaErrorStubLibrary) {  // bankgate's own doing, where the driver is missing (cli/driver_stub.hpp)
    probe.reason =
        "no GPU on this machine (no NVIDIA driver is installed: the suite runs with the CUDA toolkit's stub "
        "driver in its place, so that its tests can be listed and skipped)";
    cudaGetLastError();
    return probe;
  }
  if (status != cudaSuccess) {
    probe.reason = no_device_reason(status);
    cudaGetLastError();  // the runtime keeps the error sticky otherwise
    return probe;
  }
  if (index < 0 || index >= count) {
    probe.reason = "GPU index " + std::to_string(index) + " does not exist: this machine has " + std::to_string(count) +
                   " CUDA device(s)";
    return probe;
  }
  cudaDeviceProp prop{};
  if (const cudaError_t e = cudaGetDeviceProperties(&prop, index); e != cudaSuccess) {
    probe.reason =
        std::string("cannot read the properties of GPU ") + std::to_string(index) + ": " + cudaGetErrorString(e);
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
