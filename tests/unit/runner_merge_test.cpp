// Recordings of several runners merged into one baseline (runner_merge.hpp): pooled samples, the tolerance
// widened by the runners' distance from the pooled median, and refusals that name what differs.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <bankgate/gate/rules/runner_merge.hpp>
#include <bankgate/gate/rules/statistics.hpp>

namespace {

using namespace bankgate::gate;

TestRecord timed_record(double center_ns, double transactions) {
  TestRecord r;
  r.kernel = "transposePadded";
  r.correct = true;
  r.counters["smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"] = {transactions, {}};
  for (int i = 0; i < 40; ++i) r.samples_ns.push_back(center_ns + (i % 5));
  r.timing = summarize_durations(r.samples_ns);
  r.timing->launches_per_sample = 32;
  return r;
}

RunnerRecording runner(const std::string& label, double center_ns, double transactions = 1024) {
  SuiteFile f;
  f.suite = "Transpose";
  f.gpu = {"sm_90", "nvidia-h200"};
  f.tests["Padded"] = timed_record(center_ns, transactions);
  return {label, {{"Transpose", f}}};
}

TEST(RunnerMerge, PoolsSamplesAndWidensTheAbsoluteToleranceByTheSpread) {
  const auto merged = merge_runners({runner("gpu-a", 760), runner("gpu-b", 800)});
  const TestRecord& r = merged.at("Transpose").tests.at("Padded");
  EXPECT_EQ(r.samples_ns.size(), 80u);
  ASSERT_TRUE(r.timing);
  const double pooled = median(r.samples_ns);
  EXPECT_DOUBLE_EQ(r.timing->median_ns, pooled);
  const double farthest = std::max(std::abs(762 - pooled), std::abs(802 - pooled));
  EXPECT_DOUBLE_EQ(r.timing->tolerance.absolute_ns, 64.0 + 2.0 * farthest);
  EXPECT_DOUBLE_EQ(r.timing->tolerance.relative, 0.03);
  EXPECT_NE(r.timing->tolerance.reason.find("merged from 2 runners"), std::string::npos) << r.timing->tolerance.reason;
  EXPECT_NE(r.timing->tolerance.reason.find("gpu-b"), std::string::npos);
  EXPECT_EQ(r.timing->launches_per_sample, 32);
  EXPECT_TRUE(r.correct);
}

// A runner 3x slower than the other widened every runner's tolerance by the gap, silently: a 3x slowdown passed.
TEST(RunnerMerge, RunnersFarApartAreRefusedNotMergedIntoAWideTolerance) {
  try {
    merge_runners({runner("gpu-a", 760), runner("gpu-b", 2280)});
    FAIL() << "runners 3x apart were merged";
  } catch (const RunnerMergeError& e) {
    EXPECT_NE(std::string(e.what()).find("x apart"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("gpu-b"), std::string::npos) << e.what();
  }
}

TEST(RunnerMerge, OneRunnerIsReturnedUnchanged) {
  const auto merged = merge_runners({runner("gpu-a", 760)});
  EXPECT_DOUBLE_EQ(merged.at("Transpose").tests.at("Padded").timing->tolerance.absolute_ns, 64.0);
  EXPECT_TRUE(merged.at("Transpose").tests.at("Padded").timing->tolerance.reason.empty());
}

TEST(RunnerMerge, AWrongOutputOnAnyRunnerMakesTheTestWrong) {
  RunnerRecording b = runner("gpu-b", 800);
  b.suites.at("Transpose").tests.at("Padded").correct = false;
  EXPECT_FALSE(merge_runners({runner("gpu-a", 760), b}).at("Transpose").tests.at("Padded").correct);
}

TEST(RunnerMerge, RefusesDifferentCountersNamingTheTestAndRunners) {
  try {
    merge_runners({runner("gpu-a", 760), runner("gpu-b", 800, 2048)});
    FAIL() << "merged recordings whose counters differ";
  } catch (const RunnerMergeError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("Transpose.Padded"), std::string::npos) << message;
    EXPECT_NE(message.find("gpu-a"), std::string::npos) << message;
    EXPECT_NE(message.find("gpu-b"), std::string::npos) << message;
    EXPECT_NE(message.find("one commit"), std::string::npos) << message;
  }
}

TEST(RunnerMerge, RefusesMissingTestsAndDifferentBatching) {
  RunnerRecording empty = runner("gpu-b", 800);
  empty.suites.at("Transpose").tests.clear();
  EXPECT_THROW(merge_runners({runner("gpu-a", 760), empty}), RunnerMergeError);
  RunnerRecording batched = runner("gpu-b", 800);
  batched.suites.at("Transpose").tests.at("Padded").timing->launches_per_sample = 16;
  EXPECT_THROW(merge_runners({runner("gpu-a", 760), batched}), RunnerMergeError);
  RunnerRecording other_model = runner("gpu-b", 800);
  other_model.suites.at("Transpose").gpu.model = "nvidia-h100-80gb-hbm3";
  EXPECT_THROW(merge_runners({runner("gpu-a", 760), other_model}), RunnerMergeError);
  EXPECT_THROW(merge_runners({}), RunnerMergeError);
}

}  // namespace
