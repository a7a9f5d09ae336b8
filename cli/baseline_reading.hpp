#pragma once
// Reading what review, promote, check-baselines and recover work on: recorded candidates (of one runner or merged
// from several), the baselines each candidate suite is shown against or promoted into, and what a baselines
// folder holds that is not bankgate's.

#include <filesystem>
#include <map>
#include <optional>
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include <bankgate/gate/rules/baseline.hpp>
#include <bankgate/gate/rules/baseline_json.hpp>
#include <bankgate/gate/store/confined_folder.hpp>

namespace bankgate::cli {

// The metric names a baseline may hold: the gated counters.
std::set<std::string> known_metrics();

// `candidates`, or where empty the last record's candidates folder of `build`.
std::filesystem::path candidates_folder(const std::filesystem::path& candidates, const std::filesystem::path& build);

// The GPU whose candidates to use (`wanted`, else the only one); a Refusal where there are none or several.
gate::GpuKey candidate_gpu(const std::filesystem::path& candidates, const std::string& wanted);

// Where a suite's baselines are: `override_dir` when given, else the folder its candidates name, inside
// `project`, the project the build was configured from.
std::filesystem::path destination(const std::filesystem::path& override_dir, const gate::SuiteFile& candidate,
                                  const std::filesystem::path& project);

// A baseline file of an older schema is replaced whole by the recording, and only when the recording holds every
// test the old file held, so that no test it gated is dropped unseen: a Refusal otherwise, else a note on `out`.
void check_replaceable(const std::string& old_text, const gate::OldSchemaError& old, const gate::SuiteFile& candidate,
                       std::ostream& out);

// The baselines each candidate suite is shown against, read from their folders (a folder half-written by an
// interrupted promotion is refused with the recovery command). A file of an older schema counts as absent: the
// promotion replaces it (check_replaceable, whose note goes to `out`).
std::map<std::string, gate::SuiteFile> read_baselines(const std::filesystem::path& override_dir,
                                                      const std::filesystem::path& project, const gate::GpuKey& gpu,
                                                      const std::map<std::string, gate::SuiteFile>& candidates,
                                                      std::ostream& out);

// The candidates of `dir`, merged with those of each other runner's folder (runner_merge.hpp); a Refusal where a
// folder holds none for `gpu` or the recordings disagree.
std::map<std::string, gate::SuiteFile> runners_merged(const std::filesystem::path& dir, const gate::GpuKey& gpu,
                                                      const std::vector<std::filesystem::path>& runners);

// A journal inside the baselines folder came with the folder's files (bankgate 0.4 kept its journal there; a pull
// request can add one): it is never read, and said so. The line that says it; nothing where there is none.
std::optional<std::string> stray_journal(const gate::ConfinedFolder& folder);

}  // namespace bankgate::cli
