// The one judgement of a test (protocol/judgement.hpp): bankgate's own comparison decides, a record can make the
// outcome worse and never better, and a record that contradicts itself or names another test is refused. Each path
// compares a measurement once: the gate's summary once per test, record's table not at all (it shows the summary's
// comparison), compare's summary not at all (its rows are the judgement), and the suite process's own comparison
// is never taken over it.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <bankgate/gate/protocol/judgement.hpp>
#include <bankgate/gate/protocol/test_plan.hpp>
#include <bankgate/gate/reports/console_tables.hpp>
#include <bankgate/gate/reports/gate_summary.hpp>
#include <bankgate/gate/rules/comparison.hpp>
#include <bankgate/gate/rules/run_comparison.hpp>
#include <bankgate/gate/store/baseline_folder.hpp>
#include <bankgate/gate/store/candidates.hpp>

namespace {

using namespace bankgate::gate;
namespace fs = std::filesystem;

constexpr const char* load = "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum";

TestRecord measured_as(double value) {
  TestRecord r;
  r.kernel = "k";
  r.correct = true;
  r.counters[load] = {value, {}};
  return r;
}

TestResultRecord record_of(const std::string& suite, const std::string& test, Outcome outcome) {
  TestResultRecord r;
  r.suite = suite;
  r.test = test;
  r.outcome = outcome;
  return r;
}

Finding changed() {
  Finding f;
  f.metric = load;
  f.measured = 1024;
  f.baseline = 32;
  f.verdict = Verdict::counter_changed;
  return f;
}

TEST(Judgement, AFailingComparisonRegressesWhateverTheRecordSays) {
  const TestRecord measured = measured_as(1024), baseline = measured_as(32);
  const TestResultRecord claims = record_of("S", "t", Outcome::passed);
  const Judgement j = judge({"S.t", &claims, &measured, &baseline, false, ""});
  EXPECT_EQ(j.outcome, Outcome::regressed);
  ASSERT_EQ(j.findings.size(), 1u);
  EXPECT_EQ(j.findings[0].verdict, Verdict::counter_changed);
}

TEST(Judgement, APassedRecordBesideItsOwnFailingFindingOrWrongOutputIsRefused) {
  const TestRecord same = measured_as(32);
  TestResultRecord forged = record_of("S", "t", Outcome::passed);
  forged.findings.push_back(changed());
  EXPECT_TRUE(record_inconsistency(forged, "S.t", false));
  // Against a measurement that passes, the refused record still leaves no pass.
  EXPECT_EQ(judge({"S.t", &forged, &same, &same, false, ""}).outcome, Outcome::not_measured);
  forged.findings.clear();
  forged.wrong_output = true;
  EXPECT_TRUE(record_inconsistency(forged, "S.t", false));
  EXPECT_EQ(judge({"S.t", &forged, nullptr, nullptr, false, ""}).outcome, Outcome::not_measured);
}

TEST(Judgement, AnotherTestsRecordIsRefused) {
  const TestRecord same = measured_as(32);
  const TestResultRecord other = record_of("Other", "test", Outcome::passed);
  const Judgement j = judge({"S.t", &other, &same, &same, false, ""});
  EXPECT_EQ(j.outcome, Outcome::not_measured);
  ASSERT_FALSE(j.notes.empty());
  EXPECT_NE(j.notes[0].find("the record of Other.test, not of S.t"), std::string::npos);
}

TEST(Judgement, TheSuitesFailureIsKeptAndItsPassNeedsEvidence) {
  const TestRecord same = measured_as(32);
  const TestResultRecord failed = record_of("S", "t", Outcome::regressed);
  EXPECT_EQ(judge({"S.t", &failed, &same, &same, false, ""}).outcome, Outcome::regressed);
  const TestResultRecord passed = record_of("S", "t", Outcome::passed);
  EXPECT_EQ(judge({"S.t", &passed, &same, &same, false, ""}).outcome, Outcome::passed);
  EXPECT_EQ(judge({"S.t", &passed, &same, nullptr, false, ""}).outcome, Outcome::not_measured);
  EXPECT_EQ(judge({"S.t", nullptr, &same, &same, false, ""}).outcome, Outcome::not_measured);
  const TestResultRecord skipped = record_of("S", "t", Outcome::skipped);
  EXPECT_EQ(judge({"S.t", &skipped, nullptr, nullptr, false, ""}).outcome, Outcome::skipped);
  EXPECT_EQ(judge({"S.t", &passed, &same, &same, false, "two records"}).outcome, Outcome::not_measured);
}

// A run folder with one plan, records, candidates and baselines for `tests` tests, each passing.
fs::path gate_run(int tests) {
  const fs::path run = fs::temp_directory_path() /
                       ("bankgate-judgement-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
                        "-" + std::to_string(tests));
  fs::remove_all(run);
  TestPlan plan{"suite", 0, "", {}, ""};
  SuiteFile baselines;
  baselines.suite = "S";
  baselines.gpu = {"sm_90", "nvidia-h200"};
  for (int i = 0; i < tests; ++i) {
    const std::string test = "t" + std::to_string(i);
    plan.tests.push_back("S." + test);
    write_result_record(run / "results", record_of("S", test, Outcome::passed));
    write_candidate(run / "candidates", baselines.gpu, {}, "S", test, measured_as(32), run / "baselines");
    baselines.tests[test] = measured_as(32);
  }
  write_plan(run / "results", plan);
  write_suite_file(suite_file_path(run / "baselines", baselines.gpu, "S"), baselines, Samples::drop);
  return run;
}

// What the summary of gate_run(...) reads.
GateInputs inputs_of(const fs::path& run) {
  GateInputs in;
  in.gtest_results = run / "results";
  in.candidates = run / "candidates";
  in.baselines = run / "baselines";
  return in;
}

TEST(OneJudgement, TheGateSummaryComparesEachPlannedTestOnce) {
  const fs::path run = gate_run(3);
  const std::size_t before = comparisons_made();
  const GateSummary s = summarize(inputs_of(run));
  EXPECT_EQ(comparisons_made() - before, 3u);
  EXPECT_EQ(s.exit_code(), 0);
  fs::remove_all(run);
}

// record (cli/commands/record.cpp) is this fold and this table: its table shows the summary's comparison of each
// measurement, and nothing compares again (before, its review compared every candidate a second time).
TEST(OneJudgement, RecordComparesEachMeasurementOnceAndItsTableNotAgain) {
  const fs::path run = gate_run(3);
  // One test measured otherwise than its baseline, so that the table has a change to show.
  SuiteFile changed_baselines = read_suite_file(suite_file_path(run / "baselines", {"sm_90", "nvidia-h200"}, "S"));
  changed_baselines.tests["t1"] = measured_as(64);
  write_suite_file(suite_file_path(run / "baselines", {"sm_90", "nvidia-h200"}, "S"), changed_baselines, Samples::drop);
  const std::size_t before = comparisons_made();
  const GateSummary s = summarize(inputs_of(run));
  const std::vector<ReviewRow> rows = review_rows(s);
  EXPECT_EQ(comparisons_made() - before, 3u) << "record's table compared again";
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[1].test, "t1");
  EXPECT_EQ(rows[1].finding.verdict, Verdict::counter_changed);
  EXPECT_EQ(rows[1].finding.baseline, 64);
  EXPECT_EQ(rows[1].finding.measured, 32);
  fs::remove_all(run);
}

TEST(OneJudgement, CompareJudgesThePooledRoundsOnceAndItsSummaryNotAgain) {
  PooledRuns base, head;
  for (const std::string name : {"S.a", "S.b"}) {
    base.records[name] = measured_as(32);
    head.records[name] = measured_as(name == "S.a" ? 32 : 64);
  }
  const std::size_t before = comparisons_made();
  const std::vector<ComparisonRow> rows = compare_runs(base, head, {});
  EXPECT_EQ(comparisons_made() - before, 2u);
  const GateSummary s = summarize_comparison(base, head, rows, false);
  EXPECT_EQ(comparisons_made() - before, 2u) << "summarize_comparison compared again";
  EXPECT_EQ(s.exit_code(), 1);
  // A test without a row is not judged there: not measured, never compared.
  const GateSummary without = summarize_comparison(base, head, {rows.front()}, false);
  EXPECT_EQ(comparisons_made() - before, 2u);
  EXPECT_EQ(without.tests.back().outcome, Outcome::not_measured);
}

}  // namespace
