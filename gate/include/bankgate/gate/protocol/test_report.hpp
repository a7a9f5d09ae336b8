#pragma once
// One test's result file, written by the suite process as the test ends and read by the per-test ctest entry
// and by the gate summary. The format is GoogleTest's XML report with one testcase, so tools that read
// GoogleTest reports read these too. A test whose process died during it has no file of its own until the
// suite runner writes one that says so.

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace bankgate::gate {

struct TestReportEntry {
  enum class Status { passed, failed, skipped };
  std::string suite, test;
  Status status = Status::passed;
  std::vector<std::string> messages;              // failure messages, or the reason for a skip
  std::map<std::string, std::string> properties;  // what the test recorded (RecordProperty)
  double seconds = 0.0;
};

std::string render_test_report(const TestReportEntry& entry);
// The name of a test's files in a run's folders ("Suite.Test"; a parameterised name's '/' becomes '_', so that
// each test is one file, not a folder).
std::string test_file_name(const std::string& suite_dot_test);
// <dir>/<Suite.test>.xml
std::filesystem::path test_report_path(const std::filesystem::path& dir, const std::string& suite,
                                       const std::string& test);
// Written through a temporary file and a rename: a reader sees a whole report or none.
void write_test_report(const std::filesystem::path& dir, const TestReportEntry& entry);
struct XmlElement;
// One <testcase> of a GoogleTest report (any release's: properties as elements or attributes), as an entry.
TestReportEntry read_testcase(const XmlElement& testcase);

// nullopt where there is no file; throws XmlError for a malformed one.
std::optional<TestReportEntry> read_test_report(const std::filesystem::path& path);

// The tests of `binary --gtest_list_tests` output, as "Suite.test" (parameterised ones as "Inst/Suite.test/0").
std::vector<std::string> parse_gtest_list(const std::string& listing);

}  // namespace bankgate::gate
