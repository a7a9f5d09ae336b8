#include <bankgate/gate/store/parallel_map.hpp>

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>

namespace {

using bankgate::gate::map_in_parallel;

TEST(MapInParallel, GivesEveryResultInIndexOrderAndCallsEachIndexOnce) {
  std::atomic<int> calls{0};
  auto results = map_in_parallel<std::string>(500, [&](std::size_t i) {
    ++calls;
    return std::to_string(i * i);
  });
  ASSERT_EQ(results.size(), 500u);
  EXPECT_EQ(calls.load(), 500);
  for (std::size_t i = 0; i < results.size(); ++i) EXPECT_EQ(results[i].get(), std::to_string(i * i));
}

TEST(MapInParallel, RunsOnSeveralThreadsWhereTheMachineHasThem) {
  std::set<std::thread::id> threads;
  std::mutex guard;
  map_in_parallel<int>(64, [&](std::size_t) {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    const std::lock_guard<std::mutex> lock(guard);
    threads.insert(std::this_thread::get_id());
    return 0;
  });
  EXPECT_EQ(threads.size() > 1, std::thread::hardware_concurrency() > 1) << threads.size() << " threads";
}

// Taken in order, results and errors come as a loop in order would meet them: the first error is the first index's
// that threw, and every other index still has its own result or error.
TEST(MapInParallel, KeepsEachCallsErrorAtItsIndex) {
  auto results = map_in_parallel<int>(100, [](std::size_t i) {
    if (i == 7 || i == 60) throw std::runtime_error("index " + std::to_string(i));
    return static_cast<int>(i);
  });
  EXPECT_EQ(results[6].get(), 6);
  EXPECT_THROW(
      {
        try {
          results[7].get();
        } catch (const std::runtime_error& e) {
          EXPECT_STREQ(e.what(), "index 7");
          throw;
        }
      },
      std::runtime_error);
  EXPECT_EQ(results[8].get(), 8);
  EXPECT_THROW(results[60].get(), std::runtime_error);
  EXPECT_EQ(results[99].get(), 99);
}

TEST(MapInParallel, NothingToDoGivesNothing) {
  bool called = false;
  EXPECT_TRUE(map_in_parallel<int>(0, [&](std::size_t) {
                called = true;
                return 0;
              }).empty());
  EXPECT_FALSE(called);
}

}  // namespace
