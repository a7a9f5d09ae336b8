#pragma once
// What bankgate's fixture says on a suite's console, in its users' terms. GoogleTest prints every failure and skip
// with the source line that raised it, which for the fixture's own (no GPU, no baseline, a counter that changed) is
// a line of bankgate, meaningless to a project; and a reason every test of a process shares (no GPU here) would be
// printed once per test. So the fixture's results are printed at the line of the test that called it, and a skip's
// reason once per process; GoogleTest's own reports (the XML each test leaves) keep every message.

#include <gtest/gtest.h>

#include <memory>
#include <string>

namespace bankgate::gtest {

// Prints "[bankgate] <line>" unless this process has printed that line before; returns whether it printed.
bool print_once(const std::string& line);

// The source file bankgate's fixture names in its results (its __FILE__).
const char* fixture_source_file();

// GoogleTest's console printer `printer` (which it takes over), with the fixture's failures shown at the test's own
// line and its skips as "[bankgate] reason", each reason once (print_once).
std::unique_ptr<::testing::TestEventListener> fixture_console(::testing::TestEventListener* printer);

}  // namespace bankgate::gtest
