#pragma once
// What the gate summary's renderers say alike (summary_console.cpp, summary_markdown.cpp, summary_junit.cpp):
// the headline, a test's one-line detail, the count of an outcome. Private to the gate layer.

#include <cstddef>
#include <string>

#include <bankgate/gate/gate_summary.hpp>

namespace bankgate::gate::summary_text {

// The text's first line, cut to `width` characters with "..." where longer (std::string::npos: not cut).
std::string first_line(const std::string& text, std::size_t width);
// The test's result in a table cell: its median where it passed, its first change where it regressed, the first
// line of its reason otherwise, cut to `width` characters (the console wraps it whole instead).
std::string detail(const TestResult& t, std::size_t width = 100);
std::size_t count(const GateSummary& s, Outcome o);
// "passed: 12 GPU tests on NVIDIA H200", "FAILED: 2 of 12 GPU tests failed, 1 of them regressed", ...
std::string headline(const GateSummary& s);

}  // namespace bankgate::gate::summary_text
