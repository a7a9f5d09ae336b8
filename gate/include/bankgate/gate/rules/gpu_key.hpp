#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <bankgate/gate/rules/baseline.hpp>
#include <bankgate/results.hpp>

namespace bankgate::gate {

// "NVIDIA H200" -> "nvidia-h200": lower case, runs of other characters become one '-'.
std::string slugify(const std::string& text);
GpuKey gpu_key(const DeviceInfo& device);  // {"sm_90", "nvidia-h200"}
Provenance device_provenance(const DeviceInfo& device);

// "sm_90/nvidia-h200" -> {"sm_90", "nvidia-h200"}; throws std::invalid_argument naming the form otherwise.
GpuKey parse_gpu_key(const std::string& text);

}  // namespace bankgate::gate
