#include "cupti_callbacks.hpp"

#include <cuda.h>
#include <cupti_callbacks.h>
#include <cupti_driver_cbid.h>

#include <algorithm>
#include <array>

#include "check.hpp"
#include "module_cubins.hpp"

namespace bankgate::detail {
namespace {

// Every driver entry point that launches kernels (cupti_driver_cbid.h, CUDA 13.0). The runtime's launches reach
// the driver through these too. A graph launch runs kernels the callback cannot count, and the multi-device
// cooperative launch runs one on each device: a call that makes either is counted as incomplete.
constexpr std::array counted_launches{
    CUPTI_DRIVER_TRACE_CBID_cuLaunch,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchGrid,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchGridAsync,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz,
};
constexpr std::array graph_launches{
    CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch,
    CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz,
};
constexpr std::array uncounted_launches{
    CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch,
    CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernelMultiDevice,
};

template <std::size_t N>
bool listed(const std::array<CUpti_driver_api_trace_cbid, N>& ids, unsigned id) {
  return std::find(ids.begin(), ids.end(), static_cast<CUpti_driver_api_trace_cbid>(id)) != ids.end();
}

void CUPTIAPI on_callback(void* user, CUpti_CallbackDomain domain, CUpti_CallbackId id, const void* data) {
  auto* callbacks = static_cast<CuptiCallbacks*>(user);
  if (domain == CUPTI_CB_DOMAIN_RESOURCE && id == CUPTI_CBID_RESOURCE_MODULE_LOADED)
    callbacks->on_module_loaded(data);
  else if (domain == CUPTI_CB_DOMAIN_DRIVER_API)
    callbacks->on_driver_call(id, data);
}

}  // namespace

CuptiCallbacks::CuptiCallbacks(ModuleCubins& cubins) : cubins_(cubins) {
  BANKGATE_CUPTI(cuptiSubscribe(&subscriber_, reinterpret_cast<CUpti_CallbackFunc>(on_callback), this));
  const CUptiResult enabled =
      cuptiEnableCallback(1, subscriber_, CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_MODULE_LOADED);
  if (enabled != CUPTI_SUCCESS) {
    cuptiUnsubscribe(subscriber_);
    BANKGATE_CUPTI(enabled);
  }
}

CuptiCallbacks::~CuptiCallbacks() {
  if (subscriber_ != nullptr) cuptiUnsubscribe(subscriber_);
}

void CuptiCallbacks::on_module_loaded(const void* resource_data) {
  const auto* resource = static_cast<const CUpti_ResourceData*>(resource_data);
  const auto* module = static_cast<const CUpti_ModuleResourceData*>(resource->resourceDescriptor);
  if (module != nullptr && module->pCubin != nullptr && module->cubinSize > 0)
    cubins_.add(module->pCubin, module->cubinSize);
}

// Counted on the way out, where the driver says whether it took the launch: a refused launch runs no kernel.
void CuptiCallbacks::on_driver_call(unsigned id, const void* callback_data) {
  const auto* call = static_cast<const CUpti_CallbackData*>(callback_data);
  if (call->callbackSite != CUPTI_API_EXIT) return;
  const auto* returned = static_cast<const CUresult*>(call->functionReturnValue);
  if (returned != nullptr && *returned != CUDA_SUCCESS) return;
  if (call->context != context_.load(std::memory_order_relaxed)) return;
  if (listed(counted_launches, id))
    kernels_.fetch_add(1, std::memory_order_relaxed);
  else if (listed(uncounted_launches, id))
    uncounted_.store(true, std::memory_order_relaxed);
  if (listed(graph_launches, id)) graph_.store(true, std::memory_order_relaxed);
}

bool CuptiCallbacks::switch_launch_callbacks(bool on) {
  bool all = true;
  for (const auto id : counted_launches)
    all = cuptiEnableCallback(on ? 1 : 0, subscriber_, CUPTI_CB_DOMAIN_DRIVER_API, id) == CUPTI_SUCCESS && all;
  for (const auto id : uncounted_launches)
    all = cuptiEnableCallback(on ? 1 : 0, subscriber_, CUPTI_CB_DOMAIN_DRIVER_API, id) == CUPTI_SUCCESS && all;
  return all;
}

void CuptiCallbacks::start_counting_launches(CUcontext context) {
  context_.store(context, std::memory_order_relaxed);
  kernels_.store(0, std::memory_order_relaxed);
  uncounted_.store(false, std::memory_order_relaxed);
  graph_.store(false, std::memory_order_relaxed);
  switch_failed_ = !switch_launch_callbacks(true);
  counting_ = true;
}

LaunchCount CuptiCallbacks::stop_counting_launches() {
  if (!counting_) return {0, false};
  counting_ = false;
  const bool switched_off = switch_launch_callbacks(false);
  return {kernels_.load(std::memory_order_relaxed),
          !switch_failed_ && switched_off && !uncounted_.load(std::memory_order_relaxed),
          graph_.load(std::memory_order_relaxed)};
}

}  // namespace bankgate::detail
