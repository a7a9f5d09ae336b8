#pragma once
// One test's result record: what the suite process reported about the test as it ended, written once, read by
// the test's ctest entry (verdict) and the gate summary. It carries how the test ended (its outcome as the suite
// saw it, a skip as a field), GoogleTest's messages, what the test recorded, and the failures the suite saw, so
// that nothing infers an outcome from console text or from which files exist. It is a report, never the verdict:
// bankgate judges the test itself, from the candidate against the baseline it reads (judgement.hpp), and takes no
// baseline figure from the record. What was measured is the test's candidate (store/candidates.hpp), which
// refresh promotes.
//
//   <results>/<Suite.test>.result.json
//   {"schema": "bankgate-test-result", "schema_version": 1, "suite", "test", "outcome", "seconds",
//    "messages": [...], "properties": {...}, "wrong_output": false, "findings": [{metric, verdict, ...}]}
//
// A test whose process died or hung during it, or that its suite process never reached (it ended early, the run's
// time ran out), gets its record from the suite runner (run-suite), not_measured with the cause as its message.
// Only where run-suite itself is killed is a planned test left without one: the summary then says so.

#include <filesystem>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <bankgate/gate/rules/comparison.hpp>

namespace bankgate::gate {

inline constexpr const char* test_result_schema = "bankgate-test-result";
inline constexpr int test_result_schema_version = 1;

// A test's outcome, as the gate's exit code counts it: passed; regressed (measured, compared with its baseline,
// and failed: a counter changed, it got slower, its output was wrong or an expectation failed); not_measured (it
// failed before measuring, or without a usable baseline to compare with); skipped.
enum class Outcome { passed, regressed, not_measured, skipped };
std::string to_string(Outcome outcome);   // as the tables show it: "passed", "REGRESSED", "NOT MEASURED", "SKIPPED"
std::string outcome_id(Outcome outcome);  // as the files write it, never to change: "not_measured", ...
std::optional<Outcome> outcome_from_id(const std::string& id);

// How GoogleTest ended the test, and how far the gate got with it, as its outcome.
enum class TestEnd { passed, failed, skipped };
Outcome outcome_of(TestEnd end, bool measured, bool compared);

struct TestResultRecord {
  std::string suite, test;
  Outcome outcome = Outcome::not_measured;
  double seconds = 0.0;                           // GoogleTest's time for the test
  std::vector<std::string> messages;              // GoogleTest's failure messages, or the reason for a skip
  std::map<std::string, std::string> properties;  // what the test recorded (RecordProperty)
  bool wrong_output = false;                      // its output differed from the CPU reference
  std::vector<Finding> findings;                  // against its baseline; empty where it was not compared
};

// A record that cannot be read: the file and what is wrong with it.
class ResultRecordError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The name of a test's files in a run's folders ("Suite.Test"; a parameterised name's '/' becomes '_', so that
// each test is one file, not a folder).
std::string test_file_name(const std::string& suite_dot_test);
inline constexpr const char* test_result_suffix = ".result.json";
// <dir>/<Suite.test>.result.json
std::filesystem::path test_result_path(const std::filesystem::path& dir, const std::string& suite,
                                       const std::string& test);

std::string result_record_json(const TestResultRecord& record);
// Strict: an unknown or missing field, a value of the wrong type, another schema or version is a
// ResultRecordError naming `origin` and the field.
TestResultRecord parse_result_record(const std::string& text, const std::string& origin);
// Written through a temporary file and a rename: a reader sees a whole record or none.
void write_result_record(const std::filesystem::path& dir, const TestResultRecord& record);
// nullopt where there is no file. The record was written by a pull request's test: it is read inside its
// folder, and a link out of it, a FIFO or a device in its place is a ResultRecordError at once.
std::optional<TestResultRecord> read_result_record(const std::filesystem::path& path);

// The tests of `binary --gtest_list_tests` output, as "Suite.test" (parameterised ones as "Inst/Suite.test/0").
std::vector<std::string> parse_gtest_list(const std::string& listing);

}  // namespace bankgate::gate
