#include <bankgate/gate/rules/gpu_key.hpp>

#include <algorithm>
#include <cctype>
#include <stdexcept>

namespace bankgate::gate {

std::string slugify(const std::string& text) {
  std::string slug;
  for (unsigned char c : text) {
    if (std::isalnum(c))
      slug += static_cast<char>(std::tolower(c));
    else if (!slug.empty() && slug.back() != '-')
      slug += '-';
  }
  while (!slug.empty() && slug.back() == '-') slug.pop_back();
  return slug.empty() ? "unknown-gpu" : slug;
}

GpuKey gpu_key(const DeviceInfo& device) {
  return {"sm_" + std::to_string(device.compute_capability_major) + std::to_string(device.compute_capability_minor),
          slugify(device.name)};
}

Provenance device_provenance(const DeviceInfo& device) {
  Provenance p;
  p.gpu_name = device.name;
  p.chip = device.chip_name;
  p.compute_capability =
      std::to_string(device.compute_capability_major) + "." + std::to_string(device.compute_capability_minor);
  p.multiprocessor_count = device.multiprocessor_count;
  p.driver_version = device.driver_version;
  p.driver_release = device.driver_release;
  p.cuda_runtime_version = device.runtime_version;
  p.cupti_version = device.cupti_version;
  return p;
}

GpuKey parse_gpu_key(const std::string& text) {
  const auto slash = text.find('/');
  if (slash == std::string::npos || slash == 0 || slash + 1 == text.size() ||
      text.find('/', slash + 1) != std::string::npos)
    throw std::invalid_argument("'" + text + "' is not a GPU key; use ARCH/MODEL, e.g. sm_90/nvidia-h200");
  GpuKey key{text.substr(0, slash), text.substr(slash + 1)};
  if (!is_valid_gpu_name(key.arch) || !is_valid_gpu_name(key.model))
    throw std::invalid_argument(
        "'" + text + "' is not a GPU key: ARCH and MODEL are letters, digits, '_' and '-' (e.g. sm_90/nvidia-h200)");
  return key;
}

}  // namespace bankgate::gate
