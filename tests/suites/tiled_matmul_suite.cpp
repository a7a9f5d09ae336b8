// Seed 004: tiled float matrix multiplication, tiles of 16 and 32, on 512x512x512 (no bounds checks needed) and
// on 500x300x700 (every dimension ragged, the bounded kernels).
//
// Accuracy: the GPU sums k products in float, the reference in double (exact to ~1e-16 here). Each float
// addition rounds by at most u = 2^-24 ~ 6e-8 of the running sum; with random inputs of both signs those
// errors add up like a random walk, about u*sqrt(k) ~ 1.6e-6 relative for k = 700 (fused multiply-adds only
// lower it), far from the worst case k*u ~ 4e-5, which needs every rounding to go the same way. A bound of
// 1e-5 on the Frobenius-norm relative error leaves a margin of ~6x over that estimate, while a wrong index or
// a dropped partial tile (28 of 700 terms missing) gives an error of order 0.1 to 1.

#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include <bankgate/gtest/gate_fixture.hpp>
#include <bankgate/gtest/output_check.hpp>
#include <bankgate/gtest/prepared.hpp>
#include <bankgate/kernels/device_buffer.hpp>
#include <bankgate/kernels/tiled_matmul.cuh>

namespace {

namespace k = bankgate::kernels;
using bankgate::gtest::GateTest;
using bankgate::gtest::KernelCase;
using bankgate::gtest::Prepared;
using bankgate::gtest::relative_error_within;

constexpr double error_bound = 1e-5;

// Uniform in [-1, 1) from a fixed seed: reproducible, of both signs, and never a matrix of zeros.
std::vector<float> random_matrix(int rows, int cols, unsigned seed) {
  std::mt19937 engine(seed);
  std::uniform_real_distribution<float> value(-1.0f, 1.0f);
  std::vector<float> m(static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols));
  for (float& x : m) x = value(engine);
  return m;
}

// A shape's inputs and their product in double, made once per process and off the tests' path
// (bankgate/gtest/prepared.hpp): two kernels share each shape, and the 512x512x512 product took about 60 ms.
struct MatmulProblem {
  std::vector<float> a, b;
  std::vector<double> product;
};

MatmulProblem make_problem(k::MatmulShape shape) {
  MatmulProblem problem;
  problem.a = random_matrix(shape.m, shape.k, 4001);
  problem.b = random_matrix(shape.k, shape.n, 4002);
  problem.product = k::tiled_matmul_reference(problem.a, problem.b, shape);
  return problem;
}

const Prepared<MatmulProblem> square_problem("TiledMatmul", [] { return make_problem(k::matmul_square_shape); });
const Prepared<MatmulProblem> ragged_problem("TiledMatmul", [] { return make_problem(k::matmul_ragged_shape); });

const MatmulProblem& problem_of(k::MatmulShape shape) {
  const auto is = [&](k::MatmulShape known) { return shape.m == known.m && shape.n == known.n && shape.k == known.k; };
  if (is(k::matmul_square_shape)) return square_problem.get();
  if (is(k::matmul_ragged_shape)) return ragged_problem.get();
  throw std::invalid_argument("no prepared problem for a " + std::to_string(shape.m) + "x" + std::to_string(shape.n) +
                              "x" + std::to_string(shape.k) + " product: add one beside square_problem");
}

class TiledMatmul : public GateTest {
 protected:
  void gate_kernel(k::TiledMatmul kernel, k::MatmulShape shape) {
    const auto& [a_host, b_host, reference] = problem_of(shape);
    const k::DeviceBuffer<float> a(a_host);
    const k::DeviceBuffer<float> b(b_host);
    k::DeviceBuffer<float> c(reference.size());
    gate(KernelCase{
        .kernel_name = std::string(k::kernel_name(kernel)),
        .launch = [&] { k::launch_tiled_matmul(kernel, a.get(), b.get(), c.get(), shape); },
        .poison_output = [&] { c.poison(); },
        .check_output =
            [&] {
              const std::vector<float> product = c.to_host();
              return relative_error_within(std::vector<double>(product.begin(), product.end()), reference, error_bound);
            },
        .expected = k::expected_access(kernel, shape),
    });
  }
};

TEST_F(TiledMatmul, Tile16Square) { gate_kernel(k::TiledMatmul::tile16, k::matmul_square_shape); }
TEST_F(TiledMatmul, Tile32Square) { gate_kernel(k::TiledMatmul::tile32, k::matmul_square_shape); }
TEST_F(TiledMatmul, Tile16Ragged) { gate_kernel(k::TiledMatmul::tile16_bounded, k::matmul_ragged_shape); }
TEST_F(TiledMatmul, Tile32Ragged) { gate_kernel(k::TiledMatmul::tile32_bounded, k::matmul_ragged_shape); }

}  // namespace
