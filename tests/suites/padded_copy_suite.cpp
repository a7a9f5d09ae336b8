// Seed 001: a bounds-checked 1000x700 copy through a 32x32 shared tile accessed by column, without and with
// one padding column.

#include <vector>

#include <bankgate/gtest/gate_fixture.hpp>
#include <bankgate/gtest/output_check.hpp>
#include <bankgate/kernels/device_buffer.hpp>
#include <bankgate/kernels/padded_copy.cuh>

namespace {

namespace k = bankgate::kernels;
using bankgate::gtest::equal_elements;
using bankgate::gtest::GateTest;
using bankgate::gtest::KernelCase;

class PaddedCopy : public GateTest {
 protected:
  void gate_kernel(k::PaddedCopy kernel) {
    std::vector<int> input(k::padded_copy_elements);
    for (int i = 0; i < k::padded_copy_elements; ++i) input[i] = 7 * i + 3;  // distinct, never the poison
    const k::DeviceBuffer<int> in(input);
    k::DeviceBuffer<int> out(input.size());
    gate(KernelCase{
        .kernel_name = std::string(k::kernel_name(kernel)),
        .launch = [&] { k::launch_padded_copy(kernel, in.get(), out.get()); },
        .poison_output = [&] { out.poison(); },
        .check_output = [&] { return equal_elements(out.to_host(), k::padded_copy_reference(input)); },
        .expected = k::expected_access(kernel),
    });
  }
};

TEST_F(PaddedCopy, copyColTile) { gate_kernel(k::PaddedCopy::col_tile); }
TEST_F(PaddedCopy, copyColTilePad) { gate_kernel(k::PaddedCopy::col_tile_pad); }

}  // namespace
