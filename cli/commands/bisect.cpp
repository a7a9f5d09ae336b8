// bisect: the first commit between GOOD and BAD at which a counter changed. Each commit probed is checked out in a
// git worktree and built under --work as compare-commits does, then measured once (bisector.hpp): counters are
// exact, so one run decides. A commit that does not build or measure is skipped, never called bad. Where no
// counter differs between GOOD and BAD, their durations are bisected instead, by compare's rounds
// (bisect_durations.hpp).

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

#include "../bisect_durations.hpp"
#include "../bisector.hpp"
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

void print_change(const fs::path& top, const std::string& first, const Counters& before, const Counters& after,
                  const std::vector<std::string>& watched) {
  std::cout << "bankgate bisect: first changed commit " << commit_and_subject(top, first) << "\n";
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
  b.attribute = true;
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
  if (ends.watched.empty()) return bisect_durations(b, good, bad, commits);
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
  command
      .add_option("good", o->good,
                  "a commit whose counters (or durations) are as they should be (anything git rev-parse takes)")
      ->required();
  command.add_option("bad", o->bad, "a later commit whose counters or durations changed (GOOD must be its ancestor)")
      ->required();
  command.add_option("--filter", o->filter, "GoogleTest-style filter of the tests to measure");
  add_commit_build_options(command, o->builds, "the commits it builds",
                           "shared with compare-commits, and this run's logs in bisect/");
  add_round_options(command, o->rounds, "durations (where no counter differs between GOOD and BAD)");
  add_history_option(command, o->history);
  command.footer(exit_codes_of(
      {exit_code::unreadable,
       {exit_setup, "git failed, or GOOD or BAD could not be built or measured"},
       {exit_inconclusive,
        "the change was found but did not repeat when measured again, or (durations) the rounds could not decide "
        "GOOD against BAD or a commit next to the change"},
       {exit_faster,
        "no counter differs and the bad commit is only faster than the good one: a speed-up, nothing "
        "to bisect"}}));
  return [o] { return bisect_commits(*o); };
}

}  // namespace bankgate::cli
