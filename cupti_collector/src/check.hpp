#pragma once
// The one way collector sources call CUDA and CUPTI: the call is stringified and a failure becomes a typed
// CollectorError that names the call, the file and line, and what the user can do.

#include <cuda_runtime_api.h>
#include <cupti_result.h>

#include <string>

#include <bankgate/errors.hpp>

namespace bankgate::detail {

[[noreturn]] void throw_cupti_error(CUptiResult result, const char* call, const char* file, int line);
[[noreturn]] void throw_cuda_error(cudaError_t result, const char* call, const char* file, int line);

}  // namespace bankgate::detail

#define BANKGATE_CUPTI(call)                                                              \
  do {                                                                                    \
    const CUptiResult bankgate_status_ = (call);                                          \
    if (bankgate_status_ != CUPTI_SUCCESS)                                                \
      ::bankgate::detail::throw_cupti_error(bankgate_status_, #call, __FILE__, __LINE__); \
  } while (0)

#define BANKGATE_CUDA(call)                                                              \
  do {                                                                                   \
    const cudaError_t bankgate_status_ = (call);                                         \
    if (bankgate_status_ != cudaSuccess)                                                 \
      ::bankgate::detail::throw_cuda_error(bankgate_status_, #call, __FILE__, __LINE__); \
  } while (0)
