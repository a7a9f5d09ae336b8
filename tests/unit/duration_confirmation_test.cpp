// A slower duration measured again in fresh processes (protocol/duration_confirmation.hpp): a per-process speed
// level passes by its fastest process, a real slowdown fails in every process and is judged by the fastest, and only
// a test whose sole failure is a slower duration is measured again.

#include <gtest/gtest.h>

#include <bankgate/gate/protocol/duration_confirmation.hpp>
#include <bankgate/gate/protocol/run_protocol.hpp>

namespace {

namespace g = bankgate::gate;

g::Finding duration(double measured, double baseline) {
  g::Finding f;
  f.metric = g::duration_metric;
  f.timing = true;
  f.measured = measured;
  f.baseline = baseline;
  f.verdict = measured > baseline * 1.03 ? g::Verdict::slower : g::Verdict::pass;
  return f;
}

g::TestResultRecord process(double measured_ns, double baseline_ns = 175200) {
  g::TestResultRecord r;
  r.suite = "FastCu";
  r.test = "K12Hilbert";
  r.findings = {{"smsp__sass_inst_executed_op_tma_ld.sum", false, 49152, 49152, "exact", g::Verdict::pass, ""},
                duration(measured_ns, baseline_ns)};
  r.outcome = r.findings.back().verdict == g::Verdict::pass ? g::Outcome::passed : g::Outcome::regressed;
  return r;
}

TEST(DurationConfirmation, OnlyASlowerDurationAloneIsMeasuredAgain) {
  EXPECT_TRUE(g::slower_duration_alone(process(198200)));
  EXPECT_FALSE(g::slower_duration_alone(process(175300))) << "a pass";
  g::TestResultRecord counter = process(198200);
  counter.findings.front().verdict = g::Verdict::counter_changed;
  EXPECT_FALSE(g::slower_duration_alone(counter)) << "a counter changed: that fails however fast a process is";
  g::TestResultRecord wrong = process(198200);
  wrong.wrong_output = true;
  EXPECT_FALSE(g::slower_duration_alone(wrong));
}

TEST(DurationConfirmation, APerProcessSpeedLevelPassesByItsFastestProcess) {
  const std::vector<g::TestResultRecord> processes{process(198200), process(197900), process(175600)};
  const g::ConfirmedDuration c = g::confirm_by_fastest_process(processes);
  EXPECT_EQ(c.chosen, 2u);
  EXPECT_EQ(c.slower, 2u);
  EXPECT_NE(c.note.find("duration slower in 2 of 3 processes"), std::string::npos) << c.note;
  EXPECT_NE(c.note.find("+13.1% slower, +13.0% slower, +0.2%"), std::string::npos) << c.note;
  const g::TestResultRecord stands = g::confirmed_record(processes);
  EXPECT_EQ(stands.outcome, g::Outcome::passed);
  EXPECT_EQ(stands.properties.at(g::protocol::property::duration_processes), "3");
  EXPECT_EQ(stands.properties.at(g::protocol::property::duration_processes_slower), "2");
  ASSERT_FALSE(stands.messages.empty());
  EXPECT_NE(stands.messages.back().find("per-process speed level"), std::string::npos);
}

TEST(DurationConfirmation, ASlowdownFailsInEveryProcessAndTheFastestIsJudged) {
  const std::vector<g::TestResultRecord> processes{process(218000), process(193000), process(195000), process(217500)};
  const g::TestResultRecord stands = g::confirmed_record(processes);
  EXPECT_EQ(stands.outcome, g::Outcome::regressed);
  EXPECT_DOUBLE_EQ(stands.findings.back().measured, 193000) << "the fastest process's change, +10.2%";
  EXPECT_NE(stands.messages.back().find("duration slower in all 4 processes"), std::string::npos)
      << stands.messages.back();
  EXPECT_NE(stands.messages.back().find("a slowdown, not a per-process speed level"), std::string::npos);
}

TEST(DurationConfirmation, AMultiKernelTestIsAsSlowAsItsSlowestKernel) {
  g::TestResultRecord two = process(175300);
  two.findings.push_back(duration(30000, 20000));
  EXPECT_DOUBLE_EQ(g::slowest_duration_ratio(two), 1.5);
  EXPECT_THROW(g::confirm_by_fastest_process({}), std::invalid_argument);
}

}  // namespace
