// Global-memory alignment: a copy whose loads start on a 128-byte boundary against the same copy shifted by
// one int (5 sectors per load request instead of 4).

#include <vector>

#include <bankgate/gtest/gate_fixture.hpp>
#include <bankgate/gtest/output_check.hpp>
#include <bankgate/kernels/device_buffer.hpp>
#include <bankgate/kernels/offset_copy.cuh>

namespace {

namespace k = bankgate::kernels;
using bankgate::gtest::equal_elements;
using bankgate::gtest::GateTest;
using bankgate::gtest::KernelCase;

class OffsetCopy : public GateTest {
 protected:
  void gate_kernel(k::OffsetCopy kernel) {
    std::vector<int> input(k::offset_copy_input_elements);
    for (int i = 0; i < k::offset_copy_input_elements; ++i) input[i] = 13 * i + 6;  // distinct: a shift shows
    const std::vector<int> reference = k::offset_copy_reference(kernel, input);
    const k::DeviceBuffer<int> in(input);
    k::DeviceBuffer<int> out(k::offset_copy_elements);
    gate(KernelCase{
        .kernel_name = std::string(k::kernel_name(kernel)),
        .launch = [&] { k::launch_offset_copy(kernel, in.get(), out.get()); },
        .poison_output = [&] { out.poison(); },
        .check_output = [&] { return equal_elements(out.to_host(), reference); },
        .expected = k::expected_access(kernel),
    });
  }
};

TEST_F(OffsetCopy, alignedCopy) { gate_kernel(k::OffsetCopy::aligned); }
TEST_F(OffsetCopy, misalignedCopy) { gate_kernel(k::OffsetCopy::misaligned); }

}  // namespace
