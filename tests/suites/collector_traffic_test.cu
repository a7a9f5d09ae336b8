// The TMA traffic on a Hopper GPU (sm_90): a kernel that executed TMA instructions is counted again for the traffic's
// hardware counters (docs/measurement.md says on which metric sets), and every other kernel records no traffic.
// Tested here because a profiler object moved between metric sets can read NaN or another set's counts, and every
// order of kernels a suite makes must read the bytes each kernel moves. Without a GPU, or on one that is not a
// Hopper, each test is skipped, and ctest reports the entry skipped (tests/suites/CMakeLists.txt).

#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <bankgate/collector.hpp>
#include <bankgate/kernels/device_buffer.hpp>
#include <bankgate/kernels/tiled_matmul.cuh>
#include <bankgate/kernels/tma_tile.cuh>
#include <bankgate/metrics.hpp>

#include "gpu_present.hpp"

namespace {

namespace k = bankgate::kernels;

const std::string tma_loads = "smsp__sass_inst_executed_op_tma_ld.sum";
const std::string read_bytes = "l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld.sum";
const std::string multicast_bytes = "l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld_dest_multicast.sum";
const std::string written_bytes = "l1tex__m_l1tex2xbar_write_bytes_mem_global_op_tma_st.sum";

class CollectorTraffic : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!bankgate::test_support::gpu_present()) GTEST_SKIP() << "no GPU: the collector profiles on one";
    cudaDeviceProp prop{};
    ASSERT_EQ(cudaGetDeviceProperties(&prop, 0), cudaSuccess);
    // The catalogue's Hopper kernels are built for sm_90a alone, whose code runs on no other architecture.
    if (prop.major != 9)
      GTEST_SKIP() << prop.name << " is not a Hopper GPU (sm_90), which the TMA kernels are built for";
    b_ = std::make_unique<Buffers>();
    collector_ = std::make_unique<bankgate::Collector>(
        bankgate::CollectorOptions{.max_kernels_per_call = 8, .room_for_kernels = 2});
  }

  bankgate::KernelCounters count(const std::function<void()>& launch) {
    const auto counters = collector_->collect_counters("traffic", launch);
    EXPECT_EQ(counters.size(), 1u);
    return counters.empty() ? bankgate::KernelCounters{} : counters.front();
  }
  bankgate::KernelCounters bulk_copy() {
    return count([&] { k::launch_tma_tile(k::TmaTile::bulk_copy, b_->bulk_in.get(), b_->bulk_out.get()); });
  }
  bankgate::KernelCounters tile_read_by_ldmatrix() {
    return count([&] { k::launch_tma_tile(k::TmaTile::ldmatrix_swizzled, b_->tile_in.get(), b_->tile_out.get()); });
  }
  bankgate::KernelCounters matmul() {
    return count([&] {
      k::launch_tiled_matmul(k::TiledMatmul::tile16, b_->a.get(), b_->b.get(), b_->c.get(), k::matmul_square_shape);
    });
  }

  struct Buffers {
    k::DeviceBuffer<float> bulk_in{std::vector<float>(k::tma_bulk_floats, 1.0f)}, bulk_out{k::tma_bulk_floats};
    k::DeviceBuffer<std::uint32_t> tile_in{std::vector<std::uint32_t>(k::tma_tile_total_words, 1u)},
        tile_out{k::tma_tile_total_words};
    k::DeviceBuffer<float> a{std::vector<float>(512 * 512, 1.0f)}, b{std::vector<float>(512 * 512, 1.0f)}, c{512 * 512};
  };
  std::unique_ptr<Buffers> b_;  // made once a GPU is found
  std::unique_ptr<bankgate::Collector> collector_;
};

// The bytes each kernel's copies move, from its definition: one 4 KiB bulk copy per block; one 8 KiB tensor tile
// per block. Neither multicasts or stores through the engine.
void expect_bulk_copy(const bankgate::KernelCounters& k) {
  EXPECT_EQ(k.values.at(tma_loads), k::tma_bulk_blocks);
  EXPECT_EQ(k.values.at(read_bytes), k::tma_bulk_floats * sizeof(float));
  EXPECT_EQ(k.values.at(multicast_bytes), 0.0);
  EXPECT_EQ(k.values.at(written_bytes), 0.0);
}
void expect_tile_read(const bankgate::KernelCounters& k) {
  EXPECT_EQ(k.values.at(tma_loads), k::tma_tile_blocks);
  EXPECT_EQ(k.values.at(read_bytes), k::tma_tile_total_words * sizeof(std::uint32_t));
  EXPECT_EQ(k.values.at(multicast_bytes), 0.0);
  EXPECT_EQ(k.values.at(written_bytes), 0.0);
}
void expect_no_traffic(const bankgate::KernelCounters& k) {
  for (const std::string& name : {tma_loads, read_bytes, multicast_bytes, written_bytes})
    EXPECT_EQ(k.values.at(name), 0.0) << name;
}
void expect_every_value_read(const bankgate::KernelCounters& k) {
  for (const auto& [name, value] : k.values) EXPECT_FALSE(std::isnan(value)) << name;
}

TEST_F(CollectorTraffic, TheFirstKernelCountedMovesItsBytesThroughTheEngine) {
  const auto copy = bulk_copy();
  expect_every_value_read(copy);
  expect_bulk_copy(copy);
}

// TMA kernels between CUDA-core kernels, in the orders a suite makes: each kernel reads every value, the TMA kernels
// their bytes, the others no traffic, and a kernel counted again reads what it read before.
TEST_F(CollectorTraffic, AnyOrderOfKernelsReadsEachKernelsOwnValues) {
  const auto first_matmul = matmul();
  expect_every_value_read(first_matmul);
  expect_no_traffic(first_matmul);
  enum class Kernel { matmul, bulk_copy, tile_read };
  const std::vector<Kernel> order{Kernel::bulk_copy, Kernel::matmul,    Kernel::tile_read,
                                  Kernel::tile_read, Kernel::bulk_copy, Kernel::matmul};
  std::vector<bankgate::KernelCounters> copies, tiles;
  for (std::size_t i = 0; i < order.size(); ++i) {
    SCOPED_TRACE("call " + std::to_string(i + 2) + " of the collector");
    if (order[i] == Kernel::matmul) {
      const auto counted = matmul();
      EXPECT_EQ(counted.values, first_matmul.values) << "a CUDA-core kernel counted again";
    } else if (order[i] == Kernel::bulk_copy) {
      copies.push_back(bulk_copy());
      expect_every_value_read(copies.back());
      expect_bulk_copy(copies.back());
    } else {
      tiles.push_back(tile_read_by_ldmatrix());
      expect_every_value_read(tiles.back());
      expect_tile_read(tiles.back());
    }
  }
  EXPECT_EQ(copies[0].values, copies[1].values);
  EXPECT_EQ(tiles[0].values, tiles[1].values);
}

}  // namespace
