// Seed 000's 32x16 rectangle: row/column-major access, transposed reads through index arithmetic, static and
// dynamic declaration, one and two padding columns.

#include <bankgate/gtest/gate_fixture.hpp>
#include <bankgate/gtest/output_check.hpp>
#include <bankgate/kernels/device_buffer.hpp>
#include <bankgate/kernels/rect_tile.cuh>

namespace {

namespace k = bankgate::kernels;
using bankgate::gtest::equal_elements;
using bankgate::gtest::GateTest;
using bankgate::gtest::KernelCase;

class RectTile : public GateTest {
 protected:
  void gate_kernel(k::RectTile kernel) {
    k::DeviceBuffer<int> out(k::rect_tile_elements);
    gate(KernelCase{
        .kernel_name = std::string(k::kernel_name(kernel)),
        .launch = [&] { k::launch_rect_tile(kernel, out.get()); },
        .poison_output = [&] { out.poison(); },
        .check_output = [&] { return equal_elements(out.to_host(), k::rect_tile_reference(kernel)); },
        .expected = k::expected_access(kernel),
    });
  }
};

TEST_F(RectTile, setRowReadRowRect) { gate_kernel(k::RectTile::set_row_read_row); }
TEST_F(RectTile, setColReadColRect) { gate_kernel(k::RectTile::set_col_read_col); }
TEST_F(RectTile, setRowReadColRect) { gate_kernel(k::RectTile::set_row_read_col); }
TEST_F(RectTile, setRowReadColRectDyn) { gate_kernel(k::RectTile::set_row_read_col_dyn); }
TEST_F(RectTile, setRowReadColRectPad1) { gate_kernel(k::RectTile::set_row_read_col_pad1); }
TEST_F(RectTile, setRowReadColRectPad2) { gate_kernel(k::RectTile::set_row_read_col_pad2); }
TEST_F(RectTile, setRowReadColRectDynPad) { gate_kernel(k::RectTile::set_row_read_col_dyn_pad); }

}  // namespace
