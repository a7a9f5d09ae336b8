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

#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <bankgate/gate/protocol/run_protocol.hpp>
#include <bankgate/gate/text/text.hpp>

#include "../cmake_cache.hpp"
#include "../commands.hpp"
#include "../console.hpp"
#include "../options.hpp"
#include "../process.hpp"
#include "../source_checkout.hpp"
#include "../subcommand_table.hpp"

namespace bankgate::cli {
namespace {

namespace fs = std::filesystem;
namespace protocol = bankgate::gate::protocol;

struct CompareCommitsOptions {
  std::string base, head;  // anything git rev-parse takes, or "." for the working tree as it is
  CommitBuilds builds;     // --source, --work, --build, --cmake-arg
  CompareOptions compare;  // the rounds, the filter and the reports, as compare takes them
};

// The ctest entries of `build` labelled gpu (ctest's JSON listing); 0 where it lists none or cannot be read.
std::size_t gpu_tests(const fs::path& build) {
  const std::string listing =
      program_output({build_tool(build, "ctest"), "--test-dir", build.string(), "-L", "^gpu$", "--show-only=json-v1"});
  const nlohmann::json doc = nlohmann::json::parse(listing, nullptr, /*allow_exceptions=*/false);
  if (!doc.is_object() || !doc.contains("tests") || !doc["tests"].is_array()) return 0;
  return doc["tests"].size();
}

// The comparison's results in run/, one place for CI to keep whatever the commits are.
void keep_results(const fs::path& head_build, const fs::path& run) {
  std::error_code ec;
  fs::copy(protocol::compare_run(head_build), run, fs::copy_options::recursive | fs::copy_options::overwrite_existing,
           ec);
  if (ec)
    std::cerr << "bankgate: the comparison's results were not copied to " << gate::terminal_line(run.string()) << ": "
              << ec.message() << "\n";
}

// A side as the reports' headings name it: its commit only (a branch name could hold markdown or HTML).
std::string side_in_reports(const std::string& side, const SourceTree& tree) {
  return side + " " + (tree.commit.empty() ? "(the working tree)" : tree.key);
}

void print_verdict(int status, const SourceTree& base, const SourceTree& head, const fs::path& run) {
  const gate::Palette& palette = console().palette;
  const std::string sides =
      gate::terminal_line("the " + describe("head", head) + " against the " + describe("base", base));
  std::cout << "bankgate compare-commits: ";
  if (status == exit_ok)
    std::cout << palette.paint("PASSED", gate::Tone::good) << ": " << sides << ", no regression";
  else if (status == exit_regression)
    std::cout << palette.paint("FAILED", gate::Tone::bad) << ": " << sides << ", a regression (rows above)";
  else if (status == exit_inconclusive)
    std::cout << palette.paint("INCONCLUSIVE", gate::Tone::doubtful) << ": " << sides
              << ", no regression found but too noisy to decide";
  else
    std::cout << palette.paint("FAILED", gate::Tone::bad) << ": " << sides << ", could not compare";
  std::cout << "; results in " << gate::terminal_line(run.string()) << "\n";
}

int compare_commits(const CompareCommitsOptions& o) {
  const Repository repository = find_repository(o.builds.source);
  SourceTree base = resolve_revision(repository, o.base);
  SourceTree head = resolve_revision(repository, o.head);
  const CommitBuildPlace place = prepare_commit_builds(o.builds, "run", "bankgate compare-commits: both builds");
  const fs::path& work = place.work;
  const fs::path run = place.run, logs = run / "build-logs";
  fs::create_directories(logs);
  progress("bankgate compare-commits: the " + describe("head", head) + " against the " + describe("base", base) + ", " +
           std::to_string(o.compare.rounds) + " round(s) each; worktrees and builds in " + work.string());
  check_out(repository, base, "base", work / "src", logs);
  check_out(repository, head, "head", work / "src", logs);
  const fs::path base_build = work / "build" / base.key, head_build = work / "build" / head.key;
  const std::vector<std::string>& cmake_args = place.cmake_args;
  build_tree("compare-commits", base, "base", base_build, cmake_args, logs);
  if (head.key != base.key)
    build_tree("compare-commits", head, "head", head_build, cmake_args, logs);  // one commit is built once
  if (gpu_tests(head_build) == 0)
    throw Refusal(
        "the " + describe("head", head) + " has no GPU suites: ctest lists no test labelled gpu in " +
        head_build.string() +
        "; gate kernels with bankgate_add_gpu_suite() (docs/adopting.md), or check that this is the commit meant");
  CompareOptions c = o.compare;
  c.base = base_build;
  c.head = head_build;
  c.sides = side_in_reports("head", head) + " against " + side_in_reports("base", base);
  int status = exit_not_measured;
  try {
    status = compare(c);
  } catch (...) {
    keep_results(head_build, run);  // the round logs say why nothing was measured
    throw;
  }
  keep_results(head_build, run);
  print_verdict(status, base, head, run);
  return status;
}

}  // namespace

Runner define_compare_commits(CLI::App& command) {
  const auto o = std::make_shared<CompareCommitsOptions>();
  command.add_option("base", o->base, "the base commit (anything git rev-parse takes), or . for the working tree")
      ->required();
  command.add_option("head", o->head, "the head commit, or . for the working tree as it is")->required();
  add_commit_build_options(command, o->builds, "both commits", "and this run's logs and results in run/");
  add_comparison_options(command, o->compare, "default: <work>/run/report.html");
  command.footer(
      exit_codes_of({exit_code::regression,
                     exit_code::unreadable,
                     {exit_setup, "git, a checkout, a configure or a build failed, or the head has no GPU suites"},
                     exit_code::inconclusive}));
  return [o] { return compare_commits(*o); };
}

}  // namespace bankgate::cli
