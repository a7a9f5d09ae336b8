#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <bankgate/gate/baseline.hpp>
#include <bankgate/results.hpp>

namespace bankgate::gate {

// "NVIDIA H200" -> "nvidia-h200": lower case, runs of other characters become one '-'.
std::string slugify(const std::string& text);
GpuKey gpu_key(const DeviceInfo& device);  // {"sm_90", "nvidia-h200"}
Provenance device_provenance(const DeviceInfo& device);

// "sm_90/nvidia-h200" -> {"sm_90", "nvidia-h200"}; throws std::invalid_argument naming the form otherwise.
GpuKey parse_gpu_key(const std::string& text);
// The <arch>/<model> folders under a baselines or candidates root, sorted.
std::vector<GpuKey> gpu_folders(const std::filesystem::path& root);
// `wanted` when given, else the only GPU folder under `root`; throws std::invalid_argument when there are
// none or several, naming them and asking for --gpu.
GpuKey choose_gpu(const std::filesystem::path& root, const std::string& wanted);

}  // namespace bankgate::gate
