#include "occupancy.hpp"

#include <cuda_occupancy.h>

#include <climits>

namespace bankgate::detail {

int resident_blocks_per_sm(const LaunchFigures& launch, const cudaDeviceProp& device) {
  const cudaOccDeviceProp properties(device);
  cudaOccFuncAttributes function;
  function.maxThreadsPerBlock = INT_MAX;  // the activity record does not say; the device's own limit applies
  function.numRegs = launch.registers_per_thread;
  function.sharedSizeBytes = static_cast<size_t>(launch.static_shared_bytes);
  // A launch with more dynamic shared memory than the default limit must have opted in to it.
  const auto dynamic = static_cast<size_t>(launch.dynamic_shared_bytes);
  if (dynamic + function.sharedSizeBytes > device.sharedMemPerBlock) {
    function.shmemLimitConfig = FUNC_SHMEM_LIMIT_OPTIN;
    function.maxDynamicSharedSizeBytes = dynamic;
  }
  const cudaOccDeviceState state;
  cudaOccResult result;
  if (cudaOccMaxActiveBlocksPerMultiprocessor(&result, &properties, &function, &state, launch.block_threads, dynamic) !=
      CUDA_OCC_SUCCESS)
    return 0;
  return result.activeBlocksPerMultiprocessor;
}

}  // namespace bankgate::detail
