#pragma once
// The base branch's baselines, from git, so that what a change did to its baselines shows in the verdict
// (gate/include/bankgate/gate/rules/baseline_changes.hpp): the base is --base-ref, else BANKGATE_BASE_REF, else the
// merge base of HEAD with origin/main. A base that cannot be read stops the check (exit 2) rather than skip it:
// a checkout without the base branch would otherwise pass any loosening unseen. "none" opts out, and says so.
// Git runs as a program (process.hpp).

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace bankgate::cli {

struct BaseRef {
  std::string commit;  // full SHA
  std::string named;   // how messages name it: "origin/main (merge base)", or the ref given
};

// The word of --base-ref and BANKGATE_BASE_REF that turns the comparison off.
inline constexpr const char* no_base = "none";

// The base of the baselines folder `folder`'s repository; nullopt where the user opted out ("none"). Throws
// Refusal for a given ref that names no commit, and std::runtime_error (exit 2) where no base is given and none
// can be found (no origin/main, a shallow clone, no repository), saying how to fetch one.
std::optional<BaseRef> find_base(const std::filesystem::path& folder, const std::string& option);

// The baselines of the base, found by where the repository tracks the folder, never through a link: a folder
// replaced by a link to another, or moved, is compared with what the base held there, and the move named.
class BaseBaselines {
 public:
  BaseBaselines(const std::filesystem::path& folder, BaseRef base);
  const BaseRef& ref() const { return base_; }
  // The base's text of `relative` (inside the folder, e.g. sm_90/nvidia-h200/S.json); nullopt where it has none.
  std::optional<std::string> text(const std::filesystem::path& relative) const;
  // Every *.json file of the base's folder, relative to it.
  std::vector<std::filesystem::path> files() const;

  // What happened to the folder itself in this change: each a sentence, and whether it loosens the gate.
  struct FolderChange {
    std::string text;
    bool loosens = false;
  };
  const std::vector<FolderChange>& folder_changes() const { return folder_changes_; }

 private:
  BaseRef base_;
  std::filesystem::path top_;    // the repository's top folder
  std::filesystem::path there_;  // the folder in the base's tree, relative to the top
  std::vector<FolderChange> folder_changes_;
};

}  // namespace bankgate::cli
