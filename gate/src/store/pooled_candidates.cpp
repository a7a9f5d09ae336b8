#include <bankgate/gate/store/pooled_candidates.hpp>

#include <stdexcept>

#include <bankgate/gate/rules/baseline_json.hpp>
#include <bankgate/gate/rules/statistics.hpp>
#include <bankgate/gate/rules/test_filter.hpp>
#include <bankgate/gate/store/baseline_folder.hpp>

namespace bankgate::gate {
namespace {

namespace fs = std::filesystem;
namespace h = bankgate::gate;

// Rounds of one build must agree on everything but durations; otherwise pooling would hide a difference.
void check_same_kind(const h::TestRecord& first, const h::TestRecord& next, const std::string& name,
                     const fs::path& file) {
  if (first.kernel != next.kernel || first.correct != next.correct)
    throw std::runtime_error(file.string() + ": " + name + " differs from an earlier round in kernel or correctness");
  if (first.timing.has_value() != next.timing.has_value() ||
      (first.timing &&
       (first.timing->l2 != next.timing->l2 || first.timing->launches_per_sample != next.timing->launches_per_sample)))
    throw std::runtime_error(file.string() + ": " + name + " was timed differently from an earlier round");
}

}  // namespace

PooledRuns pooled_candidates(const fs::path& root, const std::string& filter) {
  if (!fs::is_directory(root)) throw std::runtime_error(root.string() + " is not a folder of candidate files");
  PooledRuns runs;
  std::map<std::string, h::TestRecord>& pooled = runs.records;
  std::map<std::string, std::size_t> dropped;
  // Read inside the folder (confined_folder.hpp); files_below sorts: rounds in a fixed order, so the first round
  // is the same every time.
  const h::ConfinedFolder folder(root, "the candidates folder");
  std::vector<std::string> problems;
  const auto files = folder.files_below(
      ".", [](const std::string& name) { return name.ends_with(".json"); }, problems);
  if (!problems.empty()) throw std::runtime_error(problems.front());
  for (const fs::path& relative : files) {
    const fs::path file = folder.display(relative);
    h::SuiteFile one;
    try {
      one = h::read_suite_file(folder, relative);
    } catch (const h::OldSchemaError& e) {
      throw std::runtime_error(
          file.string() + ": a candidate of schema " + std::to_string(e.version()) +
          ", written by an older bankgate than this one (schema " + std::to_string(h::current_schema_version) +
          "): both builds of a comparison must measure with the same schema; compare against a base "
          "commit that already has this bankgate");
    }
    bool pooled_one = false;
    for (const auto& [test, record] : one.tests) {
      const std::string name = one.suite + "." + test;
      if (!matches_filter(name, filter)) continue;
      pooled_one = true;
      auto [it, first] = pooled.try_emplace(name, record);
      if (!first) {
        check_same_kind(it->second, record, name, file);
        it->second.samples_ns.insert(it->second.samples_ns.end(), record.samples_ns.begin(), record.samples_ns.end());
      }
      if (record.timing) {
        dropped[name] += record.timing->dropped_samples;
        RoundTimes& times = runs.rounds[name];
        times.medians_ns.push_back(record.timing->median_ns);
      }
    }
    if (pooled_one) runs.provenance.push_back(one.provenance);
  }
  for (auto& [name, record] : pooled) {
    if (!record.timing) continue;
    if (record.samples_ns.empty())
      throw std::runtime_error(name + ": a candidate under " + root.string() +
                               " has a timing summary but no samples_ns");
    h::TimingSummary summary = h::summarize_durations(record.samples_ns);
    summary.tolerance = record.timing->tolerance;
    summary.l2 = record.timing->l2;
    summary.launches_per_sample = record.timing->launches_per_sample;
    summary.warmup_launches = record.timing->warmup_launches;
    summary.sm_clock_mhz = record.timing->sm_clock_mhz;
    summary.dropped_samples = dropped[name];
    record.timing = summary;
  }
  return runs;
}

}  // namespace bankgate::gate
