#include "baseline_reading.hpp"

#include <nlohmann/json.hpp>

#include <bankgate/gate/rules/baseline_json.hpp>
#include <bankgate/gate/store/baseline_folder.hpp>
#include <bankgate/gate/store/baseline_transaction.hpp>
#include <bankgate/gate/store/candidates.hpp>
#include <bankgate/gate/rules/gpu_key.hpp>
#include <bankgate/gate/protocol/run_protocol.hpp>
#include <bankgate/gate/rules/runner_merge.hpp>
#include <bankgate/gate/text/text.hpp>
#include <bankgate/metrics.hpp>

#include "commands.hpp"

namespace bankgate::cli {

namespace fs = std::filesystem;
namespace g = bankgate::gate;

std::set<std::string> known_metrics() {
  const auto names = bankgate::gated_counter_names();
  return {names.begin(), names.end()};
}

fs::path candidates_folder(const fs::path& candidates, const fs::path& build) {
  return candidates.empty() ? g::protocol::run_candidates(g::protocol::record_run(build)) : candidates;
}

g::GpuKey candidate_gpu(const fs::path& candidates, const std::string& wanted) {
  if (wanted.empty() && g::gpu_folders(candidates).empty())
    throw Refusal("no candidates in " + candidates.string() +
                  ": measure first (bankgate record --build DIR, or bankgate refresh, which records and promotes)");
  try {
    return g::choose_gpu(candidates, wanted);
  } catch (const std::invalid_argument& e) {
    throw Refusal(e.what());
  }
}

fs::path destination(const fs::path& override_dir, const g::SuiteFile& candidate, const fs::path& project) {
  if (!override_dir.empty()) return override_dir;
  try {
    return g::candidate_baselines_folder(candidate.baseline_dir, project, candidate.suite);
  } catch (const g::BaselineError& e) {
    throw Refusal(e.what());
  }
}

// The old file's test names are all that is read of it.
void check_replaceable(const std::string& old_text, const g::OldSchemaError& old, const g::SuiteFile& candidate,
                       std::ostream& out) {
  const nlohmann::json document = nlohmann::json::parse(old_text, nullptr, false);
  std::string missing;
  if (document.is_object() && document.contains("tests") && document["tests"].is_object())
    for (const auto& [test, unused] : document["tests"].items())
      if (!candidate.tests.contains(test)) missing += (missing.empty() ? "" : ", ") + test;
  if (!missing.empty())
    throw Refusal(std::string(old.what()) + "\nit also holds tests this recording lacks (" + missing +
                  "): record the whole suite (bankgate refresh without --filter) to replace it");
  out << "note: " << g::terminal_safe(old.what()) << "\n  this promotion replaces it with the tests just recorded\n";
}

std::map<std::string, g::SuiteFile> read_baselines(const fs::path& override_dir, const fs::path& project,
                                                   const g::GpuKey& gpu,
                                                   const std::map<std::string, g::SuiteFile>& candidates,
                                                   std::ostream& out) {
  const auto known = known_metrics();
  std::map<std::string, g::SuiteFile> baselines;
  for (const auto& [suite, candidate] : candidates) {
    const g::BaselineFolder folder(destination(override_dir, candidate, project));
    try {
      if (auto file = folder.read(gpu, suite, &known)) baselines.emplace(suite, std::move(*file));
    } catch (const g::OldSchemaError& e) {
      check_replaceable(folder.folder()->read(g::suite_file_relative(gpu, suite)), e, candidate, out);
    }
  }
  return baselines;
}

namespace {

// A runner's name in messages and tolerance reasons: its folder's own name ("gpu-369aa79c", say).
std::string runner_label(const fs::path& folder) {
  fs::path p = folder.lexically_normal();
  if (p.filename().empty()) p = p.parent_path();
  return p.filename().empty() ? folder.string() : p.filename().string();
}

}  // namespace

std::map<std::string, g::SuiteFile> runners_merged(const fs::path& dir, const g::GpuKey& gpu,
                                                   const std::vector<fs::path>& runners) {
  std::vector<g::RunnerRecording> recordings;
  std::vector<fs::path> folders{dir};
  folders.insert(folders.end(), runners.begin(), runners.end());
  for (const fs::path& folder : folders) {
    recordings.push_back({runner_label(folder), g::read_candidates(folder, gpu)});
    if (recordings.back().suites.empty())
      throw Refusal("no candidates for " + gpu.arch + "/" + gpu.model + " in " + folder.string());
  }
  try {
    return g::merge_runners(recordings);
  } catch (const g::RunnerMergeError& e) {
    throw Refusal(std::string("the runners' recordings cannot be merged: ") + e.what());
  }
}

std::optional<std::string> stray_journal(const g::ConfinedFolder& folder) {
  constexpr const char* name = ".bankgate-promote.journal";
  if (!folder.kind(name)) return std::nullopt;
  return folder.display(name).string() +
         " is not bankgate's: journals of interrupted promotions are kept outside the folder (in " +
         g::journal_folder().string() +
         "), where no pull request can place one; it is ignored and nothing it names is "
         "restored or removed: delete it (git rm)";
}

}  // namespace bankgate::cli
