// bisect: the first commit between GOOD and BAD at which a counter changed. Each commit probed is checked out in a
// git worktree and built under --work as compare-commits does, then measured once: counters are exact, so one
// run decides. A commit that does not build or measure is skipped, never called bad. Durations are not bisected:
// where no counter differs between GOOD and BAD, it says so and stops.
//
//   <work>/src/<commit>/, <work>/build/<commit>/   as compare-commits keeps them (shared with it by default)
//   <work>/bisect/                                 this run: build logs and each probe's candidates

#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <tuple>

#include <bankgate/gate/protocol/run_protocol.hpp>
#include <bankgate/gate/text/number_format.hpp>
#include <bankgate/gate/text/text.hpp>
#include <bankgate/history/bisection.hpp>
#include <bankgate/history/collect.hpp>
#include <bankgate/history/store.hpp>

#include "../changed_lines.hpp"
#include "../commands.hpp"
#include "../console.hpp"
#include "../history_append.hpp"
#include "../options.hpp"
#include "../process.hpp"
#include "../source_checkout.hpp"
#include "../subcommand_table.hpp"
#include "../suite_run.hpp"

namespace bankgate::cli {
namespace {

namespace fs = std::filesystem;
namespace g = bankgate::gate;
namespace h = bankgate::history;

struct BisectOptions {
  std::string good, bad, filter;
  CommitBuilds builds;  // --source, --work, --build, --cmake-arg
  std::string history;  // --history: where measured commits are taken from and appended to
};

// Every counter a run measured: "Suite.test kernel metric" -> value.
using Counters = std::map<std::string, double>;

struct Bisector {
  const BisectOptions& o;
  Repository repository;
  fs::path work, run;
  std::vector<std::string> cmake_args;
  int builds = 0;
  // The history, where it can be read: commits this GPU measured before are taken from it (from_the_history).
  std::unique_ptr<h::Store> store;
  std::string gpu_key;  // this runner's GPU, as GOOD's measurement names it
  int from_history = 0;

  fs::path logs() const { return run / "build-logs"; }

  // The commit built (nullopt where it does not build) and measured once.
  std::optional<Counters> measure(SourceTree tree, const std::string& side) {
    const fs::path build = work / "build" / tree.key;
    try {
      check_out(repository, tree, side, work / "src", logs());
      ++builds;
      build_tree("bisect", tree, side, build, cmake_args, logs());
    } catch (const StepFailure&) {  // run_step has shown the log's end and named it
      return std::nullopt;
    }
    return measure_built(tree, build);
  }

  // The commit's counters as this GPU measured them before, where the history has every watched one; no build.
  std::optional<Counters> from_the_history(const SourceTree& tree, const std::vector<std::string>& watched) {
    if (!store || gpu_key.empty()) return std::nullopt;
    Counters kept = store->counters_at(tree.commit, gpu_key);
    for (const std::string& key : watched)
      if (!kept.contains(key)) return std::nullopt;
    ++from_history;
    progress("bankgate bisect: " + tree.key + " taken from the history (measured on " + gpu_key + " before)");
    return kept;
  }

