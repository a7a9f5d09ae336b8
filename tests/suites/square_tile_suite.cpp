// Seed 000's square 32x32 tile: row/column-major access, static and dynamic declaration, padding.

#include <bankgate/gtest/gate_fixture.hpp>
#include <bankgate/gtest/output_check.hpp>
#include <bankgate/kernels/device_buffer.hpp>
#include <bankgate/kernels/square_tile.cuh>

namespace {

namespace k = bankgate::kernels;
using bankgate::gtest::equal_elements;
using bankgate::gtest::GateTest;
using bankgate::gtest::KernelCase;

class SquareTile : public GateTest {
 protected:
  void gate_kernel(k::SquareTile kernel) {
    k::DeviceBuffer<int> out(k::square_tile_elements);
    gate(KernelCase{
        .kernel_name = std::string(k::kernel_name(kernel)),
        .launch = [&] { k::launch_square_tile(kernel, out.get()); },
        .poison_output = [&] { out.poison(); },
        .check_output = [&] { return equal_elements(out.to_host(), k::square_tile_reference(kernel)); },
        .expected = k::expected_access(kernel),
    });
  }
};

TEST_F(SquareTile, setRowReadRow) { gate_kernel(k::SquareTile::set_row_read_row); }
TEST_F(SquareTile, setColReadCol) { gate_kernel(k::SquareTile::set_col_read_col); }
TEST_F(SquareTile, setRowReadCol) { gate_kernel(k::SquareTile::set_row_read_col); }
TEST_F(SquareTile, setColReadRow) { gate_kernel(k::SquareTile::set_col_read_row); }
TEST_F(SquareTile, setRowReadColDyn) { gate_kernel(k::SquareTile::set_row_read_col_dyn); }
TEST_F(SquareTile, setRowReadColIpad) { gate_kernel(k::SquareTile::set_row_read_col_ipad); }
TEST_F(SquareTile, setRowReadColDynIpad) { gate_kernel(k::SquareTile::set_row_read_col_dyn_ipad); }

}  // namespace
