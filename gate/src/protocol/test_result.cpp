#include <bankgate/gate/protocol/test_result.hpp>

#include <bankgate/gate/store/input_file.hpp>

#include <cmath>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include <bankgate/gate/rules/finding_json.hpp>
#include <bankgate/gate/store/atomic_file.hpp>
#include <bankgate/gate/store/confined_folder.hpp>
#include <bankgate/gate/text/text.hpp>

#include "strict_reader.hpp"

namespace bankgate::gate {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

constexpr Outcome all_outcomes[] = {Outcome::passed, Outcome::regressed, Outcome::not_measured, Outcome::skipped};

// The result record's reader; its messages end with the remedy.
StrictReader<ResultRecordError> record_reader(const json& doc, const std::string& origin) {
  return StrictReader<ResultRecordError>(doc, "the test result record", origin,
                                         "the suite process writes it as each test ends: run the tests again");
}

}  // namespace

std::string to_string(Outcome outcome) {
  switch (outcome) {
    case Outcome::passed:
      return "passed";
    case Outcome::regressed:
      return "REGRESSED";
    case Outcome::not_measured:
      return "NOT MEASURED";
    case Outcome::skipped:
      return "SKIPPED";
  }
  return "?";
}

std::string outcome_id(Outcome outcome) {
  switch (outcome) {
    case Outcome::passed:
      return "passed";
    case Outcome::regressed:
      return "regressed";
    case Outcome::not_measured:
      return "not_measured";
    case Outcome::skipped:
      return "skipped";
  }
  return "unknown";
}

std::optional<Outcome> outcome_from_id(const std::string& id) {
  for (const Outcome o : all_outcomes)
    if (outcome_id(o) == id) return o;
  return std::nullopt;
}

// A failed test regressed only where it was measured and compared with a baseline: a failure before either
// (no GPU in strict mode, a collector error, no or an unusable baseline) leaves it not measured.
Outcome outcome_of(TestEnd end, bool measured, bool compared) {
  switch (end) {
    case TestEnd::passed:
      return Outcome::passed;
    case TestEnd::skipped:
      return Outcome::skipped;
    case TestEnd::failed:
      break;
  }
  return measured && compared ? Outcome::regressed : Outcome::not_measured;
}

std::string test_file_name(const std::string& suite_dot_test) {
  std::string name = suite_dot_test;
  for (char& c : name)
    if (c == '/') c = '_';
  return name;
}

fs::path test_result_path(const fs::path& dir, const std::string& suite, const std::string& test) {
  return dir / (test_file_name(suite + "." + test) + test_result_suffix);
}

// Messages and properties are whatever a test printed: json_text writes them as valid UTF-8 whatever their bytes.
std::string result_record_json(const TestResultRecord& r) {
  json findings = json::array();
  for (const Finding& f : r.findings) findings.push_back(to_json(f));
  return json_text({{"schema", test_result_schema},
                    {"schema_version", test_result_schema_version},
                    {"suite", r.suite},
                    {"test", r.test},
                    {"outcome", outcome_id(r.outcome)},
                    {"seconds", std::isfinite(r.seconds) && r.seconds >= 0.0 ? r.seconds : 0.0},
                    {"messages", r.messages},
                    {"properties", r.properties},
                    {"wrong_output", r.wrong_output},
                    {"findings", std::move(findings)}});
}

TestResultRecord parse_result_record(const std::string& text, const std::string& origin) {
  json doc;
  try {
    doc = parse_input_json(text, origin);
  } catch (const InputFileError&) {
    doc = json(json::value_t::discarded);  // named below as not a JSON object, bounds exceeded or not
  }
  const StrictReader<ResultRecordError> r = record_reader(doc, origin);
  r.expect({"schema", "schema_version", "suite", "test", "outcome", "seconds", "messages", "properties", "wrong_output",
            "findings"},
           test_result_schema, test_result_schema_version, "no test result record");
  TestResultRecord record;
  record.suite = r.text("suite");
  record.test = r.text("test");
  const std::string outcome = r.text("outcome");
  const std::optional<Outcome> o = outcome_from_id(outcome);
  if (!o) r.fail("has an outcome \"" + outcome + "\" that is none of passed, regressed, not_measured, skipped");
  record.outcome = *o;
  record.seconds = r.at("seconds", &json::is_number, "a number").get<double>();
  if (!std::isfinite(record.seconds) || record.seconds < 0.0) r.fail("has \"seconds\" that is no duration");
  for (const json& m : r.at("messages", &json::is_array, "a list")) {
    if (!m.is_string()) r.fail("has a message that is not text");
    record.messages.push_back(m.get<std::string>());
  }
  for (const auto& [key, value] : r.at("properties", &json::is_object, "an object").items()) {
    if (!value.is_string()) r.fail("has the property \"" + key + "\" that is not text");
    record.properties[key] = value.get<std::string>();
  }
  record.wrong_output = r.at("wrong_output", &json::is_boolean, "true or false").get<bool>();
  for (const json& f : r.at("findings", &json::is_array, "a list")) {
    try {
      record.findings.push_back(finding_from_json(f));
    } catch (const std::invalid_argument& e) {
      r.fail(std::string("has a finding it cannot use: ") + e.what());
    }
  }
  return record;
}

void write_result_record(const fs::path& dir, const TestResultRecord& record) {
  fs::create_directories(dir);
  const std::string text = result_record_json(record);
  write_file_atomically(test_result_path(dir, record.suite, record.test), [&](std::ostream& out) { out << text; });
}

std::optional<TestResultRecord> read_result_record(const fs::path& path) {
  const fs::path parent = path.has_parent_path() ? path.parent_path() : ".";
  std::error_code ec;
  if (!fs::is_directory(parent, ec)) return std::nullopt;
  std::string text;
  try {
    const ConfinedFolder folder(parent, "the results folder");
    if (!folder.kind(path.filename())) return std::nullopt;
    text = folder.read(path.filename());
  } catch (const std::exception& e) {  // ConfinementError, InputFileError
    throw ResultRecordError(e.what());
  }
  return parse_result_record(text, path.string());
}

std::vector<std::string> parse_gtest_list(const std::string& listing) {
  // "Suite.\n  test1\n  test2  # GetParam() = 3\n"; anything before the first suite line (a banner) is not a test.
  std::vector<std::string> tests;
  std::string suite;
  std::istringstream lines(listing);
  for (std::string line; std::getline(lines, line);) {
    if (const auto hash = line.find('#'); hash != std::string::npos) line.erase(hash);
    while (!line.empty() && (line.back() == ' ' || line.back() == '\r')) line.pop_back();
    if (line.empty()) continue;
    if (line.front() != ' ') {
      suite = line.back() == '.' ? line.substr(0, line.size() - 1) : std::string();
      continue;
    }
    if (!suite.empty()) tests.push_back(suite + "." + line.substr(line.find_first_not_of(' ')));
  }
  return tests;
}

}  // namespace bankgate::gate
