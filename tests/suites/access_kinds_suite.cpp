// The access kinds the seed kernels leave out: shared atomics with global reductions, local memory, a
// divergent branch. Their counters (and per-line figures) are gated like every other.

#include <cstdint>
#include <vector>

#include <bankgate/gtest/gate_fixture.hpp>
#include <bankgate/gtest/output_check.hpp>
#include <bankgate/kernels/access_kinds.cuh>
#include <bankgate/kernels/device_buffer.hpp>

namespace {

namespace k = bankgate::kernels;
using bankgate::gtest::equal_elements;
using bankgate::gtest::GateTest;
using bankgate::gtest::KernelCase;

class AccessKinds : public GateTest {
 protected:
  void gate_kernel(k::AccessKind kernel) {
    std::vector<std::uint32_t> input(k::access_kinds_elements);
    // A fixed pseudo-random sequence: the histogram's same-bin collisions, and with them its shared atomic
    // wavefronts, depend on the data, so the data never changes.
    std::uint32_t state = 12345u;
    for (auto& v : input) v = state = state * 1103515245u + 12345u;
    const std::vector<std::uint32_t> reference = k::access_kind_reference(kernel, input);
    const k::DeviceBuffer<std::uint32_t> in(input);
    k::DeviceBuffer<std::uint32_t> out(k::access_kind_output_elements(kernel));
    const bool accumulates = kernel == k::AccessKind::histogram;
    gate(KernelCase{
        .kernel_name = std::string(k::kernel_name(kernel)),
        .launch =
            [&] {
              if (accumulates) cudaMemsetAsync(out.get(), 0, reference.size() * sizeof(std::uint32_t));
              k::launch_access_kind(kernel, in.get(), out.get());
            },
        .poison_output = [&] { out.poison(); },
        .check_output = [&] { return equal_elements(out.to_host(), reference); },
        .expected = k::expected_access(kernel),
    });
  }
};

TEST_F(AccessKinds, sharedHistogram) { gate_kernel(k::AccessKind::histogram); }
TEST_F(AccessKinds, stackArray) { gate_kernel(k::AccessKind::stack); }
TEST_F(AccessKinds, divergentBranch) { gate_kernel(k::AccessKind::divergent); }

}  // namespace
