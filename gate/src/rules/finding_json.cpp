#include <bankgate/gate/rules/finding_json.hpp>

#include <cmath>
#include <cstdint>
#include <set>
#include <stdexcept>

#include <nlohmann/json.hpp>

namespace bankgate::gate {
namespace {

using nlohmann::json;

constexpr Verdict all_verdicts[] = {Verdict::pass,           Verdict::counter_changed, Verdict::slower,
                                    Verdict::faster,         Verdict::not_in_baseline, Verdict::not_measured,
                                    Verdict::method_changed, Verdict::too_few_samples, Verdict::inconclusive};

const json& field(const json& finding, const char* key, bool (json::*is)() const noexcept, const char* type) {
  const auto it = finding.find(key);
  if (it == finding.end()) throw std::invalid_argument(std::string("a finding has no \"") + key + "\"");
  if (!((*it).*is)()) throw std::invalid_argument(std::string("a finding's \"") + key + "\" is not " + type);
  return *it;
}

// A side of the finding: a finite number, or null where the verdict says that side is missing.
double side(const json& finding, const char* key) {
  const auto it = finding.find(key);
  if (it == finding.end()) throw std::invalid_argument(std::string("a finding has no \"") + key + "\"");
  if (it->is_null()) return 0.0;
  if (!it->is_number() || !std::isfinite(it->get<double>()))
    throw std::invalid_argument(std::string("a finding's \"") + key + "\" is not a finite number or null");
  return it->get<double>();
}

}  // namespace

json number_or_null(bool present, double value) {
  if (!present) return nullptr;
  if (std::trunc(value) == value && std::fabs(value) < 9.0e15) return static_cast<std::int64_t>(value);
  return value;
}

std::optional<Verdict> verdict_from_id(const std::string& id) {
  for (const Verdict v : all_verdicts)
    if (verdict_id(v) == id) return v;
  return std::nullopt;
}

json to_json(const Finding& f) {
  const bool has_measured = f.verdict != Verdict::not_measured;
  const bool has_baseline = f.verdict != Verdict::not_in_baseline;
  const bool has_change = has_measured && has_baseline && f.baseline != 0.0;
  json finding = {{"metric", f.metric},
                  {"timing", f.timing},
                  {"measured", number_or_null(has_measured, f.measured)},
                  {"baseline", number_or_null(has_baseline, f.baseline)},
                  {"change", number_or_null(has_change, has_change ? (f.measured - f.baseline) / f.baseline : 0.0)},
                  {"tolerance", f.tolerance},
                  {"verdict", verdict_id(f.verdict)},
                  {"detail", f.detail}};
  if (!f.kernel.empty()) finding["kernel"] = f.kernel;  // a test of several kernels: which one
  return finding;
}

Finding finding_from_json(const json& j) {
  if (!j.is_object()) throw std::invalid_argument("a finding is not a JSON object");
  static const std::set<std::string> keys{"metric",    "timing",  "measured", "baseline", "change",
                                          "tolerance", "verdict", "detail",   "kernel"};
  for (const auto& [key, value] : j.items())
    if (!keys.contains(key)) throw std::invalid_argument("a finding has an unknown field \"" + key + "\"");
  Finding f;
  f.metric = field(j, "metric", &json::is_string, "text").get<std::string>();
  f.timing = field(j, "timing", &json::is_boolean, "true or false").get<bool>();
  f.measured = side(j, "measured");
  f.baseline = side(j, "baseline");
  side(j, "change");
  f.tolerance = field(j, "tolerance", &json::is_string, "text").get<std::string>();
  const std::string verdict = field(j, "verdict", &json::is_string, "text").get<std::string>();
  const std::optional<Verdict> v = verdict_from_id(verdict);
  if (!v) throw std::invalid_argument("a finding's verdict \"" + verdict + "\" is none bankgate knows");
  f.verdict = *v;
  f.detail = field(j, "detail", &json::is_string, "text").get<std::string>();
  if (j.contains("kernel")) f.kernel = field(j, "kernel", &json::is_string, "text").get<std::string>();
  return f;
}

}  // namespace bankgate::gate
