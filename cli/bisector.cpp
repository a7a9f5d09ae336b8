// Building and measuring the commits bisect probes (bisector.hpp).

#include "bisector.hpp"

#include <bankgate/gate/text/text.hpp>
#include <bankgate/history/collect.hpp>

#include "console.hpp"
#include "history_append.hpp"
#include "process.hpp"
#include "suite_run.hpp"

namespace bankgate::cli {

namespace fs = std::filesystem;
namespace h = bankgate::history;

bool Bisector::built(SourceTree tree, const std::string& side) {
  try {
    check_out(repository, tree, side, work / "src", logs());
    ++builds;
    build_tree("bisect", tree, side, build_of(tree), cmake_args, logs());
    return true;
  } catch (const StepFailure&) {  // run_step has shown the log's end and named it
    return false;
  }
}

std::optional<Counters> Bisector::measure(const SourceTree& tree, const std::string& side) {
  if (!built(tree, side)) return std::nullopt;
  return measure_built(tree, build_of(tree));
}

std::optional<Counters> Bisector::from_the_history(const SourceTree& tree, const std::vector<std::string>& watched) {
  if (!store || gpu_key.empty()) return std::nullopt;
  Counters kept = store->counters_at(tree.commit, gpu_key);
  for (const std::string& key : watched)
    if (!kept.contains(key)) return std::nullopt;
  ++from_history;
  progress("bankgate bisect: " + tree.key + " taken from the history (measured on " + gpu_key + " before)");
  return kept;
}

std::optional<Counters> Bisector::measure_built(const SourceTree& tree, const fs::path& build) {
  const fs::path candidates = run / "candidates" / tree.key;
  std::error_code ec;
  fs::remove_all(candidates, ec);
  SuiteRun suites;
  suites.filter = o.filter;
  run_ctest(suites, build, candidates, run / (tree.key + "-ctest.xml"), false,
            (run / (tree.key + "-ctest.log")).string(), attribute);
  append_to_history(o.history, {"bisect", build, candidates, {}, {}});
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

std::string commit_and_subject(const fs::path& top, const std::string& commit) {
  return gate::terminal_line(commit) + " (" +
         gate::terminal_line(program_output({"git", "-C", top.string(), "log", "-1", "--format=%s", commit})) + ")";
}

}  // namespace bankgate::cli
