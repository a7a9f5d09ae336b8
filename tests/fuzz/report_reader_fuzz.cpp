// libFuzzer target for the readers of a run's files: a test's result record (any bytes give a record or a
// ResultRecordError) and the XML reader the tests read JUnit reports back with (any bytes give an element tree or
// an XmlError, and walking the tree as a JUnit report must not crash either).

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include <bankgate/gate/protocol/test_result.hpp>
#include <bankgate/gate/protocol/xml_reader.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const auto record = bankgate::gate::parse_result_record(std::string(text), "fuzz input");
    volatile std::size_t sink = record.messages.size() + record.findings.size() + record.properties.size();
    (void)sink;
  } catch (const bankgate::gate::ResultRecordError&) {
  }
  try {
    const auto root = bankgate::gate::parse_xml(text, "fuzz input");
    std::size_t seen = 0;
    for (const auto* testcase : root.descendants("testcase")) {
      seen += testcase->attribute("name").size() + testcase->attribute("classname", "-").size();
      if (const auto* failure = testcase->child("failure")) seen += failure->text.size();
      for (const auto* property : testcase->descendants("property")) seen += property->attribute("value").size();
    }
    volatile std::size_t sink = seen;
    (void)sink;
  } catch (const bankgate::gate::XmlError&) {
  }
  return 0;
}
