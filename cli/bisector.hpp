#pragma once
// What bisect's two ways share (commands/bisect.cpp by counters, bisect_durations.hpp by durations): its options,
// and the bisector that checks each commit out in a git worktree, builds it under --work as compare-commits does,
// and measures it once.
//
//   <work>/src/<commit>/, <work>/build/<commit>/   as compare-commits keeps them (shared with it by default)
//   <work>/bisect/                                 this run: build logs and each probe's candidates

#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <bankgate/history/store.hpp>

#include "commands.hpp"
#include "source_checkout.hpp"

namespace bankgate::cli {

struct BisectOptions {
  std::string good, bad, filter;
  CommitBuilds builds;  // --source, --work, --build, --cmake-arg
  std::string history;  // --history: where measured commits are taken from and appended to
  // --rounds and --extra-time of the duration comparisons, as compare takes them (where no counter moved).
  CompareOptions rounds;
};

// Every counter a run measured: "Suite.test kernel metric" -> value.
using Counters = std::map<std::string, double>;

struct Bisector {
  const BisectOptions& o;
  Repository repository;
  std::filesystem::path work, run;
  std::vector<std::string> cmake_args;
  int builds = 0;
  // The history, where it can be read: commits this GPU measured before are taken from it (from_the_history).
  std::unique_ptr<history::Store> store;
  std::string gpu_key;  // this runner's GPU, as GOOD's measurement names it
  int from_history = 0;
  // With per-line figures: the confirmation's two measurements, so that their lines compare like with like (a
  // measuring run otherwise attributes lines only where a counter left its baseline).
  bool attribute = false;

  std::filesystem::path logs() const { return run / "build-logs"; }
  // Where the commit is built (by compare-commits too).
  std::filesystem::path build_of(const SourceTree& tree) const { return work / "build" / tree.key; }
  // The commit checked out and built: false where it does not build (run_step has shown the log's end).
  bool built(SourceTree tree, const std::string& side);
  // The commit built (nullopt where it does not build) and measured once.
  std::optional<Counters> measure(const SourceTree& tree, const std::string& side);
  // The commit's counters as this GPU measured them before, where the history has every watched one; no build.
  std::optional<Counters> from_the_history(const SourceTree& tree, const std::vector<std::string>& watched);

 private:
  std::optional<Counters> measure_built(const SourceTree& tree, const std::filesystem::path& build);
};

// The commits after GOOD up to BAD on BAD's first-parent line, oldest first; a Refusal where BAD does not follow
// GOOD.
std::vector<std::string> commits_between(const Repository& repository, const SourceTree& good, const SourceTree& bad);

// "<commit> (<its subject>)", for the line that names the first changed commit.
std::string commit_and_subject(const std::filesystem::path& top, const std::string& commit);

}  // namespace bankgate::cli
