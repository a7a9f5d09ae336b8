#pragma once
// An XML reader (pugixml underneath) for JUnit reports such as the one bankgate writes (summary_junit.cpp): its
// tests read that report back with it, and a fuzzer holds it to any bytes. No step of a run reads XML: a verdict
// comes from plans and result records alone (gate_summary.hpp), and ctest's own JUnit report is an output that
// nothing reads back. Plain documents only: elements, attributes, character data, CDATA, comments and a prolog;
// no namespaces, no DTD processing (a DOCTYPE is skipped), only the predefined and numeric entities. Malformed
// input is an error naming the file and line. Every name, attribute and text is valid UTF-8 (invalid bytes become
// U+FFFD): reports hold whatever the tests printed.

#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace bankgate::gate {

class XmlError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct XmlElement {
  std::string name;
  std::vector<std::pair<std::string, std::string>> attributes;  // in document order, entities decoded
  std::vector<XmlElement> children;
  std::string text;  // the character data and CDATA directly inside, concatenated, entities decoded

  // The attribute's value, or `fallback` when absent.
  std::string attribute(std::string_view key, const std::string& fallback = "") const;
  bool has_attribute(std::string_view key) const;
  // The first child element named `child_name`, or nullptr.
  const XmlElement* child(std::string_view child_name) const;
  // Every element named `element_name` below this one (not this one itself), in document order.
  std::vector<const XmlElement*> descendants(std::string_view element_name) const;
};

// `origin` names the input in error messages (a file path).
XmlElement parse_xml(std::string_view text, const std::string& origin);
// Reads only a regular file of at most max_input_bytes (input_file.hpp); XmlError for anything else.
XmlElement read_xml_file(const std::filesystem::path& path);

}  // namespace bankgate::gate
