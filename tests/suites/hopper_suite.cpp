// Hopper's own data paths: TMA bulk and tensor copies (with and without the 128-byte swizzle, read by
// ldmatrix), a TMA + wgmma GEMM as a tile loop and warp-specialised, and a cluster sharing a multicast copy
// through distributed shared memory.

#include <cstdint>
#include <vector>

#include <bankgate/gtest/gate_fixture.hpp>
#include <bankgate/gtest/output_check.hpp>
#include <bankgate/gtest/prepared.hpp>
#include <bankgate/kernels/cluster_multicast.cuh>
#include <bankgate/kernels/device_buffer.hpp>
#include <bankgate/kernels/tma_tile.cuh>
#include <bankgate/kernels/wgmma_gemm.cuh>

namespace {

namespace k = bankgate::kernels;
using bankgate::gtest::equal_elements;
using bankgate::gtest::GateTest;
using bankgate::gtest::KernelCase;
using bankgate::gtest::Prepared;

// Distinct, non-zero values that are exact in fp32 after the kernels' arithmetic, never the 0xA5 poison.
std::vector<float> distinct_floats(int count) {
  std::vector<float> values(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) values[static_cast<std::size_t>(i)] = static_cast<float>(i % 4093 + 1) * 0.5f;
  return values;
}

class TmaTile : public GateTest {
 protected:
  void gate_bulk_copy() {
    const std::vector<float> input = distinct_floats(k::tma_bulk_floats);
    const std::vector<float> reference = k::tma_bulk_copy_reference(input);
    const k::DeviceBuffer<float> in(input);
    k::DeviceBuffer<float> out(input.size());
    gate(KernelCase{
        .kernel_name = std::string(k::kernel_name(k::TmaTile::bulk_copy)),
        .launch = [&] { k::launch_tma_tile(k::TmaTile::bulk_copy, in.get(), out.get()); },
        .poison_output = [&] { out.poison(); },
        .check_output = [&] { return equal_elements(out.to_host(), reference); },
        .expected = k::expected_access(k::TmaTile::bulk_copy),
    });
  }

  void gate_ldmatrix(k::TmaTile kernel) {
    std::vector<std::uint32_t> input(k::tma_tile_total_words);
    for (int i = 0; i < k::tma_tile_total_words; ++i)
      input[i] = 0x00010001u * static_cast<std::uint32_t>(i) + 0x00030000u;
    const std::vector<std::uint32_t> reference = k::tma_tile_ldmatrix_reference(input);
    const k::DeviceBuffer<std::uint32_t> in(input);
    k::DeviceBuffer<std::uint32_t> out(input.size());
    gate(KernelCase{
        .kernel_name = std::string(k::kernel_name(kernel)),
        .launch = [&] { k::launch_tma_tile(kernel, in.get(), out.get()); },
        .poison_output = [&] { out.poison(); },
        .check_output = [&] { return equal_elements(out.to_host(), reference); },
        .expected = k::expected_access(kernel),
    });
  }
};

TEST_F(TmaTile, tmaBulkCopy) { gate_bulk_copy(); }
TEST_F(TmaTile, tmaTileLdmatrix) { gate_ldmatrix(k::TmaTile::ldmatrix_plain); }
TEST_F(TmaTile, tmaTileLdmatrixSwizzled) { gate_ldmatrix(k::TmaTile::ldmatrix_swizzled); }

// Both GEMMs multiply the same inputs: they and their product are made once per process, off the tests' path
// (bankgate/gtest/prepared.hpp); the product took 95-136 ms of the first GEMM test's preparation.
struct GemmProblem {
  std::vector<unsigned short> a = k::gemm_input(k::gemm_m, k::gemm_k, 1);
  std::vector<unsigned short> b = k::gemm_input(k::gemm_n, k::gemm_k, 2);
  std::vector<float> reference = k::wgmma_gemm_reference(a, b);
};

const Prepared<GemmProblem> prepared_gemm("WgmmaGemm", [] { return GemmProblem{}; });

const GemmProblem& gemm_problem() { return prepared_gemm.get(); }

class WgmmaGemm : public GateTest {
 protected:
  void gate_kernel(k::WgmmaGemm kernel) {
    const std::vector<float>& reference = gemm_problem().reference;
    const k::DeviceBuffer<unsigned short> a_device(gemm_problem().a);
    const k::DeviceBuffer<unsigned short> b_device(gemm_problem().b);
    k::DeviceBuffer<float> c(reference.size());
    gate(KernelCase{
        .kernel_name = std::string(k::kernel_name(kernel)),
        .launch = [&] { k::launch_wgmma_gemm(kernel, a_device.get(), b_device.get(), c.get()); },
        .poison_output = [&] { c.poison(); },
        .check_output = [&] { return equal_elements(c.to_host(), reference); },
        .expected = k::expected_access(kernel),
    });
  }
};

TEST_F(WgmmaGemm, wgmmaGemm) { gate_kernel(k::WgmmaGemm::tile_loop); }
TEST_F(WgmmaGemm, wgmmaGemmWarpSpecialized) { gate_kernel(k::WgmmaGemm::warp_specialized); }

class ClusterMulticast : public GateTest {};

TEST_F(ClusterMulticast, clusterMulticast) {
  const std::vector<float> input = distinct_floats(k::cluster_input_floats);
  const std::vector<float> reference = k::cluster_multicast_reference(input);
  const k::DeviceBuffer<float> in(input);
  k::DeviceBuffer<float> out(reference.size());
  gate(KernelCase{
      .kernel_name = std::string(k::cluster_multicast_kernel_name()),
      .launch = [&] { k::launch_cluster_multicast(in.get(), out.get()); },
      .poison_output = [&] { out.poison(); },
      .check_output = [&] { return equal_elements(out.to_host(), reference); },
      .expected = k::cluster_multicast_expectation(),
  });
}

}  // namespace
