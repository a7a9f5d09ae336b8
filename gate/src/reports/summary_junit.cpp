// The gate summary as a JUnit report, one testcase per test, for CI front ends that show JUnit results.
//
// Outcomes map so that a front end counting the report's failures and errors agrees with the gate's exit code:
//   passed        -> a plain testcase
//   REGRESSED     -> <failure>  (exit 1: a counter changed, a kernel got slower, a wrong output)
//   NOT MEASURED  -> <error>    (exit 2: a crash, no baseline, no GPU, no counter permission)
//   SKIPPED       -> <error type="skipped">  (exit 2: a strict gate fails on a test that did not run, so a
//                    <skipped> a front end counts as harmless would show a green report of a failed gate)
//   the run's problems (no test ran, an unreadable input) -> <error> of one testcase "bankgate.run"
// Hence exit 0 exactly when failures and errors are 0, exit 1 when failures > 0, exit 2 when only errors are;
// `skipped` is always 0. docs/adopting.md says the same to users.
//
// Every text from outside passes xml_text (text.hpp) on its way to pugixml, which escapes markup but writes a
// control character as a character reference (&#27;) that XML 1.0 forbids, and stops a string at a NUL.
#include <bankgate/gate/reports/gate_summary.hpp>

#include <sstream>

#include <pugixml.hpp>

#include <bankgate/gate/text/text.hpp>

#include "summary_text.hpp"