  std::optional<Counters> measure_built(const SourceTree& tree, const fs::path& build) {
    const fs::path candidates = run / "candidates" / tree.key;
    std::error_code ec;
    fs::remove_all(candidates, ec);
    SuiteRun suites;
    suites.filter = o.filter;
    run_ctest(suites, build, candidates, run / (tree.key + "-ctest.xml"), false,
              (run / (tree.key + "-ctest.log")).string());
    append_to_history(o.history, {"bisect", build, candidates, {}});
    if (gpu_key.empty()) {
      h::RunInfo info;
      h::fill_from_candidates(info, candidates);
      gpu_key = info.runner.gpu_key;
    }
    Counters counters;
    for (const h::TestEntry& t : h::collect_tests(candidates, {}))
      for (const h::KernelEntry& k : t.kernels)
        for (const auto& [metric, value] : k.counters) counters[t.test + " " + k.kernel + " " + metric] = value;
    if (counters.empty()) return std::nullopt;
    return counters;
  }
};

// The history store `option` names (as the appending commands find it from `build`), where there is one to read;
// nothing where there is none or it cannot be read, which only costs builds (said).
std::unique_ptr<h::Store> readable_history(const std::string& option, const fs::path& build) {
  try {
    const std::string location = history_location(option, build);
    std::error_code ec;
    if (location.empty() || (!h::is_server_url(location) && !fs::exists(location, ec))) return nullptr;
    return h::open_store(location);
  } catch (const std::exception& e) {
    std::cerr << "bankgate bisect: the history is not used (" << g::terminal_safe(e.what())
              << "); every commit probed is built\n";
    return nullptr;
  }
}

// The counters GOOD and BAD both measured and that differ between them.
std::vector<std::string> differing(const Counters& good, const Counters& bad) {
  std::vector<std::string> out;
  for (const auto& [key, value] : good)
    if (const auto it = bad.find(key); it != bad.end() && it->second != value) out.push_back(key);
  return out;
}

h::Probe judge(const std::optional<Counters>& measured, const Counters& good, const std::vector<std::string>& watched) {
  if (!measured) return h::Probe::skipped;
  bool any = false;
  for (const std::string& key : watched) {
    const auto it = measured->find(key);
    if (it == measured->end()) continue;
    any = true;
    if (it->second != good.at(key)) return h::Probe::bad;
  }
  return any ? h::Probe::good : h::Probe::skipped;
}

std::vector<std::string> commits_between(const Repository& repository, const SourceTree& good, const SourceTree& bad) {
  const std::string listing = program_output({"git", "-C", repository.top.string(), "rev-list", "--reverse",
                                              "--first-parent", good.commit + ".." + bad.commit});
  std::vector<std::string> commits;
  for (std::size_t at = 0; at < listing.size();) {
    const std::size_t end = std::min(listing.find('\n', at), listing.size());
    commits.push_back(listing.substr(at, end - at));
    at = end + 1;
  }
  if (commits.empty() || commits.back() != bad.commit)
    throw Refusal("the bad commit " + bad.key + " does not follow the good one " + good.key +
                  " on its first-parent line (git rev-list " + good.key + ".." + bad.key +
                  "): give GOOD as an ancestor of BAD");
  return commits;
}

void print_change(const fs::path& top, const std::string& first, const Counters& before, const Counters& after,
                  const std::vector<std::string>& watched) {
  std::cout << "bankgate bisect: first changed commit " << g::terminal_line(first) << " ("
            << g::terminal_line(program_output({"git", "-C", top.string(), "log", "-1", "--format=%s", first}))
            << ")\n";
  for (const std::string& key : watched) {
    const auto b = before.find(key), a = after.find(key);
    if (b == before.end() || a == after.end() || b->second == a->second) continue;
    std::cout << "  " << g::terminal_line(key) << ": " << g::format_number(b->second) << " -> "
              << g::format_number(a->second) << "\n";
  }
}

// GOOD and BAD checked out, built and measured, and what differs between them. A refusal where either cannot be
// built or measured: without both ends there is nothing to bisect.
struct Ends {
  Counters good, bad;
  std::vector<std::string> watched;
};
Ends measure_ends(Bisector& b, const SourceTree& good, const SourceTree& bad) {
  Ends ends;
  for (auto [tree, side, counters] : {std::tuple{&good, "good", &ends.good}, std::tuple{&bad, "bad", &ends.bad}}) {
    const std::optional<Counters> measured = b.measure(*tree, side);
    if (!measured)
      throw StepFailure("the " + describe(side, *tree) + " could not be built or measured (logs in " + b.run.string() +
                        "): nothing to bisect against");
    *counters = *measured;
  }
  ends.watched = differing(ends.good, ends.bad);
  return ends;
}

// The first bad commit and its last good one measured again (built where they were taken from the history): the
// change must be there again.
bool confirmed(Bisector& b, const SourceTree& before, const SourceTree& after, const Ends& ends) {
  const std::optional<Counters> again_before = b.measure(before, "last unchanged");
  const std::optional<Counters> again_after = b.measure(after, "first changed");
  return judge(again_before, ends.good, ends.watched) == h::Probe::good &&
         judge(again_after, ends.good, ends.watched) == h::Probe::bad;
}

using Seen = std::map<std::size_t, std::pair<SourceTree, Counters>>;

// The first changed commit (or the range skipped commits leave), what changed there, the builds it took, and the
// change measured again at it and its parent.
int report(Bisector& b, const h::Bisection& found, const Seen& seen, const SourceTree& good, const Ends& ends,
           const std::vector<std::string>& commits, const fs::path& top) {
  const SourceTree& after = seen.at(found.first_bad).first;
  const SourceTree& before = found.last_good ? seen.at(*found.last_good).first : good;
  const Counters& before_counters = found.last_good ? seen.at(*found.last_good).second : ends.good;
  print_change(top, after.commit, before_counters, seen.at(found.first_bad).second, ends.watched);
  if (!found.exact())
    std::cout << "bankgate bisect: the commits between " << before.key << " and " << after.key
              << " could not be built or measured: the change is one of them or " << after.key << "\n";
  std::cout << "bankgate bisect: " << b.builds << " build(s): good, bad and " << found.probes - b.from_history
            << " of the " << commits.size() - 1 << " commits between (" << found.skipped.size() << " skipped, "
            << b.from_history << " taken from the history); logs in " << g::terminal_line(b.run.string()) << "\n";
  if (!confirmed(b, before, after, ends)) {
    std::cout << "bankgate bisect: NOT confirmed: measured again, " << before.key << " and " << after.key
              << " did not repeat their counters (a counter that is no property of the code?)\n";
    return exit_inconclusive;
  }
  std::cout << "bankgate bisect: confirmed: measured again, " << before.key << " unchanged and " << after.key
            << " changed; the lines whose figures changed:\n";
  print_changed_lines(b.run / "candidates" / before.key, b.run / "candidates" / after.key, ends.watched, std::cout);
  return exit_ok;
}

int bisect_commits(const BisectOptions& o) {
  const Repository repository = find_repository(o.builds.source);
  const SourceTree good = resolve_revision(repository, o.good), bad = resolve_revision(repository, o.bad);
  if (good.commit.empty() || bad.commit.empty())
    throw Refusal("bisect takes two commits; the working tree (.) is none: commit it first");
  const CommitBuildPlace place = prepare_commit_builds(o.builds, "bisect", "bankgate bisect: the builds");
  Bisector b{o, place.repository, place.work, place.run, place.cmake_args, 0};
  const fs::path top = b.repository.top / b.repository.prefix;
  const std::vector<std::string> commits = commits_between(b.repository, good, bad);
  const Ends ends = measure_ends(b, good, bad);
  b.store = readable_history(o.history, b.work / "build" / good.key);
  if (ends.watched.empty()) {
    std::cout << "bankgate bisect: no counter differs between the " << g::terminal_line(describe("good", good))
              << " and the " << g::terminal_line(describe("bad", bad))
              << ": nothing to bisect by counters (durations are not bisected: compare-commits judges them)\n";
    return exit_ok;
  }
  std::map<std::size_t, std::pair<SourceTree, Counters>> seen{{commits.size() - 1, {bad, ends.bad}}};
  const h::Bisection found = h::bisect(commits.size(), [&](std::size_t i) {
    const SourceTree tree = resolve_revision(b.repository, commits[i]);
    std::optional<Counters> measured = b.from_the_history(tree, ends.watched);
    if (!measured) measured = b.measure(tree, "commit " + std::to_string(i + 1));
    const h::Probe probe = judge(measured, ends.good, ends.watched);
    if (measured) seen.emplace(i, std::pair{tree, *measured});
    progress("bankgate bisect: " + tree.key + " is " +
             (probe == h::Probe::bad    ? "changed"
              : probe == h::Probe::good ? "unchanged"
                                        : "skipped (not measured)"));
    return probe;
  });
  return report(b, found, seen, good, ends, commits, top);
}

}  // namespace

Runner define_bisect(CLI::App& command) {
  const auto o = std::make_shared<BisectOptions>();
  command.add_option("good", o->good, "a commit whose counters are as they should be (anything git rev-parse takes)")
      ->required();
  command.add_option("bad", o->bad, "a later commit whose counters changed (GOOD must be its ancestor)")->required();
  command.add_option("--filter", o->filter, "GoogleTest-style filter of the tests to measure");
  add_commit_build_options(command, o->builds, "the commits it builds",
                           "shared with compare-commits, and this run's logs in bisect/");
  add_history_option(command, o->history);
  command.footer(exit_codes_of({exit_code::unreadable,
                                {exit_setup, "git failed, or GOOD or BAD could not be built or measured"},
                                {exit_inconclusive, "the change was found but did not repeat when measured again"}}));
  return [o] { return bisect_commits(*o); };
}

}  // namespace bankgate::cli
