#include <bankgate/gate/protocol/test_report.hpp>

#include <bankgate/gate/store/confined_folder.hpp>

#include <pugixml.hpp>

#include <sstream>

#include <bankgate/gate/store/atomic_file.hpp>
#include <bankgate/gate/protocol/run_protocol.hpp>
#include <bankgate/gate/text/text.hpp>
#include <bankgate/gate/protocol/xml_reader.hpp>

namespace bankgate::gate {

// Names and messages pass xml_text on their way to pugixml: the file must be XML 1.0 whatever a test printed.
std::string render_test_report(const TestReportEntry& e) {
  pugi::xml_document doc;
  pugi::xml_node suites = doc.append_child("testsuites");
  pugi::xml_node suite = suites.append_child("testsuite");
  suite.append_attribute("name") = xml_text(e.suite).c_str();
  suite.append_attribute("tests") = 1;
  suite.append_attribute("failures") = e.status == TestReportEntry::Status::failed ? 1 : 0;
  suite.append_attribute("skipped") = e.status == TestReportEntry::Status::skipped ? 1 : 0;
  pugi::xml_node testcase = suite.append_child("testcase");
  testcase.append_attribute("name") = xml_text(e.test).c_str();
  testcase.append_attribute("classname") = xml_text(e.suite).c_str();
  testcase.append_attribute("status") = "run";
  testcase.append_attribute("result") = e.status == TestReportEntry::Status::skipped ? "skipped" : "completed";
  testcase.append_attribute("time") = e.seconds;
  for (const std::string& m : e.messages) {
    pugi::xml_node node = testcase.append_child(e.status == TestReportEntry::Status::skipped ? "skipped" : "failure");
    node.append_attribute("message") = xml_text(m).c_str();
  }
  if (!e.properties.empty()) {
    pugi::xml_node properties = testcase.append_child("properties");
    for (const auto& [name, value] : e.properties) {
      pugi::xml_node p = properties.append_child("property");
      p.append_attribute("name") = xml_text(name).c_str();
      p.append_attribute("value") = xml_text(value).c_str();
    }
  }
  std::ostringstream out;
  doc.save(out, "  ");
  return out.str();
}

std::string test_file_name(const std::string& suite_dot_test) {
  std::string name = suite_dot_test;
  for (char& c : name)
    if (c == '/') c = '_';
  return name;
}

std::filesystem::path test_report_path(const std::filesystem::path& dir, const std::string& suite,
                                       const std::string& test) {
  return dir / (test_file_name(suite + "." + test) + ".xml");
}

void write_test_report(const std::filesystem::path& dir, const TestReportEntry& entry) {
  std::filesystem::create_directories(dir);
  const std::string text = render_test_report(entry);
  write_file_atomically(test_report_path(dir, entry.suite, entry.test), [&](std::ostream& out) { out << text; });
}

std::optional<TestReportEntry> read_test_report(const std::filesystem::path& path) {
  // The result was written by a pull request's test: it is read inside its folder, and a link out of it, a FIFO
  // or a device in its place is an XmlError at once (read through the confined folder and read_input_fd).
  const std::filesystem::path parent = path.has_parent_path() ? path.parent_path() : ".";
  std::error_code ec;
  if (!std::filesystem::is_directory(parent, ec)) return std::nullopt;
  std::string text;
  try {
    const ConfinedFolder folder(parent, "the results folder");
    if (!folder.kind(path.filename())) return std::nullopt;
    text = folder.read(path.filename());
  } catch (const std::exception& e) {  // ConfinementError, InputFileError
    throw XmlError(e.what());
  }
  const XmlElement root = parse_xml(text, path.string());
  const auto cases = root.descendants("testcase");
  if (cases.size() != 1)
    throw XmlError(path.string() + ": not a one-test report (" + std::to_string(cases.size()) + " testcases)");
  return read_testcase(*cases.front());
}

TestReportEntry read_testcase(const XmlElement& c) {
  TestReportEntry e;
  e.suite = c.attribute("classname");
  e.test = c.attribute("name");
  for (const XmlElement& child : c.children) {
    if (child.name == "failure" || child.name == "error") e.status = TestReportEntry::Status::failed;
    if (child.name == "skipped" && e.status != TestReportEntry::Status::failed)
      e.status = TestReportEntry::Status::skipped;
    if (child.name == "failure" || child.name == "error" || child.name == "skipped")
      e.messages.push_back(child.has_attribute("message") ? child.attribute("message") : child.text);
  }
  // GoogleTest 1.12+ writes recorded properties as <property> elements, older releases as attributes.
  const std::string device = protocol::property::device;
  if (c.has_attribute(device)) e.properties[device] = c.attribute(device);
  for (const XmlElement* p : c.descendants("property")) e.properties[p->attribute("name")] = p->attribute("value");
  try {
    e.seconds = std::stod(c.attribute("time", "0"));
  } catch (const std::exception&) {
  }
  return e;
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
