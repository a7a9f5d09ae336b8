#pragma once
// A kernel whose duration is set by an iteration count, for measuring the timing gate itself
// (bench/timing_gate_bench.cpp): each thread runs a chain of dependent fused multiply-adds, so every
// iteration costs one FMA latency on every warp at once and the duration grows linearly with the count,
// from the launch's fixed cost (under a microsecond) upwards. "A 3% slower kernel" is then a matter of 3%
// more time, which the benchmark calibrates and checks rather than assumes.
//
// Not a gated kernel: it touches no shared memory and has no baseline.

#include <cuda_runtime_api.h>

#include <string_view>
#include <vector>

namespace bankgate::kernels {

inline constexpr int tunable_work_threads = 128;  // per block; one block per SM keeps every SM equally busy
inline constexpr std::string_view tunable_work_kernel_name = "tunableWork";

// Launches `blocks` blocks of tunable_work_threads threads; thread i writes the end of its chain to out[i]
// (blocks * tunable_work_threads floats).
void launch_tunable_work(float* out, int iterations, int blocks, cudaStream_t stream = nullptr);

// What out[] must hold afterwards: the same chains computed on the CPU with fmaf (exactly rounded, so equal
// to the GPU's bit for bit).
std::vector<float> tunable_work_reference(int iterations, int blocks);

}  // namespace bankgate::kernels
