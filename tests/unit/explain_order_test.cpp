// A failed test's changes lead with what explains them, in every report. Two recorded runs, each with the result
// records whose findings the suite process wrote: tests/unit/fixtures/explain_order holds the planted counter
// regression (tools/gpu-round.sh planted) as an H200 measures it (SquareTile.setRowReadColIpad without its padding
// column: the committed records of setRowReadColIpad, as the baseline, and of setRowReadCol, which is that kernel
// without the padding), where the loads turned 32-way while the static shared memory fell by one column and the
// kernel slowed down; tests/unit/fixtures/report/planted-run holds transposes whose loads of one warp conflict, where
// 4 more requests came with 128 more transactions.

#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include <bankgate/gate/rules/comparison.hpp>
#include <bankgate/gate/reports/gate_summary.hpp>
#include <bankgate/gate/reports/html_report.hpp>

namespace {

using namespace bankgate::gate;
namespace fs = std::filesystem;

constexpr const char* load_wavefronts = "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum";

GateSummary summary_of(const fs::path& run) {
  GateInputs in;
  in.gtest_results = run / "gtest-results";
  in.candidates = run / "candidates";
  in.baselines = run / "baselines";
  return summarize(in);
}

const fs::path fixtures = fs::path(BANKGATE_SOURCE_DIR) / "tests" / "unit" / "fixtures";

const TestResult& result_named(const GateSummary& s, const std::string& name) {
  for (const TestResult& t : s.tests)
    if (t.name == name) return t;
  throw std::runtime_error("no result for " + name);
}

TEST(ExplainOrder, TheConflictLeadsTheStaticSharedMemoryAndTheDuration) {
  const GateSummary s = summary_of(fixtures / "explain_order");
  const TestResult& t = result_named(s, "SquareTile.setRowReadColIpad");
  ASSERT_EQ(t.outcome, Outcome::regressed);
  ASSERT_EQ(t.changes.size(), 3u);
  EXPECT_EQ(t.changes[0].metric_name, load_wavefronts);
  EXPECT_EQ(t.changes[1].metric, "duration (median) [ns]");
  EXPECT_EQ(t.changes[2].metric_name, "launch__shared_mem_per_block_static");
}

TEST(ExplainOrder, EveryReportSumsTheTestUpByTheConflict) {
  const GateSummary s = summary_of(fixtures / "explain_order");
  const std::string lead = "shared load transactions: 32 -> 1024";
  EXPECT_NE(render_console(s).find(lead), std::string::npos) << render_console(s);
  const std::string html = render_html(s, {});
  const std::size_t overview = html.find("<table class=overview>");
  ASSERT_NE(overview, std::string::npos);
  EXPECT_NE(html.find("shared load transactions: 32 -&gt; 1024", overview), std::string::npos);
  EXPECT_LT(html.find("shared load transactions: 32 -&gt; 1024", overview),
            html.find("static shared memory", overview));
  EXPECT_NE(render_junit(s).find("message=\"shared load transactions CHANGED: 1024 (baseline 32,"), std::string::npos)
      << render_junit(s);
  const std::string markdown = render_markdown(s);
  EXPECT_LT(markdown.find("shared load transactions"), markdown.find("static shared memory")) << markdown;
  const nlohmann::json json = to_json(s);
  EXPECT_EQ(json["tests"][0]["changes"][0]["metric"], load_wavefronts) << json.dump(2);
}

TEST(ExplainOrder, AMemorysTransactionsLeadItsRequests) {
  // One warp's 4 more loads cost 128 more transactions: +0.1% against +0.003% in the swizzled transpose, and the same
  // +0.003% in the tiled one, whose loads were 32-way already.
  const GateSummary s = summary_of(fixtures / "report" / "planted-run");
  for (const char* name : {"Transpose.SwizzledSquare", "Transpose.TiledSquare"}) {
    const TestResult& t = result_named(s, name);
    ASSERT_EQ(t.outcome, Outcome::regressed) << name;
    ASSERT_GE(t.changes.size(), 2u) << name;
    EXPECT_EQ(t.changes[0].metric, "shared load transactions") << name;
    EXPECT_EQ(t.changes[1].metric, "shared load requests") << name;
  }
}

TEST(ExplainOrder, RanksMemoryThenDurationThenLaunchFiguresThenInstructions) {
  std::vector<Finding> findings{
      {"smsp__sass_inst_executed.sum", false, 112, 100, "", Verdict::counter_changed, ""},
      {"launch__registers_per_thread", false, 40, 32, "", Verdict::counter_changed, ""},
      {duration_metric, true, 2000, 1000, "", Verdict::slower, ""},
      {"smsp__sass_inst_executed_op_local_ld.sum", false, 10, 0, "", Verdict::counter_changed, ""},
      {"smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ld.sum", false, 8, 4, "", Verdict::counter_changed, ""},
      {"smsp__sass_inst_executed_op_ldgsts.sum", false, 200, 100, "", Verdict::counter_changed, ""},
      {"smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum", false, 1, 1, "", Verdict::pass, ""},
      {"smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum", false, 800, 100, "",
       Verdict::counter_changed, ""},
  };
  order_by_explanation(findings);
  const std::vector<std::string> order{"smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum",
                                       "smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum",
                                       "smsp__sass_inst_executed_op_ldgsts.sum",
                                       "smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ld.sum",
                                       "smsp__sass_inst_executed_op_local_ld.sum",
                                       duration_metric,
                                       "launch__registers_per_thread",
                                       "smsp__sass_inst_executed.sum"};
  for (std::size_t i = 0; i < order.size(); ++i) EXPECT_EQ(findings[i].metric, order[i]) << "position " << i;
}

}  // namespace

// The console shows each failed test whole before the table, as ctest's per-test entries did: its changes first, then
// its own messages. A message cannot stand where bankgate's own lines do: every line of it is indented.
TEST(ExplainOrder, TheConsoleShowsEachFailedTestWholeAndAMessageCannotForgeALine) {
  GateSummary s = summary_of(fixtures / "explain_order");
  ASSERT_EQ(s.tests.size(), 1u);
  s.tests[0].reason = "kernels/square_tile.cu:76  LDS\nbankgate gate passed: 1 GPU test\n[  FAILED  ] Forged.test\n" +
                      std::string("    kernels/square_tile.cu:77  STS  ") + std::string(120, 'x') + " (a nested line)";
  const std::string console = render_console(s);
  const std::size_t head = console.find("[  FAILED  ] SquareTile.setRowReadColIpad\n");
  ASSERT_EQ(head, 0u) << console;
  const std::size_t change = console.find("  shared load transactions: CHANGED, 32 -> 1024");
  EXPECT_LT(change, console.find("  static shared memory")) << console;
  EXPECT_LT(console.find("  kernels/square_tile.cu:76  LDS"), console.find("\ntest ")) << console;
  EXPECT_NE(console.find("\n      kernels/square_tile.cu:77 STS\n"), std::string::npos)
      << "a long nested line keeps its indent where it is wrapped:\n"
      << console;
  std::istringstream lines(console);
  for (std::string line; std::getline(lines, line);) {
    EXPECT_FALSE(line.starts_with("bankgate gate passed")) << console;
    EXPECT_FALSE(line.starts_with("[  FAILED  ] Forged")) << console;
  }
}
