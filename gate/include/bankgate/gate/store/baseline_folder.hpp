#pragma once
// A baselines folder as the gate reads it: opened once, every file resolved inside it (confined_folder.hpp),
// and refused while an interrupted promotion has left it half-written. The gate, review, promote, summary and
// check-baselines read baselines only through it.

#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <bankgate/gate/rules/baseline.hpp>
#include <bankgate/gate/store/confined_folder.hpp>

namespace bankgate::gate {

// <arch>/<model>/<suite>.json, the place of a suite's baseline inside its folder.
std::filesystem::path suite_file_relative(const GpuKey& gpu, const std::string& suite);

// Whether `path` lies inside `folder` once every link of both is resolved (`path` need not exist yet).
bool lies_inside(const std::filesystem::path& path, const std::filesystem::path& folder);

// The baselines folder a candidate of `suite` names (its `baselines` field), taken only where it lies inside
// `project`, the source folder its build was configured from, once every link of both is resolved. A candidate
// is a file in a build folder that anything may have written: it cannot send a reader or a promotion to any other
// folder. Throws BaselineError saying why the folder is not taken and what to pass instead.
std::filesystem::path candidate_baselines_folder(const std::filesystem::path& named,
                                                 const std::filesystem::path& project, const std::string& suite);

// Reads and validates the suite file at `relative` inside `folder`; every error is a BaselineError naming it.
SuiteFile read_suite_file(const ConfinedFolder& folder, const std::filesystem::path& relative,
                          const std::set<std::string>* known_metrics = nullptr);

class BaselineFolder {
 public:
  // `root` need not exist yet (a project before its first promotion): then it holds no baseline. Throws
  // BaselineError when it is something else than a folder, or half-written by an interrupted promotion.
  explicit BaselineFolder(const std::filesystem::path& root);

  const std::filesystem::path& root() const { return root_; }
  std::filesystem::path file_of(const GpuKey& gpu, const std::string& suite) const {
    return root_ / suite_file_relative(gpu, suite);
  }

  // The suite's baseline for `gpu`; nullopt where the folder has none. Throws BaselineError for one that is
  // unreadable, invalid, or reached through a link that leads outside the folder.
  std::optional<SuiteFile> read(const GpuKey& gpu, const std::string& suite,
                                const std::set<std::string>* known_metrics = nullptr) const;

  // The GPU folders (<arch>/<model>, real folders only), sorted; links and odd entries go to `problems`.
  std::vector<GpuKey> gpus(std::vector<std::string>& problems) const;

  // The open folder; nullptr where it does not exist.
  const ConfinedFolder* folder() const { return folder_ ? &*folder_ : nullptr; }

 private:
  std::filesystem::path root_;
  std::optional<ConfinedFolder> folder_;
};

// The GPU folders <arch>/<model> directly under `folder` (real folders only; links go to `problems`), sorted.
std::vector<GpuKey> gpu_folders(const ConfinedFolder& folder, std::vector<std::string>& problems);

// Reads and validates one suite file; a folder or FIFO in its place is reported, a huge file refused.
SuiteFile read_suite_file(const std::filesystem::path& path, const std::set<std::string>* known_metrics = nullptr);
// Validates, then writes through a temporary file and a rename: readers see the old file or the new one.
void write_suite_file(const std::filesystem::path& path, const SuiteFile& file, Samples samples);

// The <arch>/<model> folders under a baselines or candidates root, sorted.
std::vector<GpuKey> gpu_folders(const std::filesystem::path& root);
// `wanted` when given, else the only GPU folder under `root`; throws std::invalid_argument when there are
// none or several, naming them and asking for --gpu.
GpuKey choose_gpu(const std::filesystem::path& root, const std::string& wanted);

}  // namespace bankgate::gate
