// Seed 003: array reversal through shared memory, one block of 64 ints (static and dynamic declaration) and
// 1<<20 ints in 256-int chunks.

#include <vector>

#include <bankgate/gtest/gate_fixture.hpp>
#include <bankgate/gtest/output_check.hpp>
#include <bankgate/kernels/device_buffer.hpp>
#include <bankgate/kernels/reverse.cuh>

namespace {

namespace k = bankgate::kernels;
using bankgate::gtest::equal_elements;
using bankgate::gtest::GateTest;
using bankgate::gtest::KernelCase;

class Reverse : public GateTest {
 protected:
  void gate_kernel(k::Reverse kernel) {
    const int n = k::reverse_elements(kernel);
    std::vector<int> input(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) input[i] = 3 * i + 1;  // distinct, so a misplaced element shows
    const k::DeviceBuffer<int> in(input);
    k::DeviceBuffer<int> out(input.size());
    gate(KernelCase{
        .kernel_name = std::string(k::kernel_name(kernel)),
        .launch = [&] { k::launch_reverse(kernel, in.get(), out.get()); },
        .poison_output = [&] { out.poison(); },
        .check_output = [&] { return equal_elements(out.to_host(), k::reverse_reference(input)); },
        .expected = k::expected_access(kernel),
    });
  }
};

TEST_F(Reverse, staticReverse) { gate_kernel(k::Reverse::static_reverse); }
TEST_F(Reverse, dynamicReverse) { gate_kernel(k::Reverse::dynamic_reverse); }
TEST_F(Reverse, multiBlockReverse) { gate_kernel(k::Reverse::multi_block); }

}  // namespace
