// The project's gated test: one kernel case, checked against a CPU reference, measured and gated by bankgate.

#include <cuda_runtime_api.h>

#include <cstddef>
#include <vector>

#include <bankgate/gtest/gate_fixture.hpp>
#include <bankgate/gtest/output_check.hpp>

#include "transpose.cuh"

namespace {

// Device memory for the test's lifetime.
struct DeviceFloats {
  explicit DeviceFloats(std::size_t n) : size(n) { cudaMalloc(reinterpret_cast<void**>(&data), n * sizeof(float)); }
  ~DeviceFloats() { cudaFree(data); }
  DeviceFloats(const DeviceFloats&) = delete;
  DeviceFloats& operator=(const DeviceFloats&) = delete;
  float* data = nullptr;
  std::size_t size;
};

class Transpose : public bankgate::gtest::GateTest {};

TEST_F(Transpose, PaddedTile) {
  constexpr int rows = 1024, cols = 2048;
  std::vector<float> input(static_cast<std::size_t>(rows) * cols), reference(input.size());
  for (std::size_t i = 0; i < input.size(); ++i) input[i] = static_cast<float>(i);  // exact in float
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c)
      reference[static_cast<std::size_t>(c) * rows + r] = input[static_cast<std::size_t>(r) * cols + c];
  DeviceFloats in(input.size()), out(input.size());
  cudaMemcpy(in.data, input.data(), input.size() * sizeof(float), cudaMemcpyHostToDevice);

  gate(bankgate::gtest::KernelCase{
      .kernel_name = "transposePadded",
      .launch = [&] { ASSERT_EQ(launch_transpose(in.data, out.data, rows, cols), cudaSuccess); },
      .poison_output = [&] { cudaMemset(out.data, 0xff, out.size * sizeof(float)); },
      .check_output =
          [&] {
            std::vector<float> result(out.size);
            cudaMemcpy(result.data(), out.data, out.size * sizeof(float), cudaMemcpyDeviceToHost);
            return bankgate::gtest::equal_elements(result, reference);
          },
  });
}

}  // namespace
