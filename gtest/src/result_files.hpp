#pragma once
// Per-test result files for suites run as one process (bankgate run-suite): as each test starts, its name goes
// into the running file (so a crash can be charged to it); as it ends, its result is written as a one-test
// GoogleTest report. A test that leaves the CUDA context unusable (an illegal address, a kernel assert) ends
// the process right after its report is written: every later test would fail on the same dead context, so
// the runner continues them in a fresh process instead.

#include <gtest/gtest.h>

#include <filesystem>

namespace bankgate::gtest {

class ResultFiles : public ::testing::EmptyTestEventListener {
 public:
  ResultFiles(std::filesystem::path results_dir, std::filesystem::path running_file);
  void OnTestStart(const ::testing::TestInfo& info) override;
  void OnTestEnd(const ::testing::TestInfo& info) override;

 private:
  std::filesystem::path results_dir_;
  std::filesystem::path running_file_;
};

// Exit status of a suite process that stopped after a test broke its CUDA context (ResultFiles).
inline constexpr int exit_context_lost = 86;

}  // namespace bankgate::gtest
