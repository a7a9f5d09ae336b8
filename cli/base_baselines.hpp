#pragma once
// The base branch's baselines, from git, so that what a change did to its baselines shows in the verdict
// (gate/include/bankgate/gate/rules/baseline_changes.hpp): the base is --base-ref, else BANKGATE_BASE_REF, else the merge
// base of HEAD with origin/main where the repository has that branch. Git runs as a program (process.hpp).

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace bankgate::cli {

struct BaseRef {
  std::string commit;  // full SHA
  std::string named;   // how messages name it: "origin/main (merge base)", or the ref given
};

// The base of the baselines folder `folder`'s repository; nullopt where none is given and origin/main is not
// there (or the folder is in no repository). Throws Refusal for a given ref that names no commit.
std::optional<BaseRef> find_base(const std::filesystem::path& folder, const std::string& option);

// The base's text of `relative` inside `folder`; nullopt where the base has no such file.
std::optional<std::string> base_text(const std::filesystem::path& folder, const std::string& commit,
                                     const std::filesystem::path& relative);

// Every *.json file of the base below `folder`, relative to it.
std::vector<std::filesystem::path> base_files(const std::filesystem::path& folder, const std::string& commit);

}  // namespace bankgate::cli
