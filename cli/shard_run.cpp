#include "shard_run.hpp"

#include <algorithm>
#include <iomanip>
#include <iostream>
#include <map>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include <bankgate/gate/protocol/shard_costs.hpp>
#include <bankgate/gate/rules/shard_plan.hpp>
#include <bankgate/gate/rules/test_filter.hpp>
#include <bankgate/gate/text/text.hpp>

#include "cmake_cache.hpp"
#include "process.hpp"

namespace bankgate::cli {
namespace {

namespace fs = std::filesystem;
namespace g = bankgate::gate;

// The GPU tests of a build as ctest lists them: the gated ones with their suite program, and each program's
// measuring runs (by its ctest fixture, which bankgate_add_gpu_suite gives both).
struct GpuTests {
  std::vector<g::ListedTest> gated;
  std::map<std::string, std::vector<std::string>> measuring;
};

// The first value of a ctest property (`ctest --show-only=json-v1`: [{"name", "value"}, ...]); empty where absent.
std::string first_value(const nlohmann::json& properties, const std::string& name) {
  for (const nlohmann::json& p : properties)
    if (p.is_object() && p.value("name", "") == name) {
      const nlohmann::json& value = p["value"];
      if (value.is_array() && !value.empty() && value[0].is_string()) return value[0].get<std::string>();
      if (value.is_string()) return value.get<std::string>();
    }
  return "";
}

GpuTests list_gpu_tests(const fs::path& build) {
  const std::vector<std::string> argv{build_tool(build, "ctest"), "--test-dir", build.string(), "-L", "^gpu$",
                                      "--show-only=json-v1"};
  const std::string listing = program_output(argv);
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(listing);
  } catch (const nlohmann::json::exception&) {
    throw Refusal("ctest could not list the GPU tests to split them (" + as_command_line(argv) +
                  "; run it to see why)");
  }
  if (!doc.is_object() || !doc.contains("tests") || !doc["tests"].is_array())
    throw Refusal("ctest's listing of the GPU tests holds no \"tests\" list (" + as_command_line(argv) + ")");
  GpuTests tests;
  for (const nlohmann::json& t : doc["tests"]) {
    if (!t.is_object() || !t.contains("name") || !t["name"].is_string()) continue;
    const std::string name = t["name"].get<std::string>();
    const nlohmann::json properties = t.value("properties", nlohmann::json::array());
    if (const std::string fixture = first_value(properties, "FIXTURES_SETUP"); !fixture.empty())
      tests.measuring[fixture].push_back(name);
    else
      tests.gated.push_back({name, first_value(properties, "FIXTURES_REQUIRED")});
  }
  return tests;
}

// What each test costs: what was recorded, else what the baselines say; and where that came from.
g::TestSeconds costs(const ShardRequest& request, const fs::path& baselines, const std::set<std::string>& suites,
                     std::string& source) {
  g::TestSeconds known = request.recorded;
  const g::TestSeconds from_baselines = g::test_seconds_from_baselines(baselines, suites);
  known.insert(from_baselines.begin(), from_baselines.end());  // recorded durations first
  source = (request.recorded_from.empty() ? "" : "the durations in " + request.recorded_from + ", else ") +
           (from_baselines.empty() ? "default costs (no baseline under " + baselines.string() + ")"
                                   : "the baselines under " + baselines.string());
  return known;
}

std::string seconds_text(double seconds) {
  std::ostringstream out;
  out << std::fixed << std::setprecision(1) << seconds << " s";
  return out.str();
}

void show(const g::ShardRecord& record, const g::ShardPlan& plan, const std::string& source) {
  double total = 0.0;
  for (const double s : plan.seconds) total += s;
  std::string suites;
  for (const std::string& suite : record.suites) suites += (suites.empty() ? "" : ", ") + suite;
  std::cout << g::terminal_safe("bankgate: shard " + std::to_string(record.index) + " of " +
                                std::to_string(record.count) + ": " + std::to_string(record.suites.size()) + " of " +
                                std::to_string(record.catalogue.size()) + " suites, about " +
                                seconds_text(plan.seconds[static_cast<std::size_t>(record.index - 1)]) +
                                " of the gate's " + seconds_text(total) + " (costs from " + source + ")" +
                                (suites.empty() ? "" : ": " + suites))
            << "\n";
}

}  // namespace

std::optional<ShardRequest> shard_request(const SuiteRun& run) {
  if (run.shard.empty()) return std::nullopt;
  std::string problem;
  const std::optional<g::ShardSpec> spec = g::parse_shard_spec(run.shard, problem);
  if (!spec) throw std::invalid_argument("--shard " + problem);  // the command line checked it already
  ShardRequest request{*spec, {}, ""};
  if (run.shard_durations.empty()) return request;
  try {
    request.recorded = g::test_seconds_from_summary(run.shard_durations);
  } catch (const g::ShardInputError& e) {
    throw Refusal(std::string("--shard-durations: ") + e.what());
  }
  request.recorded_from = run.shard_durations.string();
  return request;
}

ShardSelection select_shard(const ShardRequest& request, const SuiteRun& run, const fs::path& build,
                            const fs::path& baselines) {
  GpuTests tests = list_gpu_tests(build);
  std::erase_if(tests.gated, [&](const g::ListedTest& t) { return !g::matches_filter(t.name, run.filter); });
  const std::vector<g::ShardUnit> units = g::shard_units(tests.gated);
  std::set<std::string> suites;
  for (const g::ShardUnit& unit : units) suites.insert(unit.suite);
  std::string source;
  const fs::path root = baselines.empty() ? configured_source_dir(build) / "baselines" : baselines;
  const g::ShardPlan plan = g::plan_shards(units, costs(request, root, suites, source), request.spec.count);
  const int index = request.spec.index;
  ShardSelection selection;
  selection.record = {index, request.spec.count, plan.parts[static_cast<std::size_t>(index - 1)], plan.catalogue};
  // The measuring runs of programs none of whose tests are in this part: left out, not started to find nothing.
  std::set<std::string> busy;
  for (const g::ShardUnit& unit : units)
    if (std::binary_search(selection.record.suites.begin(), selection.record.suites.end(), unit.suite))
      busy.insert(unit.programs.begin(), unit.programs.end());
  std::vector<std::string> idle;
  for (const auto& [program, names] : tests.measuring)
    if (!busy.count(program)) idle.insert(idle.end(), names.begin(), names.end());
  selection.filter = g::shard_filter(run.filter, units, plan, index);
  selection.idle_measuring = std::move(idle);
  show(selection.record, plan, source);
  return selection;
}

}  // namespace bankgate::cli
