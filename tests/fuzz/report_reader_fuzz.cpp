// libFuzzer target for the reader of JUnit and GoogleTest XML reports: any bytes give an element tree or an
// XmlError. Walking the tree as the gate summary does must not crash either.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include <bankgate/gate/protocol/xml_reader.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const auto root =
        bankgate::gate::parse_xml(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz input");
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
