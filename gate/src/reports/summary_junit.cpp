// The gate summary as a JUnit report, one testcase per test, for CI front ends that show JUnit results.
#include <bankgate/gate/gate_summary.hpp>

#include <sstream>

#include <pugixml.hpp>

#include "summary_text.hpp"

namespace bankgate::gate {
namespace {

// The first line of the reason is what CI front ends show for a failure; for a regression it names the first
// change. The whole text goes inside.
std::string failure_reason(const TestResult& t) {
  if (t.outcome != Outcome::regressed || t.changes.empty()) return t.reason;
  const MetricChange& c = t.changes.front();
  return c.metric + " " + c.verdict + ": " + c.measured + " (baseline " + c.baseline + (c.change.empty() ? "" : ", " + c.change) +
         ")" + (t.changes.size() > 1 ? " and " + std::to_string(t.changes.size() - 1) + " more" : "") + "\n" + t.reason;
}

// Which part of a split gate the report is, or how many parts it merges (shard_merge.hpp), as properties of the
// test suite (JUnit's place for facts about a whole run).
void add_split_properties(pugi::xml_node suite, const GateSummary& s) {
  if (!s.shard && s.merged_shards == 0) return;
  pugi::xml_node properties = suite.append_child("properties");
  const auto add = [&](const char* name, const std::string& value) {
    pugi::xml_node property = properties.append_child("property");
    property.append_attribute("name") = name;
    property.append_attribute("value") = value.c_str();
  };
  if (s.merged_shards > 0) add("bankgate.merged_shards", std::to_string(s.merged_shards));
  if (!s.shard) return;
  add("bankgate.shard", std::to_string(s.shard->index) + "/" + std::to_string(s.shard->count));
  std::string suites;
  for (const std::string& name : s.shard->suites) suites += (suites.empty() ? "" : " ") + name;
  add("bankgate.shard.suites", suites);
}

}  // namespace

std::string render_junit(const GateSummary& s) {
  pugi::xml_document doc;
  pugi::xml_node suites = doc.append_child("testsuites");
  pugi::xml_node suite = suites.append_child("testsuite");
  suite.append_attribute("name") = "bankgate";
  add_split_properties(suite, s);
  std::size_t failures = 0, skipped = 0;
  double seconds = 0.0;
  for (const TestResult& t : s.tests) {
    pugi::xml_node testcase = suite.append_child("testcase");
    testcase.append_attribute("name") = t.test.c_str();
    testcase.append_attribute("classname") = t.suite.c_str();
    testcase.append_attribute("time") = t.seconds;
    seconds += t.seconds;
    if (t.outcome == Outcome::passed) continue;
    const std::string why = failure_reason(t);
    const std::string detail = why + (t.refresh.empty() ? "" : "\nif intended, refresh: " + t.refresh);
    pugi::xml_node node = testcase.append_child(t.outcome == Outcome::skipped ? "skipped" : "failure");
    node.append_attribute("message") = summary_text::first_line(why, 400).c_str();
    if (t.outcome != Outcome::skipped) node.append_attribute("type") = to_string(t.outcome).c_str();
    node.append_child(pugi::node_pcdata).set_value(detail.c_str());
    ++(t.outcome == Outcome::skipped ? skipped : failures);
  }
  suite.append_attribute("tests") = s.tests.size();
  suite.append_attribute("failures") = failures;
  suite.append_attribute("skipped") = skipped;
  suite.append_attribute("time") = seconds;
  std::ostringstream out;
  doc.save(out, "  ");
  return out.str();
}

}  // namespace bankgate::gate
