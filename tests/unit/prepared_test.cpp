// bankgate::gtest::Prepared (gtest/include/bankgate/gtest/prepared.hpp): started on a thread of its own when the
// process starts measuring (start_preparations, which GateTest calls once it has found a GPU) and a test of its suite
// is to run, made once; never started for a suite the run leaves out, nor before start_preparations; its maker's
// error out of get().

#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <thread>

#include <bankgate/gtest/prepared.hpp>

namespace {

using bankgate::gtest::Prepared;

std::atomic<int> made_for_this_suite{0};
std::atomic<int> made_for_absent_suite{0};
std::thread::id maker;

const Prepared<int> for_this_suite("PreparedValue", [] {
  ++made_for_this_suite;
  maker = std::this_thread::get_id();
  return 42;
});
const Prepared<int> for_absent_suite("NoSuchSuite", [] {
  ++made_for_absent_suite;
  return 7;
});
const Prepared<int> failing("PreparedValue", []() -> int { throw std::runtime_error("the input file is missing"); });

TEST(PreparedValue, IsMadeOnceOnAThreadOfItsOwnFromWhenMeasuringStarts) {
  EXPECT_EQ(made_for_this_suite.load(), 0);  // queued, not started: no GPU was found yet
  bankgate::gtest::start_preparations();
  bankgate::gtest::start_preparations();  // once: the queue is emptied
  EXPECT_EQ(for_this_suite.get(), 42);
  EXPECT_EQ(for_this_suite.get(), 42);
  EXPECT_EQ(made_for_this_suite.load(), 1);
  EXPECT_NE(maker, std::this_thread::get_id());
}

TEST(PreparedValue, ASuiteTheRunLeavesOutStartsNothingAndGetMakesItThere) {
  EXPECT_EQ(made_for_absent_suite.load(), 0);
  EXPECT_EQ(for_absent_suite.get(), 7);
  EXPECT_EQ(made_for_absent_suite.load(), 1);
}

TEST(PreparedValue, TheMakersErrorComesOutOfGet) {
  try {
    failing.get();
    ADD_FAILURE() << "get() returned where its maker threw";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "the input file is missing");
  }
}

}  // namespace
