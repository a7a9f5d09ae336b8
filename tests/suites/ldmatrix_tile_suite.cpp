// ldmatrix.x4 from a shared tile of 128-byte rows: plain (every 8x16-byte matrix in the same 4 banks, 8-way)
// and XOR-swizzled by the row (conflict-free).

#include <cstdint>
#include <vector>

#include <bankgate/gtest/gate_fixture.hpp>
#include <bankgate/gtest/output_check.hpp>
#include <bankgate/kernels/device_buffer.hpp>
#include <bankgate/kernels/ldmatrix_tile.cuh>

namespace {

namespace k = bankgate::kernels;
using bankgate::gtest::equal_elements;
using bankgate::gtest::GateTest;
using bankgate::gtest::KernelCase;

class LdmatrixTile : public GateTest {
 protected:
  void gate_kernel(k::LdmatrixTile kernel) {
    std::vector<std::uint32_t> input(k::ldmatrix_words);
    // Distinct words (both 16-bit halves vary), never the poison 0xA5A5A5A5: a misplaced half shows.
    for (int i = 0; i < k::ldmatrix_words; ++i) input[i] = 0x00010001u * static_cast<std::uint32_t>(i) + 0x00020000u;
    const std::vector<std::uint32_t> reference = k::ldmatrix_tile_reference(input);
    const k::DeviceBuffer<std::uint32_t> in(input);
    k::DeviceBuffer<std::uint32_t> out(input.size());
    gate(KernelCase{
        .kernel_name = std::string(k::kernel_name(kernel)),
        .launch = [&] { k::launch_ldmatrix_tile(kernel, in.get(), out.get()); },
        .poison_output = [&] { out.poison(); },
        .check_output = [&] { return equal_elements(out.to_host(), reference); },
        .expected = k::expected_access(kernel),
    });
  }
};

TEST_F(LdmatrixTile, ldmatrixTile) { gate_kernel(k::LdmatrixTile::plain); }
TEST_F(LdmatrixTile, ldmatrixTileSwizzled) { gate_kernel(k::LdmatrixTile::swizzled); }

}  // namespace
