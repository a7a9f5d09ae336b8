#pragma once
// Per-test result files for suites run as one process (bankgate run-suite): as each test starts, its name goes
// into the running file (so a crash can be charged to it); as it ends, its result record is written
// (gate/protocol/test_result.hpp): its outcome, from how GoogleTest ended it and what gate() found (case_verdict.hpp).
// A test that leaves the CUDA context unusable (an illegal address, a kernel assert) ends
// the process right after its report is written: every later test would fail on the same dead context, so
// the runner continues them in a fresh process instead.
//
// When several shards of a suite measure at once (a claims folder given), each test is first claimed
// (bankgate/gate/test_claims.hpp): a test another shard holds is skipped before its fixture's SetUp, and no
// result file is written for it here. With --gtest_repeat each repetition's tests are claimed anew.

#include <gtest/gtest.h>

#include <filesystem>
#include <optional>

#include <bankgate/gate/protocol/run_protocol.hpp>

namespace bankgate::gtest {

struct ShardClaims {
  std::filesystem::path dir;  // the run's claims folder of this suite
  int shard = 0;
};

class ResultFiles : public ::testing::EmptyTestEventListener {
 public:
  ResultFiles(std::filesystem::path results_dir, std::filesystem::path running_file, std::optional<ShardClaims> claims);
  void OnTestIterationStart(const ::testing::UnitTest& unit_test, int iteration) override;
  void OnTestStart(const ::testing::TestInfo& info) override;
  void OnTestEnd(const ::testing::TestInfo& info) override;

 private:
  std::filesystem::path results_dir_;
  std::filesystem::path running_file_;
  std::optional<ShardClaims> claims_;
  int iteration_ = 0;
  bool held_elsewhere_ = false;  // the current test belongs to another shard
};

// After the last test: says run-suite may stop waiting (the running file holds protocol::finished_marker and
// `status`), with this process's standard output and error closed first, so that neither run-suite nor ctest waits
// for the exit that follows, in which the driver releases the CUDA context. Nothing is written where the marker
// cannot be placed: run-suite then waits for the exit as before.
void hand_over_exit(const std::filesystem::path& running_file, int status);

// Exit status of a suite process that stopped after a test broke its CUDA context (ResultFiles).
using gate::protocol::exit_context_lost;

}  // namespace bankgate::gtest
