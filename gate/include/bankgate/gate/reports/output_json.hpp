#pragma once
// The JSON models bankgate writes for tools: the gate's summary, a review of candidates, a same-runner
// comparison. Each is a contract, described by a JSON Schema under schemas/ (tests validate every output
// against it): it opens with the same head,
//
//   {"schema": "bankgate-summary", "schema_version": 1,
//    "tool": {"name": "bankgate", "version": "0.4.0"},
//    "provenance": {"created", "host", "commit", "dirty", "measured", "gpus": [...], "baseline_commits": [...]}}
//
// and writes numbers as numbers (null where a side has none) and outcomes and verdicts as stable identifiers
// ("not_measured", "counter_changed"), never as the words the tables show. A field is added in a new minor
// version of bankgate; `schema_version` rises only when a field changes meaning or goes away.

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include <bankgate/gate/rules/baseline.hpp>
#include <bankgate/gate/rules/baseline_review.hpp>
#include <bankgate/gate/rules/comparison.hpp>
#include <bankgate/gate/rules/extra_rounds.hpp>
#include <bankgate/gate/rules/finding_json.hpp>  // to_json(Finding), with the models
#include <bankgate/gate/rules/run_comparison.hpp>
#include <bankgate/gate/rules/run_provenance.hpp>

namespace bankgate::gate {

inline constexpr int output_schema_version = 1;
inline constexpr const char* summary_schema = "bankgate-summary";
inline constexpr const char* review_schema = "bankgate-review";
inline constexpr const char* compare_schema = "bankgate-compare";

nlohmann::json document_head(const std::string& schema, const RunProvenance& provenance);
nlohmann::json to_json(const RunProvenance& provenance);

// What `bankgate review --json` writes: every row of the review table, for one GPU.
nlohmann::json review_document(const std::vector<ReviewRow>& rows, const GpuKey& gpu, const RunProvenance& provenance,
                               int exit_code);
// What `bankgate compare --json` writes: each test's findings and rounds a side, head against base, the verdict,
// and what the extra time did where there was any.
nlohmann::json comparison_document(const std::vector<ComparisonRow>& rows, const RunProvenance& provenance,
                                   int exit_code, bool fail_on_speedup,
                                   const std::optional<ExtraRounds>& extra = std::nullopt);

// The verdict of an exit code, as an identifier: passed, regressed, not_measured, inconclusive, setup_failed, ...
std::string exit_verdict_id(int exit_code);

}  // namespace bankgate::gate
