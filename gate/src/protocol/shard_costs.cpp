#include <bankgate/gate/protocol/shard_costs.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <string_view>

#include <nlohmann/json.hpp>

#include <bankgate/gate/store/baseline_folder.hpp>
#include <bankgate/gate/store/input_file.hpp>
#include <bankgate/gate/protocol/run_protocol.hpp>

namespace bankgate::gate {
namespace {

namespace fs = std::filesystem;

// The host time a test records of itself (gate_fixture.cpp), its start-up in a process aside: what moving the
// test to another runner moves.
constexpr std::array own_costs_ms{protocol::property::counter_host_ms,     protocol::property::timing_host_ms,
                                  protocol::property::prepare_ms,          protocol::property::output_check_ms,
                                  protocol::property::attribution_host_ms, protocol::property::gate_rules_ms};

std::optional<double> non_negative(const std::string& text) {
  try {
    std::size_t used = 0;
    const double value = std::stod(text, &used);
    if (used == text.size() && std::isfinite(value) && value >= 0.0) return value;
  } catch (const std::exception&) {  // not a number: no figure
  }
  return std::nullopt;
}

// One test of summary.json's "tests": its own recorded costs, else ctest's seconds; nullopt where it has neither.
std::optional<double> seconds_of(const nlohmann::json& test) {
  double ms = 0.0;
  bool recorded = false;
  if (const auto properties = test.find("properties"); properties != test.end() && properties->is_object())
    for (const char* name : own_costs_ms)
      if (const auto p = properties->find(name); p != properties->end() && p->is_string())
        if (const auto value = non_negative(p->get<std::string>())) {
          ms += *value;
          recorded = true;
        }
  if (recorded) return ms / 1000.0;
  if (const auto seconds = test.find("seconds");
      seconds != test.end() && seconds->is_number() && seconds->get<double>() >= 0.0)
    return seconds->get<double>();
  return std::nullopt;
}

}  // namespace

TestSeconds test_seconds_from_summary(const fs::path& summary_json) {
  const std::string how = "; give --shard-durations the summary.json of an earlier gate (or of a merge of its shards)";
  nlohmann::json doc;
  try {
    doc = parse_input_json(read_input_file(summary_json), summary_json.string());
  } catch (const InputFileError& e) {
    throw ShardInputError(e.what() + how);
  } catch (const nlohmann::json::exception& e) {
    throw ShardInputError(summary_json.string() + " is not JSON (" + e.what() + ")" + how);
  }
  const auto tests = doc.is_object() ? doc.find("tests") : doc.end();
  if (!doc.is_object() || tests == doc.end() || !tests->is_array())
    throw ShardInputError(summary_json.string() + " has no \"tests\" list" + how);
  TestSeconds seconds;
  for (const nlohmann::json& test : *tests) {
    const auto name = test.is_object() ? test.find("name") : test.end();
    if (!test.is_object() || name == test.end() || !name->is_string())
      throw ShardInputError(summary_json.string() + ": an entry of \"tests\" has no \"name\"" + how);
    if (const auto s = seconds_of(test)) seconds[name->get<std::string>()] = *s;
  }
  return seconds;
}

TestSeconds test_seconds_from_baselines(const fs::path& root, const std::set<std::string>& suites) {
  TestSeconds seconds;
  std::error_code ec;
  if (root.empty() || !fs::is_directory(root, ec)) return seconds;
  try {
    const BaselineFolder folder(root);
    std::vector<std::string> ignored;  // odd entries: the gate's own reading names them
    for (const GpuKey& gpu : folder.gpus(ignored))
      for (const std::string& suite : suites) {
        std::optional<SuiteFile> file;
        try {
          file = folder.read(gpu, suite);
        } catch (const std::exception&) {  // unusable, or no name a file can have: the default cost
          continue;
        }
        if (!file) continue;
        for (const auto& [test, record] : file->tests) {
          double cost = shard_cost::per_test_s;
          if (const auto& t = record.timing)
            cost += (static_cast<double>(t->samples * static_cast<std::size_t>(std::max(1, t->launches_per_sample)) +
                                         t->warmup_launches) *
                     t->median_ns) /
                    1e9;
          double& kept = seconds[suite + "." + test];
          kept = std::max(kept, cost);
        }
      }
  } catch (const std::exception&) {  // a folder the gate will refuse, naming why: nothing known here
    return {};
  }
  return seconds;
}

}  // namespace bankgate::gate
