// The collector's room for kernels, on a GPU: CUPTI keeps a full room's first kernels and need not say that it
// dropped others, so the collector counts a call's launches and grows the room to a call that launched more. Tested
// here because a wrong count loses kernels silently. Without a GPU each test is skipped, and ctest reports the entry
// skipped (tests/suites/CMakeLists.txt).

#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <memory>
#include <string>
#include <vector>

#include <bankgate/collector.hpp>
#include <bankgate/metrics.hpp>

namespace {

__global__ void add_one(int* values) { values[threadIdx.x] += 1; }

class CollectorRoom : public ::testing::Test {
 protected:
  void SetUp() override {
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
      cudaGetLastError();
      GTEST_SKIP() << "no GPU: the collector profiles on one";
    }
    ASSERT_EQ(cudaMalloc(&values_, 32 * sizeof(int)), cudaSuccess);
  }
  void TearDown() override { cudaFree(values_); }

  std::unique_ptr<bankgate::Collector> collector(std::size_t room, std::size_t most = 8) {
    return std::make_unique<bankgate::Collector>(
        bankgate::CollectorOptions{.metrics = {std::string(bankgate::metric::instructions)},
                                   .max_kernels_per_call = most,
                                   .room_for_kernels = room});
  }
  void launch(int kernels) {
    for (int i = 0; i < kernels; ++i) add_one<<<1, 32>>>(values_);
  }
  static double instructions(const bankgate::KernelCounters& k) {
    return k.values.at(std::string(bankgate::metric::instructions));
  }

  int* values_ = nullptr;
};

TEST_F(CollectorRoom, AKernelThatFillsTheRoomIsKeptWithoutGrowing) {
  const auto c = collector(1);
  const auto counters = c->collect_counters("room", [&] { launch(1); });
  ASSERT_EQ(counters.size(), 1u);
  EXPECT_GT(instructions(counters[0]), 0.0);
  EXPECT_EQ(c->last_counter_phases().room, 1u) << "a counted launch that fills the room needs no larger one";
}

TEST_F(CollectorRoom, ACallThatLaunchedMoreGrowsTheRoomToItsCount) {
  const auto c = collector(1);
  const auto one = c->collect_counters("room", [&] { launch(1); });
  const auto three = c->collect_counters("room", [&] { launch(3); });
  ASSERT_EQ(three.size(), 3u) << "every kernel of the call, none dropped";
  EXPECT_EQ(c->last_counter_phases().room, 3u);
  for (const auto& k : three) EXPECT_EQ(instructions(k), instructions(one.at(0)));
  const auto again = c->collect_counters("room", [&] { launch(3); });
  EXPECT_EQ(again.size(), 3u);
  EXPECT_EQ(c->last_counter_phases().room, 3u) << "the room does not grow again for a call of its size";
  EXPECT_EQ(c->collect_counters("room", [&] { launch(1); }).size(), 1u);
}

// A graph's launch is one range, its kernels' counts together (CUDA 13.0, driver 580, H200); its kernels go
// uncounted, so a room the range fills is grown, as without a count.
TEST_F(CollectorRoom, AGraphIsOneRangeAndItsFullRoomGrows) {
  cudaStream_t stream{};
  ASSERT_EQ(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), cudaSuccess);
  cudaGraph_t graph{};
  ASSERT_EQ(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal), cudaSuccess);
  add_one<<<1, 32, 0, stream>>>(values_);
  add_one<<<1, 32, 0, stream>>>(values_);
  ASSERT_EQ(cudaStreamEndCapture(stream, &graph), cudaSuccess);
  cudaGraphExec_t exec{};
  ASSERT_EQ(cudaGraphInstantiate(&exec, graph, 0), cudaSuccess);
  const auto c = collector(1);
  const auto single = c->collect_counters("room", [&] { launch(1); });
  const auto counters = c->collect_counters("room", [&] { cudaGraphLaunch(exec, stream); });
  ASSERT_EQ(counters.size(), 1u);
  EXPECT_EQ(instructions(counters[0]), 2 * instructions(single.at(0))) << "both of the graph's kernels";
  EXPECT_EQ(c->last_counter_phases().room, 2u) << "a full room without a count may have dropped kernels";
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
  cudaStreamDestroy(stream);
}

TEST_F(CollectorRoom, MoreKernelsThanAllowedFailNamingTheLimit) {
  const auto c = collector(1, 4);
  try {
    c->collect_counters("room", [&] { launch(5); });
    FAIL() << "a call of 5 kernels was profiled with max_kernels_per_call 4";
  } catch (const bankgate::CollectorError& e) {
    EXPECT_EQ(e.kind(), bankgate::ErrorKind::too_many_kernels);
    EXPECT_NE(std::string(e.what()).find("max_kernels_per_call"), std::string::npos) << e.what();
  }
}

TEST_F(CollectorRoom, NoRoomIsRefused) {
  try {
    collector(0);
    FAIL() << "room_for_kernels 0 was taken";
  } catch (const bankgate::CollectorError& e) {
    EXPECT_EQ(e.kind(), bankgate::ErrorKind::invalid_options);
  }
}

}  // namespace
