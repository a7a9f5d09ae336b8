#include "module_cubins.hpp"

#include <cupti_callbacks.h>
#include <cupti_pcsampling.h>
#include <cupti_runtime_cbid.h>

#include "check.hpp"

namespace bankgate::detail {
namespace {

void CUPTIAPI on_resource(void* user, CUpti_CallbackDomain domain, CUpti_CallbackId id, const void* data) {
  if (domain != CUPTI_CB_DOMAIN_RESOURCE || id != CUPTI_CBID_RESOURCE_MODULE_LOADED) return;
  const auto* resource = static_cast<const CUpti_ResourceData*>(data);
  const auto* module = static_cast<const CUpti_ModuleResourceData*>(resource->resourceDescriptor);
  if (module != nullptr && module->pCubin != nullptr && module->cubinSize > 0)
    static_cast<ModuleCubins*>(user)->add(module->pCubin, module->cubinSize);
}

}  // namespace

ModuleCubins::ModuleCubins() {
  BANKGATE_CUPTI(cuptiSubscribe(&subscriber_, reinterpret_cast<CUpti_CallbackFunc>(on_resource), this));
  const CUptiResult enabled =
      cuptiEnableCallback(1, subscriber_, CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_MODULE_LOADED);
  if (enabled != CUPTI_SUCCESS) {
    cuptiUnsubscribe(subscriber_);
    BANKGATE_CUPTI(enabled);
  }
}

ModuleCubins::~ModuleCubins() {
  if (subscriber_ != nullptr) cuptiUnsubscribe(subscriber_);
}

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
