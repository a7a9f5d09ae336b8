// Recordings of several processes merged into one (process_spread.hpp): when processes disagree, how a kernel with
// modes is recorded, which tests another process measures, and how the gate then judges such a kernel.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <bankgate/gate/rules/baseline_json.hpp>
#include <bankgate/gate/rules/comparison.hpp>
#include <bankgate/gate/rules/process_spread.hpp>
#include <bankgate/gate/rules/statistics.hpp>
#include <bankgate/gate/rules/test_filter.hpp>

namespace {

using namespace bankgate::gate;

constexpr const char* wavefronts = "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum";

// 200 durations around `center_ns`, spread over 7 steps of 30 ns as a quiet process's are.
std::vector<double> durations(double center_ns) {
  std::vector<double> samples;
  for (int i = 0; i < 200; ++i) samples.push_back(center_ns + 30.0 * (i % 7 - 3));
  return samples;
}

TestRecord timed(double center_ns, const std::string& kernel = "gemm_sm90") {
  TestRecord r;
  r.kernel = kernel;
  r.correct = true;
  r.counters[wavefronts] = {4096, {}};
  r.samples_ns = durations(center_ns);
  r.timing = summarize_durations(r.samples_ns);
  return r;
}

// One process's recording of suite Gemm: test Large at `large_ns`, and, where `small_ns` is given, Small.
ProcessRecording process(int n, double large_ns, double small_ns = 0.0) {
  SuiteFile f;
  f.suite = "Gemm";
  f.gpu = {"sm_90", "nvidia-h100"};
  f.tests["Large"] = timed(large_ns);
  if (small_ns > 0.0) f.tests["Small"] = timed(small_ns);
  return {"process " + std::to_string(n), {{"Gemm", f}}};
}

TEST(ProcessesDisagree, MediansFarApartBeyondTheirNoise) {
  EXPECT_TRUE(processes_disagree({{251300, 200, 200}, {280900, 200, 200}}));
}

TEST(ProcessesDisagree, AGapTheStandardErrorsExplainIsNoMode) {
  // 30 ns apart, each median uncertain by 20 ns: 4 x 28 ns of noise covers the gap.
  EXPECT_FALSE(processes_disagree({{100000, 20, 200}, {100030, 20, 200}}));
}

TEST(ProcessesDisagree, AWobbleOfATenthOfAPercentIsNoModeHoweverPrecise) {
  EXPECT_FALSE(processes_disagree({{100000, 0.1, 200}, {100100, 0.1, 200}}));  // 0.1%: under the 0.5% + 64 ns floor
  EXPECT_TRUE(processes_disagree({{100000, 0.1, 200}, {101000, 0.1, 200}}));   // 1%: beyond it
}

TEST(ProcessesDisagree, OneStepOfTheTimerIsNoMode) {
  EXPECT_FALSE(processes_disagree({{2000, 0, 200}, {2032, 0, 200}}));  // 32 ns: under 10 + 64 ns
  EXPECT_FALSE(processes_disagree({{2000, 0, 200}, {2064, 0, 200}}));  // two steps: still under 74 ns
  EXPECT_TRUE(processes_disagree({{2000, 0, 200}, {2096, 0, 200}}));
}

TEST(ProcessesDisagree, AnyPairOfManyProcessesCounts) {
  EXPECT_TRUE(processes_disagree({{251300, 200, 200}, {251400, 200, 200}, {280900, 200, 200}}));
  EXPECT_FALSE(processes_disagree({{251300, 200, 200}}));
  EXPECT_FALSE(processes_disagree({}));
}

TEST(MergeProcesses, AgreeingProcessesArePooledWithTheTestsOwnTolerance) {
  const ProcessMerge merged = merge_processes({process(1, 251300), process(2, 251330)});
  EXPECT_TRUE(merged.modal.empty());
  const TestRecord& r = merged.suites.at("Gemm").tests.at("Large");
  EXPECT_EQ(r.samples_ns.size(), 400u);
  ASSERT_TRUE(r.timing);
  EXPECT_EQ(r.timing->samples, 400u);
  EXPECT_DOUBLE_EQ(r.timing->median_ns, median(r.samples_ns));
  EXPECT_DOUBLE_EQ(r.timing->tolerance.absolute_ns, 64.0);
  EXPECT_DOUBLE_EQ(r.timing->tolerance.relative, 0.03);
  EXPECT_TRUE(r.timing->tolerance.reason.empty());
  EXPECT_TRUE(r.timing->tolerance.modes_ns.empty());
}

TEST(MergeProcesses, LevelsRecordTheFastestProcessWithTheTestsOwnTolerance) {
  const ProcessMerge merged = merge_processes({process(1, 280900), process(2, 251300)});
  ASSERT_EQ(merged.modal.size(), 1u);
  EXPECT_EQ(merged.modal[0].name, "Gemm.Large");
  EXPECT_EQ(merged.modal[0].medians_ns, (std::vector<double>{280900, 251300}));
  const TestRecord& r = merged.suites.at("Gemm").tests.at("Large");
  ASSERT_TRUE(r.timing);
  EXPECT_DOUBLE_EQ(r.timing->median_ns, 251300) << "the fastest process, not the pooled median";
  EXPECT_EQ(r.samples_ns, durations(251300)) << "the fastest process's own samples";
  EXPECT_DOUBLE_EQ(r.timing->tolerance.absolute_ns, 64.0) << "never widened to hold the slower level";
  EXPECT_DOUBLE_EQ(r.timing->tolerance.relative, 0.03);
  EXPECT_EQ(r.timing->tolerance.modes_ns, (std::vector<double>{280900, 251300}));
  EXPECT_EQ(
      r.timing->tolerance.reason.rfind("speed depends on the process: medians 251.3, 280.9 us in 2 processes; ", 0), 0u)
      << r.timing->tolerance.reason;
  EXPECT_DOUBLE_EQ(r.timing->median_se_ns, summarize_durations(durations(251300)).median_se_ns);
}

TEST(MergeProcesses, ATestsOwnReasonIsKeptBeforeTheModes) {
  ProcessRecording a = process(1, 251300), b = process(2, 280900);
  for (ProcessRecording* p : {&a, &b}) {
    TimingSummary& t = *p->suites.at("Gemm").tests.at("Large").timing;
    t.tolerance = {0.05, 64.0, "TMA descriptors are rebuilt per launch"};
  }
  const std::string reason = merge_processes({a, b}).suites.at("Gemm").tests.at("Large").timing->tolerance.reason;
  EXPECT_EQ(reason.rfind("TMA descriptors are rebuilt per launch; speed depends on the process", 0), 0u) << reason;
}

TEST(MergeProcesses, CountersAndFiguresAreTheFirstProcesss) {
  ProcessRecording b = process(2, 251330);
  b.suites.at("Gemm").tests.at("Large").counters[wavefronts].value = 4100;
  b.suites.at("Gemm").tests.at("Large").correct = false;
  const ProcessMerge merged = merge_processes({process(1, 251300), b});
  const TestRecord& r = merged.suites.at("Gemm").tests.at("Large");
  EXPECT_EQ(r.counters.at(wavefronts).value, 4096);
  EXPECT_FALSE(r.correct);  // a wrong output in any process is a wrong output
}

TEST(MergeProcesses, ALaterProcessOfSomeTestsMergesThoseOnly) {
  // Processes 1 and 2 measured both tests; process 3 only Large, whose speeds differed.
  SuiteFile third = process(3, 280950).suites.at("Gemm");
  const ProcessMerge merged =
      merge_processes({process(1, 251300, 5000), process(2, 280900, 5010), {"process 3", {{"Gemm", third}}}});
  ASSERT_EQ(merged.modal.size(), 1u);
  EXPECT_EQ(merged.modal[0].medians_ns.size(), 3u);
  EXPECT_EQ(merged.suites.at("Gemm").tests.at("Large").samples_ns, durations(251300)) << "the fastest process's";
  EXPECT_EQ(merged.suites.at("Gemm").tests.at("Small").samples_ns.size(), 400u) << "agreeing processes pooled";
  EXPECT_NE(merged.suites.at("Gemm").tests.at("Large").timing->tolerance.reason.find("in 3 processes"),
            std::string::npos);
}

// Levels far apart are recorded like any: the fastest stands, and the gate measures a slower process again.
TEST(MergeProcesses, LevelsFarApartKeepTheFastest) {
  const ProcessMerge merged = merge_processes({process(1, 200000), process(2, 320000)});
  EXPECT_DOUBLE_EQ(merged.suites.at("Gemm").tests.at("Large").timing->median_ns, 200000);
}

TEST(MergeProcesses, OtherKernelsInAnotherProcessAreRefused) {
  ProcessRecording b = process(2, 251300);
  b.suites.at("Gemm").tests.at("Large").kernel = "gemm_sm90_splitk";
  try {
    merge_processes({process(1, 251300), b});
    FAIL() << "merged processes that launched other kernels";
  } catch (const RunnerMergeError& e) {
    EXPECT_NE(std::string(e.what()).find("Gemm.Large: process 2 launched other kernels than process 1"),
              std::string::npos)
        << e.what();
  }
}

TEST(MergeProcesses, DurationsTimedAnotherWayStayTheFirstProcesss) {
  ProcessRecording b = process(2, 280900);
  b.suites.at("Gemm").tests.at("Large").timing->launches_per_sample = 4;
  const ProcessMerge merged = merge_processes({process(1, 251300), b});
  EXPECT_TRUE(merged.modal.empty());
  EXPECT_EQ(merged.suites.at("Gemm").tests.at("Large").samples_ns.size(), 200u);
  EXPECT_DOUBLE_EQ(merged.suites.at("Gemm").tests.at("Large").timing->median_ns, 251300);
}

TEST(AnotherProcess, MeasuresOnlyTestsWhoseProcessesDisagreeUpToTheMaximum) {
  const std::vector<ProcessRecording> two{process(1, 251300, 5000), process(2, 280900, 5010)};
  EXPECT_EQ(tests_needing_another_process(two, 3), (std::vector<std::string>{"Gemm.Large"}));
  EXPECT_TRUE(tests_needing_another_process(two, 2).empty());  // the most wanted were measured
  EXPECT_TRUE(tests_needing_another_process({process(1, 251300), process(2, 251330)}, 5).empty());
  EXPECT_TRUE(tests_needing_another_process({process(1, 251300)}, 5).empty());  // one process shows no spread
}

TEST(AnotherProcess, ItsFilterSelectsExactlyThoseTests) {
  const std::string filter = filter_selecting({"Gemm.Large", "Gemm/Tiled.Square/2"});
  EXPECT_EQ(filter, "Gemm.Large:Gemm/Tiled.Square/2");
  EXPECT_TRUE(matches_filter("Gemm.Large", filter));
  EXPECT_TRUE(matches_filter("Gemm/Tiled.Square/2", filter));
  EXPECT_FALSE(matches_filter("Gemm.Small", filter));
  EXPECT_FALSE(matches_filter("Gemm.LargeBatched", filter));
}

TEST(ModesReason, NamesTheSpeedsInTheirUnit) {
  EXPECT_EQ(modes_reason({280900, 251300}),
            "speed depends on the process: medians 251.3, 280.9 us in 2 processes; the fastest is recorded, and a "
            "gate's slower process is measured again in fresh processes");
  EXPECT_EQ(
      modes_reason({2000, 2400, 2100}).rfind("speed depends on the process: medians 2000, 2100, 2400 ns in 3 ", 0), 0u);
}

// The baseline a refresh writes of a kernel with modes, as the gate reads it: samples dropped, written and read back.
TestRecord modal_baseline() {
  SuiteFile merged = merge_processes({process(1, 251300), process(2, 280900)}).suites.at("Gemm");
  return parse_suite_file(serialize_suite_file(merged, Samples::drop), "Gemm.json").tests.at("Large");
}

Finding duration_finding(const TestRecord& baseline, double measured_ns) {
  for (const Finding& f : compare(baseline, timed(measured_ns)))
    if (f.timing) return f;
  ADD_FAILURE() << "no duration finding";
  return {};
}

TEST(GateWithModes, TheBaselineKeepsItsModesThroughItsFile) {
  const TestRecord b = modal_baseline();
  ASSERT_TRUE(b.timing);
  EXPECT_EQ(b.timing->tolerance.modes_ns, (std::vector<double>{251300, 280900}));
  EXPECT_DOUBLE_EQ(b.timing->tolerance.absolute_ns, 64.0);
}

// One process's verdict, level by level: the fast level passes, the slow one is slower (and is measured again in
// fresh processes before that stands: duration_confirmation.hpp), and so is a slowdown of the fast level smaller
// than the gap between the levels.
TEST(GateWithModes, TheFastLevelPassesAndASlowerOneIsSlower) {
  const TestRecord b = modal_baseline();
  const Finding fast = duration_finding(b, 252000);
  EXPECT_EQ(fast.verdict, Verdict::pass) << fast.detail;
  EXPECT_NE(fast.detail.find("its process modes set (speed depends on the process: medians 251.3, 280.9 us"),
            std::string::npos)
      << fast.detail;
  EXPECT_EQ(duration_finding(b, 280900).verdict, Verdict::slower);
  const Finding ten_percent = duration_finding(b, 251300 * 1.10);
  EXPECT_EQ(ten_percent.verdict, Verdict::slower) << ten_percent.detail;
  EXPECT_EQ(duration_finding(b, 210000).verdict, Verdict::faster);
}

// What issue 32 reported: a baseline from one process calls the other process's speed a regression.
TEST(GateWithModes, ABaselineOfOneProcessCallsTheOtherSpeedSlower) {
  const TestRecord one = timed(251300);
  EXPECT_EQ(duration_finding(one, 280900).verdict, Verdict::slower);
}

TEST(GateWithModes, ModesDecideWithoutSignificance) {
  TimingTolerance modes{
      0.03, 30000, "speed depends on the process: medians 251.3, 280.9 us in 2 processes", {251300, 280900}};
  // A noisy run: its interval holds 1, yet it lies beyond the tolerance the modes set.
  const TimingDecision noisy = judge_timing({330000, 30000, 200}, {266000, 100, 400}, modes);
  EXPECT_FALSE(noisy.significant);
  EXPECT_EQ(noisy.verdict, Verdict::slower) << noisy.detail;
  modes.modes_ns.clear();
  EXPECT_EQ(judge_timing({330000, 30000, 200}, {266000, 100, 400}, modes).verdict, Verdict::pass);
}

}  // namespace
