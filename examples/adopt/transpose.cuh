#pragma once
// The project's own kernel: a matrix transpose through a padded shared-memory tile.

#include <cuda_runtime_api.h>

inline constexpr int transpose_tile = 32;

// Transposes a rows x cols matrix of floats (both multiples of the tile) on the current device.
cudaError_t launch_transpose(const float* in, float* out, int rows, int cols);