namespace bankgate::gate {
namespace {

// The first line of the reason is what CI front ends show for a failure; for a regression it names the first
// change. The whole text goes inside.
std::string failure_reason(const TestResult& t) {
  if (t.outcome != Outcome::regressed || t.changes.empty()) return t.reason;
  const MetricChange& c = t.changes.front();
  return c.metric + " " + c.verdict + ": " + c.measured + " (baseline " + c.baseline +
         (c.change.empty() ? "" : ", " + c.change) + ")" +
         (t.changes.size() > 1 ? " and " + std::to_string(t.changes.size() - 1) + " more" : "") + "\n" + t.reason;
}

// What to do about it, only where doing it is the remedy: a refresh for an intended change, a first recording
// for a GPU without baselines. A crash, a missing GPU or permission, a wrong output get no such advice.
std::string advice(const TestResult& t) {
  if (summary_text::refresh_fixes(t)) return "\nif intended, refresh: " + t.refresh;
  if (summary_text::needs_first_baseline(t)) return "\nrecord a baseline on this GPU: " + t.refresh;
  return "";
}

// JUnit's schema takes a timestamp without a time zone; the dates bankgate writes are UTC ("...Z").
std::string junit_timestamp(const RunProvenance& p) {
  std::string date = p.measured.empty() ? p.created : p.measured;
  if (date.ends_with('Z')) date.pop_back();
  return date;
}

void add_property(pugi::xml_node properties, const char* name, const std::string& value) {
  if (value.empty()) return;
  pugi::xml_node property = properties.append_child("property");
  property.append_attribute("name") = name;
  property.append_attribute("value") = xml_text(value).c_str();
}

// Where the results come from, for whoever reads the report later: the suite's <properties>.
void add_provenance(pugi::xml_node suite, const RunProvenance& p) {
  pugi::xml_node properties = suite.append_child("properties");
  add_property(properties, "bankgate.version", p.tool_version);
  add_property(properties, "bankgate.commit", p.commit);
  add_property(properties, "bankgate.dirty", p.commit.empty() ? "" : p.dirty ? "true" : "false");
  add_property(properties, "bankgate.gpus", summary_text::gpus_text(p));
  std::string baselines;
  for (const std::string& c : p.baseline_commits) baselines += (baselines.empty() ? "" : ", ") + c;
  add_property(properties, "bankgate.baseline_commits", baselines);
}

// Which part of a split gate the report is, or how many parts it merges (shard_merge.hpp), beside the provenance
// in the test suite's properties (JUnit's place for facts about a whole run).
void add_split_properties(pugi::xml_node suite, const GateSummary& s) {
  if (!s.shard && s.merged_shards == 0) return;
  pugi::xml_node properties = suite.child("properties");
  if (!properties) properties = suite.append_child("properties");
  if (s.merged_shards > 0) add_property(properties, "bankgate.merged_shards", std::to_string(s.merged_shards));
  if (!s.shard) return;
  add_property(properties, "bankgate.shard", std::to_string(s.shard->index) + "/" + std::to_string(s.shard->count));
  std::string suites;
  for (const std::string& name : s.shard->suites) suites += (suites.empty() ? "" : " ") + name;
  add_property(properties, "bankgate.shard.suites", suites);
}

struct Counts {
  std::size_t tests = 0, failures = 0, errors = 0;
  double seconds = 0.0;
};

void add_testcase(pugi::xml_node suite, const TestResult& t, Counts& counts) {
  pugi::xml_node testcase = suite.append_child("testcase");
  testcase.append_attribute("name") = xml_text(t.test).c_str();
  testcase.append_attribute("classname") = xml_text(t.suite).c_str();
  if (t.seconds) testcase.append_attribute("time") = *t.seconds;  // JUnit's time is optional: left out where unknown
  ++counts.tests;
  counts.seconds += t.seconds.value_or(0.0);
  if (t.outcome == Outcome::passed) return;
  const bool failure = t.outcome == Outcome::regressed;
  std::string why = failure_reason(t);
  if (t.outcome == Outcome::skipped) why = "skipped, which fails a strict gate (exit 2): " + why;
  pugi::xml_node node = testcase.append_child(failure ? "failure" : "error");
  node.append_attribute("message") = xml_text(summary_text::first_line(why, 400)).c_str();
  node.append_attribute("type") = outcome_id(t.outcome).c_str();
  node.append_child(pugi::node_pcdata).set_value(xml_text(why + advice(t)).c_str());
  ++(failure ? counts.failures : counts.errors);
}

// The run's problems, which fail it without belonging to a test, as one testcase in error.
void add_problems(pugi::xml_node suite, const std::vector<std::string>& problems, Counts& counts) {
  if (problems.empty()) return;
  pugi::xml_node testcase = suite.append_child("testcase");
  testcase.append_attribute("name") = "run";
  testcase.append_attribute("classname") = "bankgate";
  testcase.append_attribute("time") = 0.0;
  std::string text;
  for (const std::string& p : problems) text += (text.empty() ? "" : "\n") + p;
  pugi::xml_node error = testcase.append_child("error");
  error.append_attribute("message") = xml_text(summary_text::first_line(problems.front(), 400)).c_str();
  error.append_attribute("type") = "problem";
  error.append_child(pugi::node_pcdata).set_value(xml_text(text).c_str());
  ++counts.tests;
  ++counts.errors;
}

void set_counts(pugi::xml_node node, const Counts& counts, const RunProvenance& p) {
  node.append_attribute("tests") = counts.tests;
  node.append_attribute("failures") = counts.failures;
  node.append_attribute("errors") = counts.errors;
  node.append_attribute("skipped") = 0;
  node.append_attribute("time") = counts.seconds;
  node.append_attribute("timestamp") = xml_text(junit_timestamp(p)).c_str();
}

}  // namespace

std::string render_junit(const GateSummary& s) {
  pugi::xml_document doc;
  pugi::xml_node suites = doc.append_child("testsuites");
  suites.append_attribute("name") = "bankgate";
  pugi::xml_node suite = suites.append_child("testsuite");
  suite.append_attribute("name") = "bankgate";
  suite.append_attribute("hostname") = s.provenance.host.empty() ? "unknown" : xml_text(s.provenance.host).c_str();
  add_provenance(suite, s.provenance);
  add_split_properties(suite, s);
  Counts counts;
  for (const TestResult& t : s.tests) add_testcase(suite, t, counts);
  add_problems(suite, s.problems, counts);
  set_counts(suites, counts, s.provenance);
  set_counts(suite, counts, s.provenance);
  std::ostringstream out;
  doc.save(out, "  ");
  return out.str();
}

}  // namespace bankgate::gate
