// The gate summary for tools: summary.json, which CI keeps and the bench scripts read.
#include <bankgate/gate/gate_summary.hpp>

#include <nlohmann/json.hpp>

namespace bankgate::gate {

nlohmann::json to_json(const GateSummary& s) {
  nlohmann::json tests = nlohmann::json::array();
  for (const TestResult& t : s.tests) {
    nlohmann::json changes = nlohmann::json::array();
    for (const MetricChange& c : t.changes)
      changes.push_back({{"metric", c.metric}, {"metric_name", c.metric_name}, {"measured", c.measured},
                         {"baseline", c.baseline}, {"change", c.change}, {"tolerance", c.tolerance}, {"verdict", c.verdict}});
    nlohmann::json test = {{"name", t.name}, {"suite", t.suite}, {"test", t.test}, {"outcome", to_string(t.outcome)},
                           {"device", t.device}, {"gpu", t.gpu}, {"seconds", t.seconds}, {"reason", t.reason},
                           {"changes", changes}, {"baseline_file", t.baseline_file}, {"refresh", t.refresh}};
    test["median_ns"] = t.median_ns ? nlohmann::json(*t.median_ns) : nlohmann::json(nullptr);
    test["properties"] = t.properties;
    tests.push_back(test);
  }
  nlohmann::json out = {{"exit_code", s.exit_code()}, {"verdict", verdict_word(s.exit_code())}, {"problems", s.problems}, {"tests", tests}};
  if (s.shard) out["shard"] = to_json(*s.shard);  // shard_merge.cpp
  if (s.merged_shards > 0) out["merged_shards"] = s.merged_shards;
  return out;
}

}  // namespace bankgate::gate
