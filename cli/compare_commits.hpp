#pragma once
// compare-commits: `compare` for two commits of the project it runs in, for a pull request's base and head.
// Each commit is checked out in a detached git worktree and built in a folder of its own under the scratch
// folder; the two builds are then compared as `bankgate compare --base BUILD --head BUILD` compares them, on this
// machine. The scratch folder (--work) holds:
//
//   src/<commit>/       a worktree per commit (named by its SHA's first 12 digits), kept for later runs
//   build/<commit>/     its build, kept too; build/working-tree/ is the build of "." (the working tree as it is),
//                       configured with the settings of the project's own build (--build) that say where
//                       packages, the CUDA compiler and the GPU architectures are, and then the --cmake-arg's
//   run/                this run alone: build-logs/<commit>-<step>.log (checkout, submodules, configure, build)
//                       and the comparison's results, copied from the head build: logs/, result.json,
//                       summary.md, report.html, candidates/

#include <filesystem>
#include <string>
#include <vector>

#include "commands.hpp"

namespace bankgate::cli {

struct CompareCommitsOptions {
  std::string base, head;                // anything git rev-parse takes, or "." for the working tree as it is
  std::filesystem::path source;          // the project's folder; empty: the top level of the current folder's repository
  std::filesystem::path work;            // the scratch folder; empty: <source>/build/bankgate-compare
  // The project's own build, whose CMAKE_PREFIX_PATH, bankgate_DIR, CMAKE_CUDA_COMPILER and
  // CMAKE_CUDA_ARCHITECTURES both configures take; empty: <source>/build where it is configured.
  std::filesystem::path build;
  std::vector<std::string> cmake_args;   // added to both configures after those, e.g. -DCMAKE_CUDA_ARCHITECTURES=90
  CompareOptions compare;                // the rounds, the filter and the reports, as compare takes them
};

int compare_commits(const CompareCommitsOptions& options);

}  // namespace bankgate::cli
