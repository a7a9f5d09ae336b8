// The gate summary for tools: summary.json (schemas/summary.schema.json), which CI keeps and scripts read.
#include <bankgate/gate/reports/gate_summary.hpp>

#include <charconv>
#include <cmath>

#include <nlohmann/json.hpp>

#include <bankgate/gate/reports/output_json.hpp>

namespace bankgate::gate {

namespace {

// GoogleTest's report keeps every property as text; those that are numbers (costs, sample counts, medians)
// are written as numbers, the rest (the device) as they are.
nlohmann::json property_value(const std::string& text) {
  double value = 0.0;
  const char* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, value);
  if (!text.empty() && error == std::errc() && stop == end && std::isfinite(value)) return value;
  return text;
}

nlohmann::json change_json(const MetricChange& c) {
  if (!c.finding)  // the output itself, against the CPU reference
    return {{"metric", "output"},
            {"display_name", c.metric},
            {"timing", false},
            {"measured", nullptr},
            {"baseline", nullptr},
            {"change", nullptr},
            {"tolerance", ""},
            {"verdict", "wrong_output"},
            {"detail", "the kernel's output differs from the CPU reference"}};
  nlohmann::json change = to_json(*c.finding);
  change["display_name"] = c.metric;
  return change;
}

nlohmann::json test_json(const TestResult& t) {
  nlohmann::json changes = nlohmann::json::array();
  for (const MetricChange& c : t.changes) changes.push_back(change_json(c));
  nlohmann::json properties = nlohmann::json::object();
  for (const auto& [key, value] : t.properties) properties[key] = property_value(value);
  return {{"name", t.name},
          {"suite", t.suite},
          {"test", t.test},
          {"outcome", outcome_id(t.outcome)},
          {"device", t.device},
          {"gpu", t.gpu},
          {"seconds", t.seconds ? nlohmann::json(*t.seconds) : nlohmann::json(nullptr)},
          {"reason", t.reason},
          {"changes", std::move(changes)},
          {"median_ns", t.median_ns ? nlohmann::json(*t.median_ns) : nlohmann::json(nullptr)},
          {"baseline_file", t.baseline_file},
          {"refresh", t.refresh},
          {"properties", std::move(properties)}};
}

}  // namespace

nlohmann::json to_json(const GateSummary& s) {
  nlohmann::json tests = nlohmann::json::array();
  for (const TestResult& t : s.tests) tests.push_back(test_json(t));
  nlohmann::json document = document_head(summary_schema, s.provenance);
  document["exit_code"] = s.exit_code();
  document["verdict"] = exit_verdict_id(s.exit_code());
  document["problems"] = s.problems;
  document["tests"] = std::move(tests);
  if (s.shard) document["shard"] = to_json(*s.shard);  // shard_merge.cpp
  if (s.merged_shards > 0) document["merged_shards"] = s.merged_shards;
  return document;
}

}  // namespace bankgate::gate
