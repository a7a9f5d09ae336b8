#pragma once
// A project's sources at a given commit, for compare-commits: the git repository around a folder, a revision
// resolved to its commit, and a detached git worktree of that commit (or the working tree as it is). Git runs as
// a program with its arguments passed as they are (process.hpp); nothing goes through a shell.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <bankgate/gate/protocol/settings.hpp>

namespace bankgate::cli {

// The repository a project lies in.
struct Repository {
  std::filesystem::path top;     // the repository's top level (git rev-parse --show-toplevel)
  std::filesystem::path prefix;  // the project's folder inside it ("" at the top level)
};

// The repository around `source` (its top level when `source` is empty: the current folder's). Throws a
// Refusal naming the folder where git is missing or the folder is in no repository.
Repository find_repository(const std::filesystem::path& source);

// One side of a comparison: a commit of the repository, or the working tree as it is.
struct SourceTree {
  std::string revision;           // as given: "origin/main", "HEAD~1", "." (the working tree)
  std::string commit;             // the full SHA; empty for the working tree
  std::string key;                // names its folders: the SHA's first 12 digits, or "working-tree"
  std::filesystem::path project;  // the folder to configure: its checkout, plus the repository's prefix
};

inline constexpr char working_tree_key[] = "working-tree";

// `revision` ("." or anything git rev-parse takes) as a tree of `repository`; its `project` is filled in for
// the working tree only (check_out does it for a commit). Throws a Refusal for a revision that names no commit.
SourceTree resolve_revision(const Repository& repository, const std::string& revision);

// "base 1a2b3c4d5e6f (origin/main)" or "head (the working tree)": a side as messages name it.
std::string describe(const std::string& side, const SourceTree& tree);

// The log of one step of preparing a tree ("checkout", "configure", "build"): `logs`/<key>-<step>.log.
std::filesystem::path step_log(const std::filesystem::path& logs, const SourceTree& tree, const std::string& step);

// Runs one step of preparing the `side` ("base", "head") `tree`, its output going to its step_log. Where it
// fails, shows the log's last lines on standard error and throws a Refusal naming the side, its commit, the
// step and the log.
void run_step(const std::vector<std::string>& argv, const std::string& side, const SourceTree& tree,
              const std::string& step, const std::filesystem::path& logs);

// Checks `tree`'s commit out in a detached worktree `worktrees`/<key> (kept as it is where it already holds that
// commit unchanged), with its submodules; sets `tree.project`. Nothing to do for the working tree.
void check_out(const Repository& repository, SourceTree& tree, const std::string& side,
               const std::filesystem::path& worktrees, const std::filesystem::path& logs);

// The folders compare-commits makes under its --work folder (run/, src/, build/) are its own: each holds a
// marker file written when it was made. `check_own_folder` refuses (Refusal) anything else at `folder`: a
// folder it did not make (a user's own), a symbolic link, a file; nothing is deleted before every folder has
// been checked. `make_own_folder` makes `folder` (emptied first, with `clear`) and marks it.
inline constexpr char own_folder_marker[] = ".bankgate-compare-commits";
void check_own_folder(const std::filesystem::path& folder);
void make_own_folder(const std::filesystem::path& folder, bool clear);

// Where compare-commits and bisect find the project and build its commits: --source, --work, --build and
// --cmake-arg (options.hpp's add_commit_build_options).
struct CommitBuilds {
  std::filesystem::path source;  // the project's folder; empty: the top level of the current folder's repository
  std::filesystem::path work;    // the scratch folder; empty: <source>/build/bankgate-compare
  // The project's own build, whose CMAKE_PREFIX_PATH, bankgate_DIR, CMAKE_CUDA_COMPILER and
  // CMAKE_CUDA_ARCHITECTURES every commit's configure takes; empty: <source>/build where it is configured.
  std::filesystem::path build;
  std::vector<std::string> cmake_args;  // added to every configure after those, e.g. -DCMAKE_CUDA_ARCHITECTURES=90
};

// The place a command builds commits in, made ready: the repository, the scratch folder with its src/ and build/
// (kept for later runs) and this run's folder `run_name` under it (emptied), and the configure arguments: the
// project's build's settings first, so that an explicit --cmake-arg of the same name comes later and wins. Every
// folder it writes is checked to be its own before anything is deleted (--work may name a user's folder).
struct CommitBuildPlace {
  Repository repository;
  std::filesystem::path work, run;
  std::vector<std::string> cmake_args;
};
CommitBuildPlace prepare_commit_builds(const CommitBuilds& o, const std::string& run_name, const std::string& builds);

// Configures `tree` in `build` as a release build with Ninja and `cmake_args`, then builds it, each step logged
// (step_log); a step that fails throws run_step's StepFailure. An existing build of the same commit is configured
// and built again, which redoes only what changed. compare-commits and bisect (`who`, for the progress line) build
// each commit so.
void build_tree(const std::string& who, const SourceTree& tree, const std::string& side,
                const std::filesystem::path& build, const std::vector<std::string>& cmake_args,
                const std::filesystem::path& logs);

// The settings of the project's own build `build` that every commit's build takes, as -D arguments: where packages
// are found (CMAKE_PREFIX_PATH, bankgate_DIR), the CUDA compiler and the GPU architectures. None where `build` is
// no configured build folder, unless it was named (`named`: --build), which is a Refusal then. `builds` names them in
// the progress line ("bankgate compare-commits: both builds").
std::vector<std::string> settings_of_build(const std::filesystem::path& build, bool named, const std::string& builds);

// The commit the project in `source` is at, for the GPU suites to record what they measure: the user's
// BANKGATE_GIT_COMMIT (and BANKGATE_GIT_DIRTY) where given, else git's answer; nullopt where `source` is in no
// git repository or git is missing (the reports then say the commit is unknown).
std::optional<gate::SourceTree> source_commit(const std::filesystem::path& source);

}  // namespace bankgate::cli
