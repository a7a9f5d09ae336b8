#include <bankgate/kernels/tunable_work.cuh>

#include <cmath>

#include <bankgate/kernels/device_buffer.hpp>

// File-local at global scope so that the collector names it by its bare name (see rect_tile.cu).

namespace {

// x -> a*x + b contracts towards b / (1 - a) = 1000: the chain never overflows, and its values stay
// ordinary floats whatever the count. Passed as arguments so the compiler cannot fold the chain.
constexpr float chain_a = 0.999f;
constexpr float chain_b = 1.0f;

float chain_start(int thread) { return static_cast<float>(thread % bankgate::kernels::tunable_work_threads) * 0.001f; }

}  // namespace

// One dependent chain per thread: each fmaf waits for the previous one, so the kernel is latency-bound and
// its duration is (fixed cost) + iterations x (FMA latency + loop overhead).
static __global__ void tunableWork(float* out, int iterations, float a, float b) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  float x = static_cast<float>(threadIdx.x) * 0.001f;
  for (int n = 0; n < iterations; ++n) x = fmaf(x, a, b);
  out[i] = x;
}

namespace bankgate::kernels {

void launch_tunable_work(float* out, int iterations, int blocks, cudaStream_t stream) {
  tunableWork<<<blocks, tunable_work_threads, 0, stream>>>(out, iterations, chain_a, chain_b);
  check_cuda(cudaGetLastError(), "kernel launch");
}

std::vector<float> tunable_work_reference(int iterations, int blocks) {
  std::vector<float> out(static_cast<std::size_t>(blocks) * tunable_work_threads);
  for (std::size_t i = 0; i < out.size(); ++i) {
    float x = chain_start(static_cast<int>(i));
    for (int n = 0; n < iterations; ++n) x = std::fma(x, chain_a, chain_b);
    out[i] = x;
  }
  return out;
}

}  // namespace bankgate::kernels
