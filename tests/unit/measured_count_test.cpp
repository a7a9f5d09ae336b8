// What a recording says of the tests it selected: a refresh in which a Hopper kernel's counter pass failed names
// that test with its reason in its last lines and exits 2; one in which every test measured exits 0.

#include <gtest/gtest.h>

#include <bankgate/gate/protocol/run_protocol.hpp>
#include <bankgate/gate/reports/measured_count.hpp>

namespace {

namespace g = bankgate::gate;

g::TestResult test_named(const std::string& name, bool measured, const std::string& reason = "") {
  g::TestResult t;
  t.name = name;
  t.outcome = measured ? g::Outcome::passed : g::Outcome::not_measured;
  t.reason = reason;
  if (measured) t.measured = g::TestRecord{};
  return t;
}

TEST(MeasuredCount, ATestThatFailedToMeasureIsNamedWithItsReasonAndExitsTwo) {
  g::GateSummary summary;
  summary.tests = {test_named("FastCu.K01Sgemm", true),
                   test_named("FastCu.K02Tma", false,
                              "FastCu.K02Tma: measurement failed: cuptiRangeProfilerDecodeData returned "
                              "CUPTI_ERROR_UNKNOWN (999)\nsecond line"),
                   test_named("FastCu.K12Hilbert", false)};
  const g::MeasuredCount count = g::count_measured(summary);
  EXPECT_EQ(count.selected, 3u);
  ASSERT_EQ(count.not_measured.size(), 2u);
  const std::string text = g::render_measured(count, "bankgate refresh");
  EXPECT_EQ(text.substr(0, text.find('\n')), "bankgate refresh: 1 of 3 tests measured");
  EXPECT_NE(text.find("  FastCu.K02Tma: FastCu.K02Tma: measurement failed: cuptiRangeProfilerDecodeData returned "
                      "CUPTI_ERROR_UNKNOWN (999)\n"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("second line"), std::string::npos) << "one line a test";
  EXPECT_NE(text.find("  FastCu.K12Hilbert: it left no measurement and no message (NOT MEASURED)"), std::string::npos)
      << text;
  EXPECT_EQ(g::measured_exit_code(count), g::protocol::exit_not_measured);
}

TEST(MeasuredCount, EveryTestMeasuredExitsZeroAndNoneSelectedDoesNot) {
  g::GateSummary summary;
  summary.tests = {test_named("A.a", true), test_named("A.b", true)};
  const g::MeasuredCount count = g::count_measured(summary);
  EXPECT_EQ(g::render_measured(count, "bankgate record"), "bankgate record: 2 of 2 tests measured\n");
  EXPECT_EQ(g::measured_exit_code(count), g::protocol::exit_ok);
  EXPECT_EQ(g::measured_exit_code(g::count_measured(g::GateSummary{})), g::protocol::exit_not_measured);
}

TEST(MeasuredCount, ANameFromTheRunIsWrittenForTheTerminal) {
  g::GateSummary summary;
  summary.tests = {test_named("S.t\x1b[2J", false, "why\x1b]0;x\x07")};
  const std::string text = g::render_measured(g::count_measured(summary), "bankgate record");
  EXPECT_EQ(text.find('\x1b'), std::string::npos) << text;
}

}  // namespace
