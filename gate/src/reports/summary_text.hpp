#pragma once
// What the gate summary's renderers say alike (summary_console.cpp, summary_markdown.cpp, summary_junit.cpp):
// the headline, a test's one-line detail, the count of an outcome. Private to the gate layer.

#include <cstddef>
#include <string>

#include <bankgate/gate/reports/gate_summary.hpp>

namespace bankgate::gate::summary_text {

// The text's first line, cut to `width` characters with "..." where longer (std::string::npos: not cut).
std::string first_line(const std::string& text, std::size_t width);
// The test's result in a table cell: its median where it passed, its first change where it regressed, the first
// line of its reason otherwise, cut to `width` characters (the console wraps it whole instead).
std::string detail(const TestResult& t, std::size_t width = 100);
std::size_t count(const GateSummary& s, Outcome o);
// "passed: 12 GPU tests on NVIDIA H200", "FAILED: 2 of 12 GPU tests failed, 1 of them regressed", ...
std::string headline(const GateSummary& s);

// Whether re-recording the test's baseline is the remedy, where the change was intended: it regressed with a
// correct output, and every change is one a refresh records (a counter changed, new or timed another way, a
// duration slower or faster). Never for a crash, a missing GPU or permission, a wrong output or too few samples.
bool refresh_fixes(const TestResult& t);
// Whether the test lacks a baseline on its GPU, so that recording one is the remedy.
bool needs_first_baseline(const TestResult& t);

// "NVIDIA H200 (driver 580.159.04, CUDA 13.0)"; "" where unknown.
std::string gpu_text(const MeasuredGpu& gpu);
// Every GPU of the run so, joined by "; ".
std::string gpus_text(const RunProvenance& p);
// A commit as a short line shows it: its first 12 characters (each of several).
std::string short_commit(const std::string& commit);
// "bankgate 0.4.0, commit 0123456789ab (uncommitted changes), NVIDIA H200 (driver 580.159.04, CUDA 13.0)": what
// made the report and what it measured, in one line.
std::string provenance_line(const RunProvenance& p);

}  // namespace bankgate::gate::summary_text
