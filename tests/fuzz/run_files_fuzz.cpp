// libFuzzer target for the files of a run that a gate's verdict is made of (gate_summary.hpp): a test's result
// record and a suite's plan. Any bytes give a record or a plan, or a ResultRecordError; nothing else. (No step of
// a run reads XML: JUnit reports are bankgate's output only, so there is no XML reader to fuzz.)

#include <cstddef>
#include <cstdint>
#include <string>

#include <bankgate/gate/protocol/test_plan.hpp>
#include <bankgate/gate/protocol/test_result.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const auto record = bankgate::gate::parse_result_record(text, "fuzz input");
    volatile std::size_t sink = record.messages.size() + record.findings.size() + record.properties.size();
    (void)sink;
  } catch (const bankgate::gate::ResultRecordError&) {
  }
  try {
    const auto plan = bankgate::gate::parse_plan(text, "fuzz input");
    volatile std::size_t sink = plan.tests.size() + plan.filter.size() + plan.problem.size();
    (void)sink;
  } catch (const bankgate::gate::ResultRecordError&) {
  }
  return 0;
}
