// The JSON models (output_json.hpp) and the summary's (summary_json.cpp) share this head and these pieces.
#include <bankgate/gate/reports/output_json.hpp>

#include <cmath>
#include <cstdint>

#include <nlohmann/json.hpp>

#include <bankgate/gate/protocol/run_protocol.hpp>

namespace bankgate::gate {

nlohmann::json to_json(const RunProvenance& p) {
  nlohmann::json gpus = nlohmann::json::array();
  for (const MeasuredGpu& g : p.gpus)
    gpus.push_back({{"name", g.name},
                    {"driver_release", g.driver_release},
                    {"driver_version", g.driver_version},
                    {"cuda_runtime_version", g.cuda_runtime_version}});
  return {{"created", p.created},
          {"host", p.host},
          {"commit", p.commit},
          {"dirty", p.dirty},
          {"measured", p.measured},
          {"gpus", gpus},
          {"baseline_commits", p.baseline_commits}};
}

nlohmann::json document_head(const std::string& schema, const RunProvenance& provenance) {
  return {{"schema", schema},
          {"schema_version", output_schema_version},
          {"tool", {{"name", "bankgate"}, {"version", provenance.tool_version}}},
          {"provenance", to_json(provenance)}};
}

nlohmann::json review_document(const std::vector<ReviewRow>& rows, const GpuKey& gpu, const RunProvenance& provenance,
                               int exit_code) {
  nlohmann::json out = nlohmann::json::array();
  for (const ReviewRow& r : rows) {
    nlohmann::json row = to_json(r.finding);
    row["suite"] = r.suite;
    row["test"] = r.test;
    row["correct"] = r.correct;
    out.push_back(std::move(row));
  }
  nlohmann::json document = document_head(review_schema, provenance);
  document["exit_code"] = exit_code;
  document["verdict"] = exit_verdict_id(exit_code);
  document["gpu"] = {{"arch", gpu.arch}, {"model", gpu.model}};
  document["rows"] = std::move(out);
  return document;
}

nlohmann::json comparison_document(const std::vector<ComparisonRow>& rows, const RunProvenance& provenance,
                                   int exit_code, bool fail_on_speedup, const std::optional<ExtraRounds>& extra) {
  nlohmann::json tests = nlohmann::json::array();
  for (const ComparisonRow& row : rows) {
    nlohmann::json findings = nlohmann::json::array();
    for (const Finding& f : row.findings) findings.push_back(to_json(f));
    tests.push_back({{"name", row.test},
                     {"head_correct", row.head_correct},
                     {"findings", std::move(findings)},
                     {"rounds", {{"base", row.base_rounds}, {"head", row.head_rounds}}}});
  }
  nlohmann::json document = document_head(compare_schema, provenance);
  document["exit_code"] = exit_code;
  document["verdict"] = exit_verdict_id(exit_code);
  document["fail_on_speedup"] = fail_on_speedup;
  document["tests"] = std::move(tests);
  if (extra)
    document["extra_time"] = {{"budget_s", extra->budget_seconds},
                              {"spent_s", extra->spent_seconds},
                              {"rounds", extra->rounds},
                              {"budget_spent", extra->budget_spent},
                              {"tests", extra->given}};
  return document;
}

std::string exit_verdict_id(int exit_code) {
  switch (exit_code) {
    case protocol::exit_ok:
      return "passed";
    case protocol::exit_regression:
      return "regressed";
    case protocol::exit_not_measured:
      return "not_measured";
    case protocol::exit_inconclusive:
      return "inconclusive";
    default:
      return "failed";
  }
}

}  // namespace bankgate::gate
