#pragma once
// What a suite's tests share and the CPU makes (inputs, a CPU reference), made on a thread of its own while the
// suite process starts measuring rather than inside the first test that needs it. A suite process spends its first
// half second starting CUDA and CUPTI and profiling its first kernel; a reference made meanwhile costs the gate
// nothing, where made in a test it adds its whole time to the run.
//
//   const bankgate::gtest::Prepared<GemmProblem> gemm("WgmmaGemm", [] { return make_gemm_problem(); });
//   ...
//   TEST_F(WgmmaGemm, tiled) { const GemmProblem& problem = gemm.get(); ... }
//
// Declare it at namespace scope. It starts once the suite process has found its GPU (GateTest does that in the
// first test), and only where a test of the named GoogleTest suite is to run (the name as GoogleTest gives it:
// "Prefix/Suite" for an instantiated TEST_P suite; any one of its tests starts it): a run filtered to other suites,
// listing tests, or on a machine without a GPU makes nothing. get() waits for it, or makes it there and then where
// it was never started; an exception from `make` comes out of get(), failing the test that called it. The outputs
// are still checked against it on every run.

#include <gtest/gtest.h>

#include <functional>
#include <future>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace bankgate::gtest {

namespace detail {
// The starts of the Prepared values this run's tests need, queued when the run begins.
inline std::vector<std::function<void()>>& queued_preparations() {
  static std::vector<std::function<void()>> queued;
  return queued;
}
}  // namespace detail

// Starts every queued Prepared value on a thread of its own, once: GateTest calls it when the suite process has
// found a GPU to measure on.
inline void start_preparations() {
  for (const std::function<void()>& start : std::exchange(detail::queued_preparations(), {})) start();
}

template <class T>
class Prepared {
 public:
  Prepared(std::string suite, std::function<T()> make) : make_(std::move(make)) {
    ::testing::AddGlobalTestEnvironment(new Starter(std::move(suite), *this));
  }
  Prepared(const Prepared&) = delete;
  Prepared& operator=(const Prepared&) = delete;

  // The made value, waiting for its thread where it runs; the tests of a suite run on one thread.
  const T& get() const {
    if (!value_) value_.emplace(started_.valid() ? started_.get() : make_());
    return *value_;
  }

 private:
  // Owned by GoogleTest once added.
  class Starter : public ::testing::Environment {
   public:
    Starter(std::string suite, Prepared& prepared) : suite_(std::move(suite)), prepared_(prepared) {}
    void SetUp() override {
      if (!will_run(suite_)) return;
      detail::queued_preparations().push_back([&prepared = prepared_] {
        if (prepared.value_ || prepared.started_.valid()) return;  // made, or making, already (--gtest_repeat)
        prepared.started_ = std::async(std::launch::async, prepared.make_);
      });
    }

   private:
    static bool will_run(const std::string& suite) {
      const ::testing::UnitTest& tests = *::testing::UnitTest::GetInstance();
      for (int i = 0; i < tests.total_test_suite_count(); ++i)
        if (tests.GetTestSuite(i)->name() == suite && tests.GetTestSuite(i)->test_to_run_count() > 0) return true;
      return false;
    }
    std::string suite_;
    Prepared& prepared_;
  };

  std::function<T()> make_;
  mutable std::future<T> started_;
  mutable std::optional<T> value_;
};

}  // namespace bankgate::gtest
