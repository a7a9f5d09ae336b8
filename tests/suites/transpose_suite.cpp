// Matrix transpose: naive, through a 32x32 shared tile, a padded tile and an XOR-swizzled tile, on a square
// 2048x2048 matrix and a non-square 1080x1920 one (rows x columns; 1080 leaves a partial tile row).

#include <map>
#include <utility>
#include <vector>

#include <bankgate/gtest/gate_fixture.hpp>
#include <bankgate/gtest/output_check.hpp>
#include <bankgate/kernels/device_buffer.hpp>
#include <bankgate/kernels/transpose.cuh>

namespace {

namespace k = bankgate::kernels;
using bankgate::gtest::equal_elements;
using bankgate::gtest::GateTest;
using bankgate::gtest::KernelCase;

// A shape's input and its transpose, made once per process: four kernels share each shape, and making them took
// about 60 ms of each test's preparation at 2048x2048.
struct TransposeProblem {
  std::vector<float> input, reference;
};

const TransposeProblem& problem_of(k::TransposeShape shape) {
  static std::map<std::pair<int, int>, TransposeProblem> made;
  auto [it, fresh] = made.try_emplace({shape.rows, shape.cols});
  if (fresh) {
    std::vector<float>& input = it->second.input;
    input.resize(static_cast<std::size_t>(shape.rows) * static_cast<std::size_t>(shape.cols));
    // Distinct integers below 2^24, exact in float: a misplaced element shows, and equality is exact.
    for (std::size_t i = 0; i < input.size(); ++i) input[i] = static_cast<float>(i);
    it->second.reference = k::transpose_reference(input, shape);
  }
  return it->second;
}

class Transpose : public GateTest {
 protected:
  void gate_kernel(k::Transpose kernel, k::TransposeShape shape) {
    const auto& [input, reference] = problem_of(shape);
    const k::DeviceBuffer<float> in(input);
    k::DeviceBuffer<float> out(input.size());
    gate(KernelCase{
        .kernel_name = std::string(k::kernel_name(kernel)),
        .launch = [&] { k::launch_transpose(kernel, in.get(), out.get(), shape); },
        .poison_output = [&] { out.poison(); },
        .check_output = [&] { return equal_elements(out.to_host(), reference); },
        .expected = k::expected_access(kernel, shape),
    });
  }
};

TEST_F(Transpose, NaiveSquare) { gate_kernel(k::Transpose::naive, k::transpose_square_shape); }
TEST_F(Transpose, TiledSquare) { gate_kernel(k::Transpose::tiled, k::transpose_square_shape); }
TEST_F(Transpose, PaddedSquare) { gate_kernel(k::Transpose::padded, k::transpose_square_shape); }
TEST_F(Transpose, SwizzledSquare) { gate_kernel(k::Transpose::swizzled, k::transpose_square_shape); }
TEST_F(Transpose, NaiveNonSquare) { gate_kernel(k::Transpose::naive, k::transpose_hd_shape); }
TEST_F(Transpose, TiledNonSquare) { gate_kernel(k::Transpose::tiled, k::transpose_hd_shape); }
TEST_F(Transpose, PaddedNonSquare) { gate_kernel(k::Transpose::padded, k::transpose_hd_shape); }
TEST_F(Transpose, SwizzledNonSquare) { gate_kernel(k::Transpose::swizzled, k::transpose_hd_shape); }

}  // namespace
