// Matrix transpose: naive, through a 32x32 shared tile, a padded tile and an XOR-swizzled tile, on a square
// 2048x2048 matrix and a non-square 1080x1920 one (rows x columns; 1080 leaves a partial tile row).

#include <utility>
#include <stdexcept>
#include <string>
#include <vector>

#include <bankgate/gtest/gate_fixture.hpp>
#include <bankgate/gtest/prepared.hpp>
#include <bankgate/kernels/device_buffer.hpp>
#include <bankgate/kernels/transpose.cuh>

#include "device_output_check.hpp"

namespace {

namespace k = bankgate::kernels;
using bankgate::catalogue::equal_on_device;
using bankgate::gtest::GateTest;
using bankgate::gtest::KernelCase;
using bankgate::gtest::Prepared;

// A shape's input and its transpose, made once per process and off the tests' path (bankgate/gtest/prepared.hpp):
// four kernels share each shape, and making one took 50-90 ms at 2048x2048.
struct TransposeProblem {
  std::vector<float> input, reference;
};

TransposeProblem make_problem(k::TransposeShape shape) {
  TransposeProblem problem;
  problem.input.resize(static_cast<std::size_t>(shape.rows) * static_cast<std::size_t>(shape.cols));
  // Distinct integers below 2^24, exact in float: a misplaced element shows, and equality is exact.
  for (std::size_t i = 0; i < problem.input.size(); ++i) problem.input[i] = static_cast<float>(i);
  problem.reference = k::transpose_reference(problem.input, shape);
  return problem;
}

const Prepared<TransposeProblem> square_problem("Transpose", [] { return make_problem(k::transpose_square_shape); });
const Prepared<TransposeProblem> hd_problem("Transpose", [] { return make_problem(k::transpose_hd_shape); });

const TransposeProblem& problem_of(k::TransposeShape shape) {
  const auto is = [&](k::TransposeShape known) { return shape.rows == known.rows && shape.cols == known.cols; };
  if (is(k::transpose_square_shape)) return square_problem.get();
  if (is(k::transpose_hd_shape)) return hd_problem.get();
  throw std::invalid_argument("no prepared problem for a " + std::to_string(shape.rows) + "x" +
                              std::to_string(shape.cols) + " transpose: add one beside square_problem");
}

class Transpose : public GateTest {
 protected:
  void gate_kernel(k::Transpose kernel, k::TransposeShape shape) {
    const auto& [input, reference] = problem_of(shape);
    const k::DeviceBuffer<float> in(input);
    k::DeviceBuffer<float> out(input.size());
    // Checked on the GPU: no 16 MiB copy back per check. Allocated last, so that `in` and `out` lie where they did
    // before it was added: the naive transpose's speed depends on where the driver puts its buffers.
    const k::DeviceBuffer<float> expected(reference);
    gate(KernelCase{
        .kernel_name = std::string(k::kernel_name(kernel)),
        .launch = [&] { k::launch_transpose(kernel, in.get(), out.get(), shape); },
        .poison_output = [&] { out.poison(); },
        .check_output = [&] { return equal_on_device(out, expected); },
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
