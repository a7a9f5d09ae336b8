#pragma once
// How many blocks of a launch fit on one multiprocessor, from the function's resources and the device's limits
// (the CUDA toolkit's occupancy calculator, cuda_occupancy.h): the figure Nsight Compute reports as the least
// of its launch__occupancy_limit_* metrics.

#include <cuda_runtime_api.h>

#include <bankgate/results.hpp>

namespace bankgate::detail {

// 0 where the calculator refuses the figures (a block larger than the device allows).
int resident_blocks_per_sm(const LaunchFigures& launch, const cudaDeviceProp& device);

}  // namespace bankgate::detail
