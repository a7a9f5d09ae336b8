#include "module_cubins.hpp"

#include <cupti_pcsampling.h>

#include "check.hpp"

namespace bankgate::detail {

void ModuleCubins::add(const char* cubin, std::size_t size) {
  {
    std::vector<DeviceCode> code = read_module_image(std::string_view(cubin, size));
    const std::lock_guard lock(mutex_);
    code_.push_back(std::move(code));
  }
  CUpti_GetCubinCrcParams crc{CUpti_GetCubinCrcParamsSize};
  crc.cubin = cubin;
  crc.cubinSize = size;
  if (cuptiGetCubinCrc(&crc) != CUPTI_SUCCESS) return;  // a module we cannot key is only a line we cannot name
  const std::lock_guard lock(mutex_);
  cubins_[static_cast<std::uint32_t>(crc.cubinCrc)] = std::vector<char>(cubin, cubin + size);
}

std::vector<std::vector<char>> ModuleCubins::candidates(std::uint32_t crc) const {
  const std::lock_guard lock(mutex_);
  if (const auto it = cubins_.find(crc); it != cubins_.end()) return {it->second};
  std::vector<std::vector<char>> all;
  for (const auto& [key, cubin] : cubins_) all.push_back(cubin);
  return all;
}

std::vector<std::vector<DeviceCode>> ModuleCubins::loaded_code() const {
  const std::lock_guard lock(mutex_);
  return code_;
}

}  // namespace bankgate::detail
