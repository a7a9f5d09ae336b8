// The JUnit report as CI front ends read it, parsed with a real XML parser: the attributes they expect, counts
// that equal the elements, outcomes mapped so that counting failures and errors agrees with the gate's exit
// code, and refresh advice only where a refresh is the remedy. Also the markdown summary's provenance line.

#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include <pugixml.hpp>

#include <bankgate/gate/reports/gate_summary.hpp>

#include "planted_report.hpp"

namespace {

using namespace bankgate::gate;

pugi::xml_document parsed(const GateSummary& s) {
  pugi::xml_document doc;
  const std::string xml = render_junit(s);
  const pugi::xml_parse_result result = doc.load_string(xml.c_str());
  EXPECT_TRUE(result) << result.description() << "\n" << xml;
  return doc;
}

std::size_t children_with(pugi::xml_node suite, const char* child) {
  std::size_t n = 0;
  for (pugi::xml_node testcase : suite.children("testcase")) n += testcase.child(child) ? 1 : 0;
  return n;
}

// The suite's counts against its elements, and against the gate's exit code as a CI front end would read them.
void expect_consistent(const GateSummary& s) {
  const pugi::xml_document doc = parsed(s);
  const pugi::xml_node suites = doc.child("testsuites");
  const pugi::xml_node suite = suites.child("testsuite");
  ASSERT_TRUE(suite);
  const auto testcases =
      static_cast<std::size_t>(std::distance(suite.children("testcase").begin(), suite.children("testcase").end()));
  for (const pugi::xml_node node : {suites, suite}) {
    EXPECT_EQ(node.attribute("tests").as_ullong(), testcases);
    EXPECT_EQ(node.attribute("failures").as_ullong(), children_with(suite, "failure"));
    EXPECT_EQ(node.attribute("errors").as_ullong(), children_with(suite, "error"));
    EXPECT_EQ(node.attribute("skipped").as_ullong(), children_with(suite, "skipped"));
  }
  const auto failures = suite.attribute("failures").as_ullong(), errors = suite.attribute("errors").as_ullong();
  const int read_exit = failures > 0 ? 1 : errors > 0 ? 2 : 0;
  EXPECT_EQ(read_exit, s.exit_code()) << failures << " failures, " << errors << " errors";
}

pugi::xml_node testcase(const pugi::xml_document& doc, const char* name) {
  return doc.child("testsuites").child("testsuite").find_child_by_attribute("testcase", "name", name);
}

TEST(JunitReport, SuitesCarryTheAttributesCiToolsRead) {
  const pugi::xml_document doc = parsed(planted::summary());
  const pugi::xml_node suite = doc.child("testsuites").child("testsuite");
  EXPECT_STREQ(suite.attribute("timestamp").value(), "2025-06-02T09:12:41")
      << "when measured, UTC, as JUnit's schema writes it";
  EXPECT_STREQ(suite.attribute("hostname").value(), "gpu-runner-7");
  EXPECT_DOUBLE_EQ(suite.attribute("time").as_double(), 5 * 1.25);
  EXPECT_STREQ(doc.child("testsuites").attribute("timestamp").value(), "2025-06-02T09:12:41");
  for (const pugi::xml_node t : suite.children("testcase")) {
    EXPECT_STREQ(t.attribute("classname").value(), "Transpose");
    EXPECT_FALSE(std::string(t.attribute("name").value()).empty());
    EXPECT_DOUBLE_EQ(t.attribute("time").as_double(), 1.25);
  }
  const pugi::xml_node properties = suite.child("properties");
  EXPECT_STREQ(properties.find_child_by_attribute("property", "name", "bankgate.commit").attribute("value").value(),
               planted::measured_commit);
  EXPECT_STREQ(properties.find_child_by_attribute("property", "name", "bankgate.gpus").attribute("value").value(),
               "NVIDIA H200 (driver 580.159.04, CUDA 13.0)");
}

TEST(JunitReport, ARegressionFailsAndWhatCouldNotBeMeasuredIsAnError) {
  const pugi::xml_document doc = parsed(planted::summary());
  const pugi::xml_node regressed = testcase(doc, "PaddedSquare").child("failure");
  ASSERT_TRUE(regressed);
  EXPECT_STREQ(regressed.attribute("type").value(), "regressed");
  EXPECT_NE(std::string(regressed.attribute("message").value())
                .find("shared load transactions CHANGED: 2097152 (baseline 65536"),
            std::string::npos);
  EXPECT_NE(std::string(regressed.text().get()).find("if intended, refresh: bankgate refresh --build build"),
            std::string::npos);
  const pugi::xml_node crashed = testcase(doc, "NaiveSquare").child("error");
  ASSERT_TRUE(crashed) << "a crash fails the gate with exit 2: an error, not a failure";
  EXPECT_STREQ(crashed.attribute("type").value(), "not_measured");
  EXPECT_EQ(std::string(crashed.text().get()).find("refresh"), std::string::npos) << "a refresh does not mend a crash";
  const pugi::xml_node skipped = testcase(doc, "TiledSquare").child("error");
  ASSERT_TRUE(skipped) << "a skipped test fails a strict gate: an error, not a harmless <skipped>";
  EXPECT_STREQ(skipped.attribute("type").value(), "skipped");
  EXPECT_FALSE(testcase(doc, "TiledSquare").child("skipped"));
  const pugi::xml_node wrong = testcase(doc, "SwizzledNonSquare").child("failure");
  ASSERT_TRUE(wrong);
  EXPECT_EQ(std::string(wrong.text().get()).find("refresh"), std::string::npos)
      << "a refresh does not mend a wrong output";
  EXPECT_FALSE(testcase(doc, "SwizzledSquare").first_child()) << "a passed test has no child";
}

TEST(JunitReport, CountsEqualTheElementsAndAgreeWithTheExitCode) {
  GateSummary s = planted::summary();
  expect_consistent(s);  // a regression among everything: 1
  s.tests.erase(s.tests.begin() + 1);
  s.tests.pop_back();
  expect_consistent(s);  // a crash and a skip, no regression: 2
  s.tests.erase(s.tests.begin() + 1);
  expect_consistent(s);  // a skip alone: 2
  s.tests.resize(1);
  expect_consistent(s);  // passed: 0
  s.problems = {"unreadable candidate: build/x.json: not JSON"};
  expect_consistent(s);  // a problem of the run: 2
  GateSummary none;
  none.problems = {"no GPU test ran: junit.xml lists none"};
  expect_consistent(none);
  const pugi::xml_document doc = parsed(none);
  EXPECT_STREQ(doc.child("testsuites").child("testsuite").child("testcase").child("error").attribute("message").value(),
               "no GPU test ran: junit.xml lists none");
}

TEST(JunitReport, NoBaselineAdvisesRecordingOneNotARefresh) {
  GateSummary s;
  TestResult t = planted::result("Transpose", "Unrecorded", Outcome::not_measured);
  t.reason = "no baseline for Transpose.Unrecorded in baselines/sm_90/nvidia-h200/Transpose.json";
  t.refresh += " --new-gpu";
  s.tests = {t};
  const pugi::xml_document doc = parsed(s);
  const std::string text = testcase(doc, "Unrecorded").child("error").text().get();
  EXPECT_NE(text.find("record a baseline on this GPU: bankgate refresh"), std::string::npos) << text;
  EXPECT_EQ(text.find("if intended"), std::string::npos) << text;
}

TEST(MarkdownSummary, ItsProvenanceLineFollowsTheHeadline) {
  std::istringstream markdown(render_markdown(planted::summary()));
  std::string headline, blank, provenance;
  std::getline(markdown, headline);
  std::getline(markdown, blank);
  std::getline(markdown, provenance);
  EXPECT_TRUE(headline.starts_with("## bankgate gate FAILED")) << headline;
  EXPECT_EQ(provenance, "bankgate " + tool_version() +
                            ", commit 3f9c2e1d4b5a (uncommitted changes), NVIDIA H200 (driver 580.159.04, CUDA 13.0)");
  EXPECT_EQ(render_markdown(planted::summary()).find("refresh --build build --filter 'Transpose.SwizzledNonSquare'"),
            std::string::npos)
      << "no refresh advice for a wrong output";
}

// 20,000 failing tests once wrote a 44 MB summary.md, far over a pull request comment's or a step summary's limit.
TEST(MarkdownSummary, ManyFailuresAreCutToFitAPullRequestCommentAndSaySo) {
  GateSummary s = planted::summary();
  for (int i = 0; i < 20000; ++i) {
    TestResult t = planted::result("Many", "t" + std::to_string(i), Outcome::regressed);
    t.reason = std::string(300, 'x');
    s.tests.push_back(t);
  }
  const std::string markdown = render_markdown(s);
  EXPECT_LE(markdown.size(), 65536u);
  EXPECT_NE(markdown.find("Cut to fit a pull request comment"), std::string::npos);
  EXPECT_NE(markdown.find("`summary.json` and `report.html`"), std::string::npos);
  EXPECT_TRUE(markdown.starts_with("## bankgate gate FAILED")) << "the verdict comes first, whatever is cut";
}

TEST(MarkdownSummary, ASummaryThatFitsIsNotCut) {
  EXPECT_EQ(render_markdown(planted::summary()).find("Cut to fit"), std::string::npos);
}

}  // namespace
