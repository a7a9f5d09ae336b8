// The collector's room for kernels, on a GPU: CUPTI keeps a full room's first kernels and need not say that it
// dropped others, so the collector counts a call's launches and grows the room to a call that launched more. Tested
// here because a wrong count loses kernels silently. Without a GPU each test is skipped, and ctest reports the entry
// skipped (tests/suites/CMakeLists.txt).

#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include <bankgate/collector.hpp>
#include <bankgate/metrics.hpp>

#include "gpu_present.hpp"

namespace {

__global__ void add_one(int* values) { values[threadIdx.x] += 1; }

class CollectorRoom : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!bankgate::test_support::gpu_present()) GTEST_SKIP() << "no GPU: the collector profiles on one";
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

// Two kernels captured into a graph on a stream of its own, and what they hold, released with it.
class TwoKernelGraph {
 public:
  explicit TwoKernelGraph(int* values) {
    ok_ = cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking) == cudaSuccess &&
          cudaStreamBeginCapture(stream_, cudaStreamCaptureModeThreadLocal) == cudaSuccess;
    if (!ok_) return;
    add_one<<<1, 32, 0, stream_>>>(values);
    add_one<<<1, 32, 0, stream_>>>(values);
    ok_ =
        cudaStreamEndCapture(stream_, &graph_) == cudaSuccess && cudaGraphInstantiate(&exec_, graph_, 0) == cudaSuccess;
  }
  ~TwoKernelGraph() {
    if (exec_ != nullptr) cudaGraphExecDestroy(exec_);
    if (graph_ != nullptr) cudaGraphDestroy(graph_);
    if (stream_ != nullptr) cudaStreamDestroy(stream_);
  }
  TwoKernelGraph(const TwoKernelGraph&) = delete;
  TwoKernelGraph& operator=(const TwoKernelGraph&) = delete;
  bool ok() const { return ok_; }
  cudaError_t launch() const { return cudaGraphLaunch(exec_, stream_); }

 private:
  bool ok_ = false;
  cudaStream_t stream_{};
  cudaGraph_t graph_{};
  cudaGraphExec_t exec_{};
};

// The range profiler reads NaN for a CUDA graph's launch (CUDA 13.0, driver 580, H200): the collector says so rather
// than return the NaN as counts, and before it would grow its room for the graph.
TEST_F(CollectorRoom, AGraphsLaunchIsRefusedNamingTheGraph) {
  const TwoKernelGraph graph(values_);
  ASSERT_TRUE(graph.ok()) << "the graph could not be captured";
  const auto c = collector(1);
  cudaError_t launched = cudaSuccess;
  try {
    c->collect_counters("room", [&] { launched = graph.launch(); });
    ADD_FAILURE() << "a graph's launch was profiled without a word";
  } catch (const bankgate::CollectorError& e) {
    EXPECT_EQ(e.kind(), bankgate::ErrorKind::cupti_failure);
    EXPECT_NE(std::string(e.what()).find("CUDA graph"), std::string::npos) << e.what();
  }
  EXPECT_EQ(launched, cudaSuccess);
  EXPECT_EQ(c->collect_counters("room", [&] { launch(1); }).size(), 1u) << "the collector still counts afterwards";
  EXPECT_EQ(c->last_counter_phases().room, 1u) << "the refused graph did not grow the room";
}

// The gate's metric list is evaluated on several threads (a list of a dozen metrics or fewer on the caller's alone):
// every value equals the one evaluated on one thread.
TEST_F(CollectorRoom, ValuesEvaluatedOnThreadsEqualThoseEvaluatedOnOne) {
  const std::vector<std::string> all = bankgate::default_metric_names();
  std::vector<bankgate::KernelCounters> threaded;
  {
    bankgate::Collector c(bankgate::CollectorOptions{.max_kernels_per_call = 8, .room_for_kernels = 2});
    threaded = c.collect_counters("threads", [&] { launch(2); });
  }
  ASSERT_EQ(threaded.size(), 2u);
  for (std::size_t first = 0; first < all.size(); first += 12) {
    const std::vector<std::string> part(all.begin() + first, all.begin() + std::min(all.size(), first + 12));
    bankgate::Collector c(
        bankgate::CollectorOptions{.metrics = part, .max_kernels_per_call = 8, .room_for_kernels = 2});
    const auto alone = c.collect_counters("one thread", [&] { launch(2); });
    ASSERT_EQ(alone.size(), 2u);
    for (std::size_t k = 0; k < 2; ++k)
      for (const std::string& name : part) {
        if (!alone[k].values.count(name)) continue;  // a unit the chip lacks
        EXPECT_EQ(threaded[k].values.at(name), alone[k].values.at(name)) << name << ", kernel " << k;
      }
  }
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
