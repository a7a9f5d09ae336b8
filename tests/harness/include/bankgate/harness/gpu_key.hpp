#pragma once

#include <string>

#include <bankgate/harness/baseline.hpp>
#include <bankgate/results.hpp>

namespace bankgate::harness {

// "NVIDIA H200" -> "nvidia-h200": lower case, runs of other characters become one '-'.
std::string slugify(const std::string& text);
GpuKey gpu_key(const DeviceInfo& device);  // {"sm_90", "nvidia-h200"}
Provenance device_provenance(const DeviceInfo& device);

}  // namespace bankgate::harness
