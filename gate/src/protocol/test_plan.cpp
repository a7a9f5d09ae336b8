#include <bankgate/gate/protocol/test_plan.hpp>

#include <set>

#include <nlohmann/json.hpp>

#include <bankgate/gate/protocol/test_result.hpp>
#include <bankgate/gate/store/atomic_file.hpp>
#include <bankgate/gate/text/text.hpp>

#include "strict_reader.hpp"

namespace bankgate::gate {

namespace fs = std::filesystem;
using nlohmann::json;

fs::path test_plan_path(const fs::path& results, const std::string& program, int shard) {
  return results / (program + "." + std::to_string(shard) + test_plan_suffix);
}

std::string plan_json(const TestPlan& plan) {
  return json_text({{"schema", test_plan_schema},
                    {"schema_version", test_plan_schema_version},
                    {"program", plan.program},
                    {"shard", plan.shard},
                    {"filter", plan.filter},
                    {"tests", plan.tests},
                    {"problem", plan.problem}});
}

TestPlan parse_plan(const std::string& text, const std::string& origin) {
  const json doc = json::parse(text, nullptr, /*allow_exceptions=*/false);
  const StrictReader<ResultRecordError> r(doc, "the test plan", origin,
                                          "bankgate run-suite writes it before its tests: run them again");
  r.expect({"schema", "schema_version", "program", "shard", "filter", "tests", "problem"}, test_plan_schema,
           test_plan_schema_version, "no test plan");
  TestPlan plan;
  plan.program = r.text("program");
  const json& shard = r.at("shard", &json::is_number_unsigned, "a shard number");
  if (shard.get<std::uint64_t>() > 1024) r.fail("has a shard number beyond any run's");
  plan.shard = shard.get<int>();
  plan.filter = r.text("filter");
  plan.problem = r.text("problem");
  std::set<std::string> seen;
  for (const json& t : r.at("tests", &json::is_array, "a list")) {
    if (!t.is_string()) r.fail("has a test that is not a name");
    if (!seen.insert(t.get<std::string>()).second) r.fail("names the test " + t.get<std::string>() + " twice");
    plan.tests.push_back(t.get<std::string>());
  }
  return plan;
}

void write_plan(const fs::path& results, const TestPlan& plan) {
  fs::create_directories(results);
  const std::string text = plan_json(plan);
  write_file_atomically(test_plan_path(results, plan.program, plan.shard), [&](std::ostream& out) { out << text; });
}

}  // namespace bankgate::gate
