#pragma once
// A gate run with one of each kind of result, made in memory for the report tests and for the page that
// headless Chromium renders (html_report_sample.cpp): a transpose whose shared loads turned 32-way and whose
// duration tripled (1 us against 3 us), with a load line that only the baseline has; a crash; a skipped test;
// a wrong output; and a test that passed.

#include <string>
#include <vector>

#include <bankgate/gate/reports/gate_summary.hpp>
#include <bankgate/gate/rules/statistics.hpp>

namespace bankgate::gate::planted {

inline constexpr const char* load_wavefronts = "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum";
inline constexpr const char* measured_commit = "3f9c2e1d4b5a69788796a5b4c3d2e1f0a9b8c7d6";
inline constexpr const char* baseline_commit = "a1b2c3d4e5f60718293a4b5c6d7e8f9012345678";
// What the crashed test's console said: the HTML shows it once, folded.
inline constexpr const char* crash_text =
    "GoogleTest wrote no report for this test: its process ended before the test finished (a crash, a timeout or a "
    "kill)";

inline SourceLineFigures shared_line(std::uint32_t line, const char* kind, const char* opcode, std::uint64_t requests,
                                     std::uint64_t wavefronts) {
  return {.file = "kernels/transpose.cu",
          .line = line,
          .kind = kind,
          .opcode = opcode,
          .executions = requests,
          .wavefronts = wavefronts,
          .ideal_wavefronts = requests};
}

// `count` durations spread evenly over `middle` +- 1%, with one slow outlier at 50 us.
inline std::vector<double> durations(double middle, int count) {
  std::vector<double> samples;
  for (int i = 0; i < count; ++i) samples.push_back(middle * (0.99 + 0.02 * i / (count - 1)));
  samples.push_back(50000);
  return samples;
}

inline TestRecord transpose_record(double middle_ns) {
  TestRecord r;
  r.kernel = "transposePadded";
  r.correct = true;
  r.counters[load_wavefronts] = {65536, {}};
  r.samples_ns = durations(middle_ns, 200);
  r.timing = summarize_durations(r.samples_ns);
  r.lines = {shared_line(46, "shared_store", "STS", 65536, 65536), shared_line(52, "shared_load", "LDS", 65536, 65536)};
  return r;
}

inline TestResult result(const std::string& suite, const std::string& test, Outcome outcome) {
  TestResult t;
  t.name = suite + "." + test;
  t.suite = suite;
  t.test = test;
  t.outcome = outcome;
  t.seconds = 1.25;
  t.gpu = "NVIDIA H200";
  t.device = "0 (0000:19:00.0)";
  t.baseline_file = "baselines/sm_90/nvidia-h200/" + suite + ".json";
  t.refresh = "bankgate refresh --build build --filter '" + t.name + "'";
  return t;
}

// Shared loads 32-way (65536 -> 2097152 wavefronts), 1 us -> 3 us; the baseline also had an LDS on line 60,
// which today's source has no more (line 60 is now a '}').
inline TestResult regressed_transpose() {
  TestResult t = result("Transpose", "PaddedSquare", Outcome::regressed);
  t.baseline = transpose_record(1000);
  t.baseline->lines.push_back(shared_line(60, "shared_load", "LDS", 1024, 1024));
  t.baseline->samples_ns.clear();
  t.measured = transpose_record(3000);
  t.measured->counters[load_wavefronts].value = 2097152;
  t.measured->lines[1].wavefronts = 2097152;
  t.median_ns = t.measured->timing->median_ns;
  t.changes = {
      {"shared load transactions", load_wavefronts, "2097152", "65536", "+2031616 (+3100.0%)", "exact", "CHANGED"},
      {"duration (median) [ns]", "", "3000", "1000", "+2000 (+200.0%)", "+3% +64 ns", "SLOWER"}};
  t.reason =
      "[bankgate] Transpose.PaddedSquare (kernel transposePadded): shared load transactions CHANGED\n"
      "  measured   2097152\n  baseline   65536\n  change     +2031616 (+3100.0%)";
  return t;
}

inline TestResult wrong_output() {
  TestResult t = result("Transpose", "SwizzledNonSquare", Outcome::regressed);
  t.baseline = transpose_record(1000);
  t.measured = transpose_record(1000);
  t.measured->correct = false;
  t.changes = {{"output against the CPU reference", "", "differs", "matches", "", "", "wrong output"}};
  t.reason = "output differs from the CPU reference at (3, 7)";
  return t;
}

inline RunProvenance provenance() {
  RunProvenance p;
  p.created = "2025-06-02T09:14:03Z";
  p.host = "gpu-runner-7";
  p.commit = measured_commit;
  p.dirty = true;
  p.measured = "2025-06-02T09:12:41Z";
  p.gpus = {{"NVIDIA H200", "580.159.04", 13000, 13000}};
  p.baseline_commits = {baseline_commit};
  return p;
}

inline GateSummary summary() {
  GateSummary s;
  s.provenance = provenance();
  TestResult passed = result("Transpose", "SwizzledSquare", Outcome::passed);
  passed.measured = passed.baseline = transpose_record(1000);
  passed.median_ns = passed.measured->timing->median_ns;
  TestResult crashed = result("Transpose", "NaiveSquare", Outcome::not_measured);
  crashed.reason = crash_text;
  TestResult skipped = result("Transpose", "TiledSquare", Outcome::skipped);
  skipped.reason = "ctest did not run it or it skipped itself";
  s.tests = {passed, regressed_transpose(), crashed, skipped, wrong_output()};
  return s;
}

}  // namespace bankgate::gate::planted
