#include "source_checkout.hpp"

#include <array>
#include <cstdlib>
#include <deque>
#include <fstream>
#include <iostream>

#include <bankgate/gate/protocol/settings.hpp>

#include "cmake_cache.hpp"
#include "commands.hpp"
#include "console.hpp"
#include "process.hpp"

namespace bankgate::cli {
namespace {

namespace fs = std::filesystem;

// `folder`/`prefix`, the prefix being git's "sub/dir/" or empty, as a folder without a trailing separator.
fs::path inside(const fs::path& folder, const fs::path& prefix) {
  const fs::path joined = (folder / prefix).lexically_normal();
  return joined.has_filename() ? joined : joined.parent_path();
}

// Whether `checkout` is a worktree of its own (a plain folder inside the repository would answer for the
// repository) at `commit`, with nothing changed in it since.
bool holds_commit(const fs::path& checkout, const std::string& commit) {
  std::error_code ec;
  if (!fs::is_directory(checkout / ".git", ec) && !fs::is_regular_file(checkout / ".git", ec)) return false;
  const std::string dir = checkout.string();
  const std::string top = program_output({"git", "-C", dir, "rev-parse", "--show-toplevel"});
  if (top.empty() || !fs::equivalent(top, checkout, ec)) return false;
  return program_output({"git", "-C", dir, "rev-parse", "HEAD"}) == commit &&
         program_output({"git", "-C", dir, "status", "--porcelain"}).empty();
}

// The last lines of `log` on standard error: where a step failed, its errors are what the user must see.
void show_end_of(const fs::path& log) {
  constexpr std::size_t shown = 30;
  std::ifstream in(log);
  std::deque<std::string> last;
  for (std::string line; std::getline(in, line);) {
    last.push_back(line);
    if (last.size() > shown) last.pop_front();
  }
  std::cerr << "--- the end of " << log.string() << " ---\n";
  for (const std::string& line : last) std::cerr << line << "\n";
  std::cerr << "---\n" << std::flush;
}

}  // namespace

Repository find_repository(const fs::path& source) {
  if (program_output({"git", "--version"}).empty())
    throw Refusal("git was not found on PATH: compare-commits checks each commit out in a git worktree; install git");
  const fs::path folder = source.empty() ? fs::current_path() : fs::absolute(source).lexically_normal();
  std::error_code ec;
  if (!fs::is_directory(folder, ec)) throw Refusal("--source " + source.string() + " is not a folder");
  const std::string top = program_output({"git", "-C", folder.string(), "rev-parse", "--show-toplevel"});
  if (top.empty())
    throw Refusal(folder.string() + " is not in a git repository (or git refuses it: `" +
                  as_command_line({"git", "-C", folder.string(), "rev-parse", "--show-toplevel"}) +
                  "` says why); run compare-commits in your project's clone, or name it with --source DIR");
  // The project may be a folder of the repository: each checkout is of the whole repository, configured there.
  const std::string prefix =
      source.empty() ? "" : program_output({"git", "-C", folder.string(), "rev-parse", "--show-prefix"});
  return {top, prefix};
}

SourceTree resolve_revision(const Repository& repository, const std::string& revision) {
  SourceTree tree{revision, "", working_tree_key, {}};
  if (revision == ".") {
    tree.project = inside(repository.top, repository.prefix);
    return tree;
  }
  // A word that git would take for an option is no revision.
  if (revision.empty() || revision.front() == '-')
    throw Refusal(
        "'" + revision +
        "' is not a revision: give a commit, branch or tag as git rev-parse takes them, or . for the working tree");
  tree.commit = program_output(
      {"git", "-C", repository.top.string(), "rev-parse", "--verify", "--quiet", revision + "^{commit}"});
  if (tree.commit.empty())
    throw Refusal(
        "'" + revision + "' names no commit of the repository " + repository.top.string() +
        " (git rev-parse --verify found none): check the name, and fetch it first (a shallow clone may lack it: "
        "clone the whole history, e.g. fetch-depth: 0 in GitHub Actions)");
  tree.key = tree.commit.substr(0, 12);
  return tree;
}

std::string describe(const std::string& side, const SourceTree& tree) {
  if (tree.commit.empty()) return side + " (the working tree)";
  const bool named_by_sha = tree.commit.starts_with(tree.revision);
  return side + " " + tree.key + (named_by_sha ? "" : " (" + tree.revision + ")");
}

fs::path step_log(const fs::path& logs, const SourceTree& tree, const std::string& step) {
  return logs / (tree.key + "-" + step + ".log");
}

void run_step(const std::vector<std::string>& argv, const std::string& side, const SourceTree& tree,
              const std::string& step, const fs::path& logs) {
  const fs::path log = step_log(logs, tree, step);
  fs::create_directories(logs);
  const int status = run_program(argv, log.string());
  if (status == 0) return;
  show_end_of(log);
  throw StepFailure("the " + step + " of the " + describe(side, tree) + " failed (" + as_command_line(argv) +
                    ": exit " + std::to_string(status) + "); its output is in " + log.string());
}

void check_out(const Repository& repository, SourceTree& tree, const std::string& side, const fs::path& worktrees,
               const fs::path& logs) {
  if (tree.commit.empty()) return;
  const fs::path checkout = worktrees / tree.key;
  tree.project = inside(checkout, repository.prefix);
  if (holds_commit(checkout, tree.commit)) return;
  // Anything else in its place (a half-made checkout, another commit, edits) is made again from the commit.
  std::error_code ec;
  fs::remove_all(checkout, ec);
  fs::create_directories(worktrees);
  // --force: the folder may still be registered as a worktree whose files were removed.
  run_step(
      {"git", "-C", repository.top.string(), "worktree", "add", "--detach", "--force", checkout.string(), tree.commit},
      side, tree, "checkout", logs);
  if (fs::exists(checkout / ".gitmodules"))
    run_step({"git", "-C", checkout.string(), "submodule", "update", "--init", "--recursive"}, side, tree, "submodules",
             logs);
}

void check_own_folder(const fs::path& folder) {
  std::error_code ec;
  const fs::file_status status = fs::symlink_status(folder, ec);
  if (!fs::exists(status)) return;  // made when needed
  if (fs::is_directory(status) && fs::is_regular_file(fs::symlink_status(folder / own_folder_marker, ec))) return;
  throw Refusal(
      folder.string() +
      (fs::is_symlink(status)     ? " is a symbolic link"
       : fs::is_directory(status) ? " is a folder"
                                  : " is a file") +
      " that bankgate compare-commits did not make (it holds no " + own_folder_marker +
      " marker), and compare-commits " +
      "writes and clears that place: nothing was deleted; name an empty or new folder with --work DIR, or move " +
      folder.string() + " away");
}

void make_own_folder(const fs::path& folder, bool clear) {
  check_own_folder(folder);
  std::error_code ec;
  if (clear) fs::remove_all(folder, ec);  // only a folder this command made and marked
  fs::create_directories(folder);
  std::ofstream(folder / own_folder_marker) << "made by bankgate compare-commits: it may clear this folder\n";
}

std::optional<gate::SourceTree> source_commit(const fs::path& source) {
  if (const gate::SourceTree given = gate::source_tree(gate::process_environment); given.commit != "unknown")
    return given;
  if (source.empty()) return std::nullopt;
  const std::string commit = program_output({"git", "-C", source.string(), "rev-parse", "--verify", "--quiet", "HEAD"});
  if (commit.empty()) return std::nullopt;
  // Tracked files only: build folders and editor files inside the tree do not make the measured code differ.
  const std::string changes =
      program_output({"git", "-C", source.string(), "status", "--porcelain", "--untracked-files=no"});
  return gate::SourceTree{commit, !changes.empty()};
}

void build_tree(const std::string& who, const SourceTree& tree, const std::string& side, const fs::path& build,
                const std::vector<std::string>& cmake_args, const fs::path& logs) {
  std::vector<std::string> configure{"cmake", "-S",    tree.project.string(),       "-B", build.string(),
                                     "-G",    "Ninja", "-DCMAKE_BUILD_TYPE=Release"};
  configure.insert(configure.end(), cmake_args.begin(), cmake_args.end());
  progress("bankgate " + who + ": building the " + describe(side, tree) + " from " + tree.project.string() + " in " +
           build.string() + " (output: " + step_log(logs, tree, "build").string() + ")");
  run_step(configure, side, tree, "configure", logs);
  run_step({build_tool(build, "cmake"), "--build", build.string()}, side, tree, "build", logs);
}

// What every commit's build takes from the project's own build, so that they configure as it did: where packages
// are found (a project on the package route finds bankgate there), the CUDA compiler and the GPU architectures.
constexpr std::array<const char*, 4> shared_settings{"CMAKE_PREFIX_PATH", "bankgate_DIR", "CMAKE_CUDA_COMPILER",
                                                     "CMAKE_CUDA_ARCHITECTURES"};

std::vector<std::string> settings_of_build(const fs::path& build, bool named, const std::string& builds) {
  const CMakeCache cache = CMakeCache::of_build(build);
  if (cache.empty()) {
    if (named)
      throw Refusal(build.string() +
                    " is not a configured build folder (it holds no CMakeCache.txt): give the project's "
                    "own build folder with --build, or leave --build out");
    return {};
  }
  std::vector<std::string> arguments;
  std::string names;
  for (const char* key : shared_settings) {
    if (const auto value = cache.found_value(key)) {
      arguments.push_back("-D" + std::string(key) + "=" + *value);
      names += (names.empty() ? "" : ", ") + std::string(key);
    }
  }
  if (!names.empty()) progress(builds + " take " + names + " from the build folder " + build.string());
  return arguments;
}

CommitBuildPlace prepare_commit_builds(const CommitBuilds& o, const std::string& run_name, const std::string& builds) {
  CommitBuildPlace place{find_repository(o.source), {}, {}, {}};
  const fs::path top = place.repository.top / place.repository.prefix;
  place.work = fs::absolute(o.work.empty() ? top / "build" / "bankgate-compare" : o.work).lexically_normal();
  place.run = place.work / run_name;
  for (const fs::path& own : {place.run, place.work / "src", place.work / "build"}) check_own_folder(own);
  make_own_folder(place.run, /*clear=*/true);  // nothing an earlier run left may pass for this one's
  make_own_folder(place.work / "src", false);
  make_own_folder(place.work / "build", false);
  place.cmake_args =
      settings_of_build(fs::absolute(o.build.empty() ? top / "build" : o.build), !o.build.empty(), builds);
  place.cmake_args.insert(place.cmake_args.end(), o.cmake_args.begin(), o.cmake_args.end());
  return place;
}

}  // namespace bankgate::cli
