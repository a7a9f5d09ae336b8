#pragma once
// Whether the GPU checks beside the suites have a GPU to run on: each skips its tests, with a reason, where not.

#include <cuda_runtime_api.h>

namespace bankgate::test_support {

inline bool gpu_present() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) == cudaSuccess && devices > 0) return true;
  cudaGetLastError();  // the runtime keeps the error sticky otherwise
  return false;
}

}  // namespace bankgate::test_support
