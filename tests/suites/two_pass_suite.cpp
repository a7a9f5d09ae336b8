// A case that launches two kernels, as a library call does (CUB, cuBLAS and CUTLASS device-level calls launch
// several): a 2048x2048 matrix transposed through a padded tile, then back through an XOR-swizzled tile, which gives
// the input again. Each kernel is recorded and gated on its own, named by its function, and each states its ratios.

#include <vector>

#include <bankgate/gtest/gate_fixture.hpp>
#include <bankgate/kernels/device_buffer.hpp>
#include <bankgate/kernels/transpose.cuh>

#include "device_output_check.hpp"

namespace {

namespace k = bankgate::kernels;
using bankgate::catalogue::equal_on_device;
using bankgate::gtest::GateTest;
using bankgate::gtest::KernelCase;

class TwoPass : public GateTest {};

TEST_F(TwoPass, TransposeRoundTrip) {
  constexpr k::TransposeShape shape = k::transpose_square_shape;
  std::vector<float> input(static_cast<std::size_t>(shape.rows) * static_cast<std::size_t>(shape.cols));
  for (std::size_t i = 0; i < input.size(); ++i) input[i] = static_cast<float>(i);  // distinct, exact in float
  const k::DeviceBuffer<float> in(input);
  k::DeviceBuffer<float> transposed(input.size());
  k::DeviceBuffer<float> out(input.size());
  const auto padded = std::string(k::kernel_name(k::Transpose::padded));
  const auto swizzled = std::string(k::kernel_name(k::Transpose::swizzled));
  gate(KernelCase{
      .kernel_names = {padded, swizzled},
      .launch =
          [&] {
            k::launch_transpose(k::Transpose::padded, in.get(), transposed.get(), shape);
            k::launch_transpose(k::Transpose::swizzled, transposed.get(), out.get(), {shape.cols, shape.rows});
          },
      .poison_output =
          [&] {
            transposed.poison();
            out.poison();
          },
      // The round trip gives the input again: `in` holds it on the device.
      .check_output = [&] { return equal_on_device(out, in); },
      .expected_of = {{padded, k::expected_access(k::Transpose::padded, shape)},
                      {swizzled, k::expected_access(k::Transpose::swizzled, {shape.cols, shape.rows})}},
  });
}

}  // namespace
