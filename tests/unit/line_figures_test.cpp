// Per-source-line figures: merging instructions into lines, comparing a run's lines with a baseline's, the
// words a failure shows, the schema's reading and writing of lines and duration percentiles, and the HTML
// report built from them.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <bankgate/gate/rules/baseline.hpp>
#include <bankgate/gate/rules/baseline_json.hpp>
#include <bankgate/gate/rules/comparison.hpp>
#include <bankgate/gate/reports/gate_summary.hpp>
#include <bankgate/gate/reports/html_report.hpp>
#include <bankgate/gate/rules/line_comparison.hpp>
#include <bankgate/gate/rules/instruction_lines.hpp>
#include <bankgate/gate/reports/report.hpp>
#include <bankgate/gate/rules/statistics.hpp>

namespace {

using namespace bankgate::gate;

constexpr const char* load_wavefronts = "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum";

// Shared-memory figures of one line: "load" and "store" name the LDS/STS kinds.
SourceLineFigures figures(std::string file, std::uint32_t line, std::string access, std::string opcode,
                          std::uint64_t executions, std::uint64_t wavefronts, std::uint64_t ideal) {
  return {.file = std::move(file),
          .line = line,
          .kind = "shared_" + access,
          .opcode = std::move(opcode),
          .executions = executions,
          .wavefronts = wavefronts,
          .ideal_wavefronts = ideal};
}

SourceLineFigures global_store(std::uint32_t line, std::uint64_t requests, std::uint64_t sectors, std::uint64_t ideal) {
  return {.file = "kernels/transpose.cu",
          .line = line,
          .kind = "global_store",
          .opcode = "STG.E",
          .executions = requests,
          .sectors = sectors,
          .ideal_sectors = ideal};
}

// transposeSwizzled on a 1024 x 1024 matrix: a store line and a load line, both one wavefront per request.
std::vector<SourceLineFigures> swizzled_lines() {
  return {figures("kernels/transpose.cu", 46, "store", "STS", 131072, 131072, 131072),
          figures("kernels/transpose.cu", 52, "load", "LDS", 131072, 131072, 131072)};
}

TEST(LineFigures, InstructionsOfOneLineAndKindAreSummedWithTheirOpcodes) {
  const std::vector<SourceLineFigures> merged = merge_by_line({
      figures("kernels/tiled_matmul.cu", 40, "load", "LDS.128", 1048576, 2097152, 2097152),
      figures("kernels/tiled_matmul.cu", 40, "load", "LDS", 4194304, 4194304, 4194304),
      figures("kernels/tiled_matmul.cu", 40, "load", "LDS", 0, 0, 0),
      figures("kernels/tiled_matmul.cu", 37, "store", "STS", 262144, 262144, 262144),
  });
  ASSERT_EQ(merged.size(), 2u);
  EXPECT_EQ(merged[0].line, 37u);
  EXPECT_EQ(merged[1].executions, 5242880u);
  EXPECT_EQ(merged[1].wavefronts, 6291456u);
  EXPECT_EQ(merged[1].opcode, "LDS.128/LDS");
  EXPECT_DOUBLE_EQ(merged[1].wavefronts_per_request(), 1.2);
  EXPECT_EQ(merged[1].excess(), 0u);
}

TEST(LineFigures, OneWarpTurning32WayIsNamedByItsLine) {
  std::vector<SourceLineFigures> run = swizzled_lines();
  run[1].wavefronts += 4 * 31;  // one warp's four loads serialised over 32 wavefronts each
  const std::vector<LineChange> changes = compare_lines(swizzled_lines(), run);
  ASSERT_EQ(changes.size(), 1u);
  EXPECT_EQ(changes[0].change(), 124);
  EXPECT_EQ(format_line_change(changes[0]),
            "kernels/transpose.cu:52  LDS  1.00 -> 1.00 wavefronts per request (+124 wavefronts)");
  EXPECT_EQ(excess_wavefronts(run, "shared_load"), 124u);
  EXPECT_EQ(excess_wavefronts(run, "shared_store"), 0u);
}

// The example: one warp of a multi-block transpose stores with a stride, 32 sectors where 4 would do.
TEST(LineFigures, OneStridedWarpStoreIsNamedInSectorsPerRequest) {
  const std::vector<SourceLineFigures> base{global_store(71, 131072, 524288, 524288)};
  std::vector<SourceLineFigures> run = base;
  run[0].sectors += 28;
  const std::vector<LineChange> changes = compare_lines(base, run);
  ASSERT_EQ(changes.size(), 1u);
  EXPECT_EQ(changes[0].change(), 28);
  EXPECT_EQ(format_line_change(changes[0]),
            "kernels/transpose.cu:71  STG.E  4.00 -> 4.00 sectors per request (ideal 4.00; +28 sectors)");
  EXPECT_EQ(excess_sectors(run, "global_store"), 28u);
  const std::vector<LineChange> naive = compare_lines({global_store(71, 4, 16, 16)}, {global_store(71, 4, 128, 16)});
  EXPECT_EQ(format_line_change(naive[0]),
            "kernels/transpose.cu:71  STG.E  4.00 -> 32.00 sectors per request (ideal 4.00; +112 sectors)");
}

// A TMA box split in two: the line's TMA loads are counted in executions, with no sectors to speak of.
TEST(LineFigures, TmaLoadLineIsNamedByItsExecutions) {
  SourceLineFigures load;
  load.file = "kernels/hopper/hopper_ptx.cuh";
  load.line = 74;
  load.kind = "tma_load";
  load.opcode = "UTMALDG.2D";
  load.executions = 4096;
  SourceLineFigures split = load;
  split.executions = 6144;
  const std::vector<LineChange> changes = compare_lines({load}, {split});
  ASSERT_EQ(changes.size(), 1u);
  EXPECT_EQ(changes[0].change(), 2048);
  EXPECT_EQ(format_line_change(changes[0]),
            "kernels/hopper/hopper_ptx.cuh:74  UTMALDG.2D  4096 -> 6144 instructions executed (+2048)");
}

// A line inserted above a loop moves every line below it: the same instructions one line further down are
// not a change, and a line that moved and changed says where it was.
TEST(LineFigures, ShiftedLinesAreNotReportedAsGoneAndNew) {
  const std::vector<SourceLineFigures> base = swizzled_lines();
  std::vector<SourceLineFigures> run = base;
  for (SourceLineFigures& l : run) ++l.line;
  EXPECT_TRUE(compare_lines(base, run).empty());
  run[1].wavefronts += 124;
  const std::vector<LineChange> changes = compare_lines(base, run);
  ASSERT_EQ(changes.size(), 1u);
  EXPECT_EQ(format_line_change(changes[0]),
            "kernels/transpose.cu:53 (was line 52)  LDS  1.00 -> 1.00 wavefronts per request (+124 wavefronts)");
}

// New code among old: of one line gone and two new, only an identical one is the old line moved; the other
// is new, not the old line changed.
TEST(LineFigures, NewLinesAreNotTakenForMovedOnes) {
  const SourceLineFigures old_line{.file = "kernels/reverse.cu", .line = 59, .kind = "instructions", .executions = 300};
  SourceLineFigures moved = old_line, added = old_line;
  moved.line = 61;
  added.line = 56;
  added.executions = 1000;
  const std::vector<LineChange> changes = compare_lines({old_line}, {added, moved});
  ASSERT_EQ(changes.size(), 1u);
  EXPECT_EQ(format_line_change(changes[0]),
            "kernels/reverse.cu:56  instructions  (new) -> 1000 instructions executed (+1000)");
}

TEST(LineFigures, InlinedInstructionsNameTheHelperBesideTheKernelsLine) {
  SourceLineFigures copy{.file = "kernels/async_copy.cu",
                         .line = 62,
                         .inlined = "cuda_pipeline_helpers.h:292",
                         .kind = "cp_async",
                         .opcode = "LDGSTS.E.BYPASS.128",
                         .executions = 64,
                         .wavefronts = 256,
                         .ideal_wavefronts = 256,
                         .sectors = 1024,
                         .ideal_sectors = 1024};
  SourceLineFigures conflicting = copy;
  conflicting.wavefronts += 7 * 4;
  const std::vector<LineChange> changes = compare_lines({copy}, {conflicting});
  ASSERT_EQ(changes.size(), 1u);
  EXPECT_EQ(format_line_change(changes[0]),
            "kernels/async_copy.cu:62  LDGSTS.E.BYPASS.128  4.00 -> 4.44 wavefronts per request "
            "(+28 wavefronts) [inlined from cuda_pipeline_helpers.h:292]");
}

// The collector's instructions as baseline lines: an instruction inlined from a helper, a CUDA header's or the
// project's own, goes to the project's own line that called it, the helper's line beside it; every instruction
// also counts in its line's instruction entry.
TEST(InstructionLines, InlinedHelpersArePlacedOnTheProjectsCallingLine) {
  const std::string src = "/home/me/project";
  const bankgate::InstructionFigures copy{.file = "/usr/local/cuda/include/cuda_pipeline_helpers.h",
                                          .line = 190,
                                          .inlined_at = {{"/usr/local/cuda/include/cuda_pipeline_primitives.h", 69},
                                                         {src + "/kernels/copy.cu", 62},
                                                         {src + "/kernels/copy.cu", 80}},
                                          .opcode = "LDGSTS.E",
                                          .kind = "cp_async",
                                          .executions = 8,
                                          .wavefronts = 8,
                                          .ideal_wavefronts = 8,
                                          .sectors = 32,
                                          .ideal_sectors = 32};
  const bankgate::InstructionFigures own{.file = src + "/kernels/copy.cu",
                                         .line = 33,
                                         .inlined_at = {{src + "/kernels/copy.cu", 80}},
                                         .opcode = "LDS",
                                         .kind = "shared_load",
                                         .executions = 8,
                                         .wavefronts = 16,
                                         .ideal_wavefronts = 8};
  const bankgate::InstructionFigures other{
      .file = src + "/kernels/copy.cu", .line = 33, .opcode = "IMAD", .kind = "instructions", .executions = 5};
  const std::vector<SourceLineFigures> lines = figures_by_line({copy, own, other}, src);
  ASSERT_EQ(lines.size(), 5u);
  EXPECT_EQ(lines[0].where(), "kernels/copy.cu:33");
  EXPECT_EQ(lines[0].kind, "instructions");
  EXPECT_EQ(lines[0].executions, 5u) << "the IMAD of line 33, not inlined";
  EXPECT_EQ(lines[0].opcode, "") << "an instruction entry lists no opcodes";
  EXPECT_EQ(lines[1].where(), "kernels/copy.cu:62");
  EXPECT_EQ(lines[1].kind, "cp_async");
  EXPECT_EQ(lines[1].inlined, "cuda_pipeline_helpers.h:190");
  EXPECT_EQ(lines[2].kind, "instructions");
  EXPECT_EQ(lines[3].where(), "kernels/copy.cu:80");
  EXPECT_EQ(lines[3].kind, "instructions");
  EXPECT_EQ(lines[4].where(), "kernels/copy.cu:80") << "the project's own helper, at the line that called it";
  EXPECT_EQ(lines[4].kind, "shared_load");
  EXPECT_EQ(lines[4].inlined, "kernels/copy.cu:33");
  EXPECT_EQ(excess_by_kind(lines).at("shared_load_bank_conflicts"), 8.0);
  EXPECT_EQ(excess_by_kind(lines).at("cp_async_bank_conflicts"), 0.0);
  // Without the project's folder nothing is the project's: the outermost call site is taken.
  EXPECT_EQ(figures_by_line({copy}, "").back().where(), "copy.cu:80");
}

// A TMA load of one helper called at two lines of a kernel: each call site is a line of its own, so a change at
// one of them is named there (a helper's line alone would sum both).
TEST(InstructionLines, AHelpersCallSitesAreToldApart) {
  const std::string src = "/p";
  const auto load_at = [&](std::uint32_t pc, std::uint32_t call_line, std::uint64_t executions) {
    return bankgate::InstructionFigures{.file = src + "/matmul.cuh",
                                        .line = 298,
                                        .inlined_at = {{src + "/matmul.cuh", call_line}},
                                        .pc_offset = pc,
                                        .opcode = "UTMALDG.2D",
                                        .kind = "tma_load",
                                        .executions = executions};
  };
  const std::vector<SourceLineFigures> lines =
      figures_by_line({load_at(0x100, 414, 64), load_at(0x200, 416, 128)}, src);
  std::vector<std::string> tma;
  for (const SourceLineFigures& l : lines)
    if (l.kind == "tma_load") tma.push_back(l.where() + " " + l.inlined + " " + std::to_string(l.executions));
  EXPECT_EQ(tma, (std::vector<std::string>{"matmul.cuh:414 matmul.cuh:298 64", "matmul.cuh:416 matmul.cuh:298 128"}));
}

TEST(LineFigures, InstructionCountsAreComparedAsExecutions) {
  const SourceLineFigures before{
      .file = "kernels/tunable_work.cu", .line = 25, .kind = "instructions", .executions = 1000};
  SourceLineFigures after = before;
  after.executions = 1500;
  const std::vector<LineChange> changes = compare_lines({before}, {after});
  ASSERT_EQ(changes.size(), 1u);
  EXPECT_EQ(format_line_change(changes[0]),
            "kernels/tunable_work.cu:25  instructions  1000 -> 1500 instructions executed (+500)");
}

TEST(LineFigures, NewAndVanishedLinesAreListedLargestChangeFirst) {
  std::vector<SourceLineFigures> run = swizzled_lines();
  run.push_back(figures("kernels/transpose.cu", 58, "load", "LDS", 4, 128, 4));
  run.erase(run.begin());  // the store line is gone
  const std::vector<LineChange> changes = compare_lines(swizzled_lines(), run);
  ASSERT_EQ(changes.size(), 2u);
  EXPECT_EQ(format_line_change(changes[0]),
            "kernels/transpose.cu:46  STS  1.00 -> (gone) wavefronts per request (-131072 wavefronts)");
  EXPECT_EQ(format_line_change(changes[1]),
            "kernels/transpose.cu:58  LDS  (new) -> 32.00 wavefronts per request (+128 wavefronts)");
}

TEST(LineFigures, ChangedRequestsAreShownAndUnknownLinesSaySo) {
  const SourceLineFigures before = figures("", 0, "load", "", 10, 10, 10);
  const SourceLineFigures after = figures("", 0, "load", "", 20, 40, 20);
  const std::vector<LineChange> changes = compare_lines({before}, {after});
  ASSERT_EQ(changes.size(), 1u);
  EXPECT_EQ(format_line_change(changes[0]),
            "<unknown line>  shared load  1.00 -> 2.00 wavefronts per request (+30 wavefronts; requests 10 -> 20)");
}

TEST(LineFigures, AFailureMessageListsTheLinesOfItsAccessKind) {
  TestRecord baseline;
  baseline.kernel = "transposeSwizzled";
  baseline.counters[load_wavefronts] = {131072, {}};
  baseline.lines = swizzled_lines();
  TestRecord measured = baseline;
  measured.counters[load_wavefronts] = {131200, {}};
  measured.lines.push_back(figures("kernels/transpose.cu", 58, "load", "LDS", 4, 128, 4));
  const std::vector<Finding> findings = compare(baseline, measured);
  ASSERT_EQ(findings.size(), 1u);
  const TestLocation where{"Transpose", "SwizzledSquare", "baselines/sm_90/nvidia-h200/Transpose.json", {}};
  const std::string text = format_failure(where, findings[0], measured, baseline);
  EXPECT_NE(text.find("lines      (baseline -> run)\n    kernels/transpose.cu:58  LDS  (new) -> 32.00 wavefronts per "
                      "request (+128 wavefronts)"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find(":46"), std::string::npos) << "an unchanged store line is not listed:\n" << text;

  measured.lines.clear();
  EXPECT_EQ(format_failure(where, findings[0], measured, baseline).find("lines "), std::string::npos);
  measured.lines = swizzled_lines();
  baseline.lines.clear();
  EXPECT_NE(format_failure(where, findings[0], measured, baseline).find("the baseline has no per-line figures"),
            std::string::npos);
}

SuiteFile suite_with_lines() {
  SuiteFile file;
  file.suite = "Transpose";
  file.gpu = {"sm_90", "nvidia-h200"};
  file.provenance.gpu_name = "NVIDIA H200";
  TestRecord r;
  r.kernel = "transposeSwizzled";
  r.correct = true;
  r.counters[load_wavefronts] = {131072, {}};
  r.lines = swizzled_lines();
  std::vector<double> samples;
  for (int i = 0; i < 100; ++i) samples.push_back(6000 + i);
  r.timing = summarize_durations(samples);
  r.samples_ns = samples;
  file.tests["SwizzledSquare"] = r;
  return file;
}

TEST(LineFigures, LinesAndPercentilesSurviveWritingAndReading) {
  const SuiteFile file = suite_with_lines();
  const SuiteFile read = parse_suite_file(serialize_suite_file(file, Samples::drop), "memory");
  const TestRecord& r = read.tests.at("SwizzledSquare");
  ASSERT_EQ(r.lines.size(), 2u);
  EXPECT_EQ(r.lines[1].where(), "kernels/transpose.cu:52");
  EXPECT_EQ(r.lines[1].opcode, "LDS");
  EXPECT_EQ(r.lines[1].ideal_wavefronts, 131072u);
  ASSERT_EQ(r.timing->quantiles_ns.size(), 21u);
  EXPECT_EQ(r.timing->quantiles_ns.front(), 6000);
  EXPECT_EQ(r.timing->quantiles_ns.back(), 6099);
  EXPECT_TRUE(r.samples_ns.empty());
}

std::string rejection(const std::string& text) {
  try {
    parse_suite_file(text, "memory");
  } catch (const BaselineError& e) {
    return e.what();
  }
  return "accepted";
}

std::string edited(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return at == std::string::npos ? text : text.replace(at, from.size(), to);
}

TEST(LineFigures, BadLinesAndPercentilesAreRejectedByField) {
  const std::string text = serialize_suite_file(suite_with_lines(), Samples::drop);
  EXPECT_NE(rejection(edited(text, "\"kind\": \"shared_load\"", "\"kind\": \"read\""))
                .find("'tests.SwizzledSquare.lines[1].kind' is not an instruction kind"),
            std::string::npos);
  EXPECT_NE(rejection(edited(text, "\"line\": 52", "\"line\": -52")).find("'tests.SwizzledSquare.lines[1].line'"),
            std::string::npos);
  EXPECT_NE(rejection(edited(text, "\"opcode\": \"LDS\"", "\"opcode\": \"LDS\", \"cost\": 1"))
                .find("'tests.SwizzledSquare.lines[1].cost'"),
            std::string::npos);
  EXPECT_NE(rejection(edited(text, "6099\n", "5000\n")).find("is below the percentile before it"), std::string::npos);
}

TEST(HtmlReport, AFailingTestComesFirstWithItsLineTheSourceTextAndAPlot) {
  const SuiteFile file = suite_with_lines();
  TestResult passed;
  passed.name = "Transpose.PaddedSquare";
  passed.outcome = Outcome::passed;
  passed.measured = file.tests.at("SwizzledSquare");
  TestResult failed;
  failed.name = "Transpose.SwizzledSquare";
  failed.outcome = Outcome::regressed;
  failed.reason = "shared load transactions CHANGED: 131200 (baseline 131072) <&>";
  failed.baseline = file.tests.at("SwizzledSquare");
  failed.measured = file.tests.at("SwizzledSquare");
  failed.measured->lines.push_back(figures("kernels/transpose.cu", 58, "load", "LDS", 4, 128, 4));
  failed.changes.push_back(
      {"shared load transactions", load_wavefronts, "131200", "131072", "+128 (+0.1%)", "exact", "CHANGED"});
  failed.refresh = "bankgate refresh --filter 'Transpose.SwizzledSquare'";
  GateSummary summary;
  summary.tests = {passed, failed};

  const std::string html = render_html(summary, {BANKGATE_SOURCE_DIR});
  const auto at = [&](const std::string& part) { return html.find(part); };
  EXPECT_NE(at("<h2>Failures</h2>"), std::string::npos);
  EXPECT_LT(at("Transpose.SwizzledSquare"), at("Transpose.PaddedSquare")) << "failures come first";
  EXPECT_NE(at("kernels/transpose.cu:58"), std::string::npos);
  EXPECT_NE(at("new &rarr; 32.00"), std::string::npos);
  EXPECT_NE(at("new &rarr; 124"), std::string::npos) << "the new line's excess wavefronts";
  EXPECT_NE(at("&lt;&amp;&gt;"), std::string::npos) << "text is escaped";
  EXPECT_NE(at("<polyline"), std::string::npos) << "the duration plot";
  EXPECT_NE(at("tile[ty + j][Layout::column(ty + j, tx)]"), std::string::npos)
      << "line 46's source text, from the sources";
  EXPECT_EQ(at("<script"), std::string::npos) << "nothing runs";
  EXPECT_EQ(at("http"), std::string::npos) << "nothing is fetched";
}

// Global and local lines are shown in sectors, with the helper an inlined instruction came from.
TEST(HtmlReport, GlobalLinesShowSectorsAndInlinedHelpers) {
  TestResult failed;
  failed.name = "Transpose.NaiveSquare";
  failed.outcome = Outcome::regressed;
  failed.baseline = suite_with_lines().tests.at("SwizzledSquare");
  failed.baseline->lines = {global_store(71, 4, 16, 16)};
  failed.measured = failed.baseline;
  failed.measured->lines = {global_store(71, 4, 128, 16)};
  failed.measured->lines[0].inlined = "cute_copy.hpp:12";
  GateSummary summary;
  summary.tests = {failed};
  const std::string html = render_html(summary, {});
  EXPECT_NE(html.find("global_store"), std::string::npos);
  EXPECT_NE(html.find("4.00 &rarr; 32.00"), std::string::npos) << "sectors per request";
  EXPECT_NE(html.find("0 &rarr; 112"), std::string::npos) << "excess sectors";
  EXPECT_NE(html.find("inlined from cute_copy.hpp:12"), std::string::npos);
}

TEST(HtmlReport, ACompareRunReadsLikeAGateWithBaseAsTheBaseline) {
  const TestRecord base = suite_with_lines().tests.at("SwizzledSquare");
  TestRecord head = base;
  head.counters[load_wavefronts].value += 128;
  PooledRuns base_runs, head_runs;
  base_runs.records = {{"Transpose.SwizzledSquare", base}, {"Transpose.PaddedSquare", base}};
  head_runs.records = {{"Transpose.SwizzledSquare", head}, {"Transpose.PaddedSquare", base}};
  // The comparison's one judgement of the pooled runs, which the summary shows as it is.
  const GateSummary summary = summarize_comparison(base_runs, head_runs, compare_runs(base_runs, head_runs), false);
  ASSERT_EQ(summary.tests.size(), 2u);
  EXPECT_EQ(summary.tests[0].outcome, Outcome::passed);  // PaddedSquare, unchanged
  EXPECT_EQ(summary.tests[1].outcome, Outcome::regressed);
  EXPECT_EQ(summary.exit_code(), 1);
  const std::string html = render_html(summary, {"", "bankgate compare: head against base"});
  EXPECT_NE(html.find("<h1>bankgate compare: head against base: "), std::string::npos);
  EXPECT_NE(html.find("131200"), std::string::npos);
}

}  // namespace

// A kernel of a library built without -lineinfo: the collector attributes its instructions, but CUPTI's line table
// names no file or line for any of them.
namespace {

std::vector<bankgate::InstructionFigures> without_line_table() {
  return {{.pc_offset = 0x40,
           .opcode = "LDS",
           .kind = "shared_load",
           .executions = 4096,
           .wavefronts = 131072,
           .ideal_wavefronts = 4096},
          {.pc_offset = 0x80,
           .opcode = "STG.E",
           .kind = "global_store",
           .executions = 4096,
           .sectors = 16384,
           .ideal_sectors = 16384}};
}

TEST(LineFigures, AKernelWithoutALineTableIsToldWithTheRemedy) {
  const std::vector<SourceLineFigures> lines = figures_by_line(without_line_table(), "/home/user/project");
  ASSERT_FALSE(lines.empty());
  EXPECT_TRUE(lacks_line_table(lines));
  const std::string note = no_line_table_note("libTranspose");
  EXPECT_NE(note.find("kernel libTranspose has no line information"), std::string::npos) << note;
  EXPECT_NE(note.find("-lineinfo, e.g. bankgate_add_line_info(<target>)"), std::string::npos) << note;
}

TEST(LineFigures, AKernelWithLinesOrWithoutFiguresIsNotToldSo) {
  EXPECT_FALSE(lacks_line_table(swizzled_lines()));
  EXPECT_FALSE(lacks_line_table({}));  // nothing attributed (no recording, nothing changed): nothing to say
  std::vector<bankgate::InstructionFigures> some = without_line_table();
  some[1].file = "/home/user/project/kernels/transpose.cu";
  some[1].line = 52;
  EXPECT_FALSE(lacks_line_table(figures_by_line(some, "/home/user/project")));
}

TEST(LineFigures, AChangedCounterOfSuchAKernelSaysSoInsteadOfUnknownLines) {
  TestRecord baseline;
  baseline.kernel = "libTranspose";
  baseline.counters[load_wavefronts] = {4096, {}};
  baseline.lines = figures_by_line(without_line_table(), "/home/user/project");
  TestRecord measured = baseline;
  measured.counters[load_wavefronts].value = 131072;
  const TestLocation where{"Transpose", "Library", "baselines/sm_90/nvidia-h200/Transpose.json", {}};
  Finding changed;
  for (const Finding& f : compare(baseline, measured))
    if (f.metric == load_wavefronts) changed = f;
  const std::string text = format_failure(where, changed, measured, baseline);
  EXPECT_NE(text.find("lines      kernel libTranspose has no line information"), std::string::npos) << text;
  EXPECT_EQ(text.find("<unknown line>"), std::string::npos) << text;
}

}  // namespace
