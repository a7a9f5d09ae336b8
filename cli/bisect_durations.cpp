// bisect by durations (bisect_durations.hpp): where no counter moved between GOOD and BAD, their durations are compared as
// compare compares two builds, in alternating rounds whose samples grow (extra rounds for the tests still
// undecided), and each commit probed is compared with GOOD the same way. Durations are never taken from the
// history: a duration measured on another day is no evidence against GOOD measured today. A comparison that stays
// INCONCLUSIVE calls the commit neither good nor bad: the bisection goes round it like a commit that does not build,
// and where it is next to the change the answer is a range, and INCONCLUSIVE. A bad commit that is only faster is
// a speed-up, said with its own exit code: there is no regression to bisect.

#include <iostream>
#include <set>

#include <nlohmann/json.hpp>

#include <bankgate/gate/protocol/run_protocol.hpp>
#include <bankgate/gate/rules/extra_rounds.hpp>
#include <bankgate/gate/rules/process_spread.hpp>
#include <bankgate/gate/store/input_file.hpp>
#include <bankgate/gate/text/text.hpp>
#include <bankgate/history/bisection.hpp>

#include "bisect_durations.hpp"
#include "bisector.hpp"
#include "console.hpp"

namespace bankgate::cli {
namespace {

namespace fs = std::filesystem;
namespace g = bankgate::gate;
namespace h = bankgate::history;
namespace protocol = bankgate::gate::protocol;
using nlohmann::json;

// compare's verdict on the build `head` against the build `base`: exit_ok, exit_regression, exit_inconclusive, or
// exit_not_measured where it could not compare (said).
int compare_builds(const Bisector& b, const fs::path& base, const fs::path& head, const std::string& filter) {
  CompareOptions c = b.o.rounds;
  c.base = base;
  c.head = head;
  c.filter = filter;
  c.history = b.o.history;
  try {
    return compare(c);
  } catch (const std::exception& e) {
    std::cerr << "bankgate bisect: " << g::terminal_line(head.string()) << " could not be compared with "
              << g::terminal_line(base.string()) << ": " << g::terminal_safe(e.what()) << "\n";
    return exit_not_measured;
  }
}

// The durations compare found `verdict` (slower or faster) in the head build's last comparison (its result.json):
// test -> finding.
std::map<std::string, json> durations_found(const fs::path& head_build, g::Verdict verdict) {
  const fs::path file = protocol::compare_result(protocol::compare_run(head_build));
  const json result = g::parse_input_json(g::read_input_file(file), file.string());
  std::map<std::string, json> found;
  for (const json& test : result.at("tests"))
    for (const json& finding : test.at("findings"))
      if (finding.at("timing").get<bool>() && finding.at("verdict") == g::verdict_id(verdict))
        found[test.at("name").get<std::string>()] = finding;
  return found;
}

std::map<std::string, json> slower_durations(const fs::path& head_build) {
  return durations_found(head_build, g::Verdict::slower);
}

void print_durations(const std::map<std::string, json>& found) {
  for (const auto& [test, f] : found)
    std::cout << "  " << g::terminal_line(test) << ": " << g::terminal_line(f.at("metric").get<std::string>()) << " "
              << g::duration_text(f.at("baseline").get<double>()) << " -> "
              << g::duration_text(f.at("measured").get<double>()) << " ("
              << g::terminal_line(f.value("detail", std::string())) << ")\n";
}

// "A, B, C": the tests' names, for one line of the console.
std::string names_of(const std::map<std::string, json>& found) {
  std::string names;
  for (const auto& [test, finding] : found) names += (names.empty() ? "" : ", ") + test;
  return g::terminal_line(names);
}

// GOOD and BAD compared with no duration slower at BAD (compare's `verdict`: it passes a faster duration, and fails
// one only under BANKGATE_FAIL_ON_SPEEDUP). Where some test is faster at BAD, BAD is a speed-up, which is no
// regression to bisect: said apart from "nothing differs", with its own exit code, so that a script that asked for
// the commit that made something slower does not take a speed-up for "unchanged".
int no_slower_duration(const Bisector& b, const std::string& ends, const SourceTree& bad, int verdict) {
  const std::map<std::string, json> faster = durations_found(b.build_of(bad), g::Verdict::faster);
  if (!faster.empty()) {
    std::cout << "bankgate bisect: the bad commit is FASTER than the good one on " << names_of(faster)
              << ", and slower on none: a speed-up, nothing to bisect for a regression (exit " << exit_faster << "):\n";
    print_durations(faster);
    return exit_faster;
  }
  if (verdict == exit_ok) {
    std::cout << "bankgate bisect: no counter and no duration differs between " << ends << ": nothing to bisect\n";
    return exit_ok;
  }
  std::cout << "bankgate bisect: the bad commit fails against the good one, but no duration is slower (its output "
               "differs?): nothing to bisect by durations\n";
  return exit_inconclusive;
}

struct Search {
  h::Bisection found;
  std::set<std::size_t> undecided;  // commits whose comparison stayed INCONCLUSIVE
  std::string filter;               // the tests slower at BAD
};

// Each commit probed built and compared with GOOD on the tests slower at BAD.
Search search(Bisector& b, const SourceTree& good, const std::vector<std::string>& commits, std::string filter) {
  Search s{{}, {}, std::move(filter)};
  s.found = h::bisect(commits.size(), [&](std::size_t i) {
    const SourceTree tree = resolve_revision(b.repository, commits[i]);
    if (!b.built(tree, "commit " + std::to_string(i + 1))) {
      progress("bankgate bisect: " + tree.key + " is skipped (not built)");
      return h::Probe::skipped;
    }
    const int verdict = compare_builds(b, b.build_of(good), b.build_of(tree), s.filter);
    if (verdict == exit_inconclusive) s.undecided.insert(i);
    progress("bankgate bisect: " + tree.key + " is " +
             (verdict == exit_regression     ? "slower"
              : verdict == exit_ok           ? "unchanged"
              : verdict == exit_inconclusive ? "INCONCLUSIVE (its rounds could not tell it from either side)"
                                             : "skipped (not compared)"));
    return verdict == exit_regression ? h::Probe::bad : verdict == exit_ok ? h::Probe::good : h::Probe::skipped;
  });
  return s;
}

// The first slower commit (or the range that commits not built or not decided leave), the builds it took, and
// the change compared again at it and its parent.
int report(Bisector& b, const Search& s, const SourceTree& good, const std::vector<std::string>& commits) {
  const SourceTree after = resolve_revision(b.repository, commits[s.found.first_bad]);
  const SourceTree before = s.found.last_good ? resolve_revision(b.repository, commits[*s.found.last_good]) : good;
  std::cout << "bankgate bisect: first slower commit "
            << commit_and_subject(b.repository.top / b.repository.prefix, after.commit) << "\n";
  bool undecided_between = false;
  for (const std::size_t i : s.undecided)
    undecided_between = undecided_between || ((!s.found.last_good || i > *s.found.last_good) && i < s.found.first_bad);
  if (!s.found.exact())
    std::cout << "bankgate bisect: " << (undecided_between ? "INCONCLUSIVE: " : "") << "the commits between "
              << before.key << " and " << after.key
              << " could not be built or told from either side by their rounds: the change is one of them or "
              << after.key << "\n";
  std::cout << "bankgate bisect: " << b.builds << " build(s): good, bad and " << s.found.probes << " of the "
            << commits.size() - 1 << " commits between (" << s.found.skipped.size() << " skipped, "
            << s.undecided.size() << " of them INCONCLUSIVE); logs in " << g::terminal_line(b.run.string()) << "\n";
  if (compare_builds(b, b.build_of(before), b.build_of(after), s.filter) != exit_regression) {
    std::cout << "bankgate bisect: NOT confirmed: compared again, " << after.key << " is not slower than " << before.key
              << "\n";
    return exit_inconclusive;
  }
  std::cout << "bankgate bisect: confirmed: compared again, " << after.key << " is slower than " << before.key << ":\n";
  print_durations(slower_durations(b.build_of(after)));
  return undecided_between ? exit_inconclusive : exit_ok;
}

}  // namespace

int bisect_durations(Bisector& b, const SourceTree& good, const SourceTree& bad,
                     const std::vector<std::string>& commits) {
  const std::string ends = g::terminal_line("the " + describe("good", good) + " and the " + describe("bad", bad));
  std::cout << "bankgate bisect: no counter differs between " << ends
            << ": their durations are compared in alternating rounds, as compare does\n";
  const int verdict = compare_builds(b, b.build_of(good), b.build_of(bad), b.o.filter);
  if (verdict == exit_inconclusive) {
    std::cout << "bankgate bisect: INCONCLUSIVE: the rounds could not tell the durations of " << ends
              << " apart, nor call them the same: nothing to bisect (more --rounds or --extra-time, or a quieter "
                 "runner)\n";
    return exit_inconclusive;
  }
  if (verdict != exit_ok && verdict != exit_regression)
    throw StepFailure("the durations of " + ends + " could not be compared");
  const std::map<std::string, json> slower = slower_durations(b.build_of(bad));
  if (slower.empty()) return no_slower_duration(b, ends, bad, verdict);
  std::vector<std::string> tests;
  for (const auto& [test, finding] : slower) tests.push_back(test);
  std::cout << "bankgate bisect: slower at the bad commit: " << names_of(slower)
            << "; each commit probed is compared with the good one on them\n";
  return report(b, search(b, good, commits, g::filter_naming(tests)), good, commits);
}

}  // namespace bankgate::cli
