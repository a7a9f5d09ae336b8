#pragma once
// A finding as JSON, both ways: the JSON models write it (output_json.hpp), and a test's result record
// (protocol/test_result.hpp) carries its findings from the suite process to the summary, so that the comparison
// is made once.

#include <optional>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include <bankgate/gate/rules/comparison.hpp>

namespace bankgate::gate {

// {metric, timing, baseline, measured, change, tolerance, verdict, detail[, kernel]}; change is (measured - baseline)
// / baseline, null where either side is missing or the baseline is 0.
nlohmann::json to_json(const Finding& finding);
// The finding to_json wrote; throws std::invalid_argument naming the field that is missing, unknown or of the
// wrong type. "change" is read as written and not kept: it follows from the two sides.
Finding finding_from_json(const nlohmann::json& finding);

// Counters are whole numbers and stay so in JSON (1024, not 1024.0); durations and ratios keep their fraction;
// null where `present` is false.
nlohmann::json number_or_null(bool present, double value);

// The verdict verdict_id() names; nullopt for any other text.
std::optional<Verdict> verdict_from_id(const std::string& id);

}  // namespace bankgate::gate
