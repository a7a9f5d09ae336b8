// promote: write reviewed candidates into the baselines, one locked transaction per baselines folder. A function
// of its options and the stream its console output goes to (commands.hpp): refresh and compare call it too, compare
// with that output going to a log.

#include <iostream>
#include <memory>

#include <bankgate/gate/rules/baseline_json.hpp>
#include <bankgate/gate/store/baseline_folder.hpp>
#include <bankgate/gate/reports/console_tables.hpp>
#include <bankgate/gate/rules/baseline_review.hpp>
#include <bankgate/gate/store/baseline_transaction.hpp>
#include <bankgate/gate/store/candidates.hpp>
#include <bankgate/gate/rules/run_provenance.hpp>
#include <bankgate/gate/protocol/settings.hpp>
#include <bankgate/gate/rules/test_filter.hpp>
#include <bankgate/gate/text/text.hpp>

#include "../baseline_reading.hpp"
#include "../commands.hpp"
#include "../console.hpp"
#include "../options.hpp"
#include "../subcommand_table.hpp"

namespace bankgate::cli {
namespace {

namespace fs = std::filesystem;
namespace g = bankgate::gate;

// The baselines folders a promotion writes, each with its suites, keyed by the folder's resolved path (one
// folder however its path is spelt).
struct Destination {
  fs::path root;
  std::vector<std::string> suites;
};
std::map<fs::path, Destination> destinations(const PromoteOptions& o,
                                             const std::map<std::string, g::SuiteFile>& candidates,
                                             const g::GpuKey& gpu) {
  const fs::path project = configured_source_dir(o.build);
  std::map<fs::path, Destination> folders;
  for (const auto& [suite, candidate] : candidates) {
    const fs::path root = destination(o.baselines, candidate, project);
    std::error_code ec;
    if (!fs::is_directory(root / gpu.relative_dir(), ec) && !o.new_gpu)
      throw Refusal("no baselines for " + gpu.arch + "/" + gpu.model + " in " + root.string() +
                    "; this is a GPU without baselines: pass --new-gpu to create them");
    Destination& d = folders[fs::weakly_canonical(fs::absolute(root))];
    d.root = root;
    d.suites.push_back(suite);
  }
  return folders;
}

// What a promotion writes: the tests the filter selects whose output matched the CPU reference, per suite.
struct Selection {
  std::map<std::string, g::SuiteFile> suites;
  std::vector<std::string> wrong_output;
};
Selection select_candidates(const std::map<std::string, g::SuiteFile>& candidates,
                            const std::map<std::string, g::SuiteFile>& baselines, const PromoteOptions& o) {
  Selection chosen;
  for (const auto& [suite, candidate] : candidates) {
    g::SuiteFile tests = candidate;
    tests.tests.clear();
    for (const auto& [test, record] : candidate.tests) {
      if (!g::matches_filter(suite + "." + test, o.filter)) continue;
      if (record.correct)
        tests.tests[test] = record;
      else
        chosen.wrong_output.push_back(suite + "." + test);
    }
    if (const auto b = baselines.find(suite);
        b != baselines.end() && b->second.provenance.gpu_name != candidate.provenance.gpu_name && !o.new_gpu)
      throw Refusal("the baseline of " + suite + " was measured on '" + b->second.provenance.gpu_name +
                    "', the candidates on '" + candidate.provenance.gpu_name + "'; pass --new-gpu to replace it");
    if (!tests.tests.empty()) chosen.suites.emplace(suite, tests);
  }
  if (chosen.suites.empty())
    throw Refusal("no candidate test matches the filter '" + o.filter + "' with a correct output; nothing to promote");
  return chosen;
}

void show(const Selection& chosen, const std::map<std::string, g::SuiteFile>& baselines, std::ostream& out) {
  out << g::render(g::review(chosen.suites, baselines), false, console().palette);
  for (const auto& name : chosen.wrong_output)
    out << "not promoted (output differs from the CPU reference): " << g::terminal_line(name) << "\n";
}

// Every folder locked before any of its baselines is read, in one order (two promotions cannot deadlock);
// what recovery did on the way is printed.
std::map<fs::path, std::unique_ptr<g::BaselineTransaction>> lock_folders(const std::map<fs::path, Destination>& folders,
                                                                         std::ostream& out) {
  std::map<fs::path, std::unique_ptr<g::BaselineTransaction>> locked;
  for (const auto& [key, d] : folders) {
    auto& transaction = locked[key] = std::make_unique<g::BaselineTransaction>(d.root);
    for (const std::string& line : transaction->recovered()) out << "recovered: " << g::terminal_line(line) << "\n";
  }
  return locked;
}

std::map<std::string, g::SuiteFile> read_locked_baselines(
    const std::map<fs::path, std::unique_ptr<g::BaselineTransaction>>& locked,
    const std::map<fs::path, Destination>& folders, const g::GpuKey& gpu,
    const std::map<std::string, g::SuiteFile>& candidates, std::ostream& out) {
  const auto known = known_metrics();
  std::map<std::string, g::SuiteFile> baselines;
  for (const auto& [key, d] : folders) {
    const g::ConfinedFolder& folder = locked.at(key)->folder();
    for (const std::string& suite : d.suites) {
      const fs::path relative = g::suite_file_relative(gpu, suite);
      if (!folder.kind(relative)) continue;
      try {
        baselines.emplace(suite, g::read_suite_file(folder, relative, &known));
      } catch (const g::OldSchemaError& e) {
        check_replaceable(folder.read(relative), e, candidates.at(suite), out);
      }
    }
  }
  return baselines;
}

// Each suite's new baseline, merged and stamped, staged in its folder's transaction. Every file is built and
// read back first, so a bad one stops the promotion before anything is visible.
void stage(const Selection& chosen, const std::map<std::string, g::SuiteFile>& baselines, const g::GpuKey& gpu,
           const std::map<fs::path, Destination>& folders,
           std::map<fs::path, std::unique_ptr<g::BaselineTransaction>>& locked, const PromoteOptions& o) {
  const auto known = known_metrics();
  const g::SourceTree tree = g::source_tree(g::process_environment);
  g::Provenance stamp;
  stamp.git_commit = tree.commit;
  stamp.git_dirty = tree.dirty;
  stamp.date = g::utc_now_iso8601();
  stamp.command = o.invocation;
  for (const auto& [key, d] : folders)
    for (const std::string& suite : d.suites) {
      const auto candidate = chosen.suites.find(suite);
      if (candidate == chosen.suites.end()) continue;
      g::Provenance p = candidate->second.provenance;
      // The commit the candidates were measured from, as they recorded it; BANKGATE_GIT_COMMIT, where given, says
      // it instead (a copy of the tree without .git).
      if (tree.commit != "unknown" || p.git_commit.empty()) {
        p.git_commit = stamp.git_commit;
        p.git_dirty = stamp.git_dirty;
      }
      p.date = stamp.date;
      p.command = stamp.command;
      p.bankgate_version = g::tool_version();
      std::vector<std::string> tests;
      for (const auto& [test, unused] : candidate->second.tests) tests.push_back(test);
      const auto b = baselines.find(suite);
      const g::SuiteFile merged = g::promote(b == baselines.end() ? nullptr : &b->second, candidate->second, tests, p);
      const std::string text = g::serialize_suite_file(merged, g::Samples::drop);
      g::parse_suite_file(text, suite, &known);  // readable by the gate
      locked.at(key)->stage(g::suite_file_relative(gpu, suite), text);
    }
}

// Suites gated against different folders (BASELINES) are committed folder by folder; a failure in a later
// folder says which earlier ones were already changed.
std::vector<g::BaselineTransaction::Change> commit(std::map<fs::path, std::unique_ptr<g::BaselineTransaction>>& locked,
                                                   std::ostream& out) {
  std::vector<std::string> committed;
  std::vector<g::BaselineTransaction::Change> written;
  for (auto& [key, transaction] : locked) {
    try {
      for (const auto& change : transaction->commit()) {
        out << (change.created ? "created " : "replaced ") << g::terminal_line(change.path.string()) << "\n";
        written.push_back(change);
      }
    } catch (const g::TransactionError& e) {
      if (committed.empty()) throw;
      std::string done;
      for (const std::string& root : committed) done += (done.empty() ? "" : ", ") + root;
      throw g::TransactionError(std::string(e.what()) + " (in " + transaction->root().string() + "; the baselines in " +
                                done + " were already promoted)");
    }
    committed.push_back(transaction->root().string());
  }
  return written;
}

}  // namespace

// One locked transaction per baselines folder, from reading its baselines to the commit: two promotions of one
// folder at once each merge into what the other wrote, never into what it read before.
PromoteResult promote(const PromoteOptions& o, std::ostream& out) {
  refuse_in_ci(o.force, o.dry_run);
  const fs::path dir = candidates_folder(o.candidates, o.build);
  const g::GpuKey gpu = candidate_gpu(dir, o.gpu);
  const auto candidates = runners_merged(dir, gpu, o.runners);
  const auto folders = destinations(o, candidates, gpu);
  if (o.dry_run) {
    const auto baselines = read_baselines(o.baselines, configured_source_dir(o.build), gpu, candidates, out);
    const Selection chosen = select_candidates(candidates, baselines, o);
    show(chosen, baselines, out);
    out << "dry run: nothing written\n";
    return {{}, chosen.wrong_output};
  }
  auto locked = lock_folders(folders, out);
  const auto baselines = read_locked_baselines(locked, folders, gpu, candidates, out);
  const Selection chosen = select_candidates(candidates, baselines, o);
  show(chosen, baselines, out);
  stage(chosen, baselines, gpu, folders, locked, o);
  return {commit(locked, out), chosen.wrong_output};
}

Runner define_promote(CLI::App& command) {
  const auto o = std::make_shared<PromoteOptions>();
  add_candidate_options(command, o->build, o->candidates, o->baselines, o->gpu);
  command
      .add_option("--runner", o->runners,
                  "candidates folder recorded on another runner of the same GPU model (repeat for more): "
                  "merged with --candidates, counters must agree, durations pool every runner's samples and "
                  "their tolerance widens by twice the runners' distance from the pooled median")
      ->check(names_a_folder());
  command.add_option("--filter", o->filter, "GoogleTest-style filter of the tests to promote");
  command.add_flag("--dry-run", o->dry_run, "show the table, write nothing");
  command.add_flag("--new-gpu", o->new_gpu, "create baselines for a GPU that has none");
  command.add_flag("--force", o->force, "promote even where CI is set");
  command.add_option("--command", o->invocation, "what to record as the command that produced the baselines");
  command.footer(exit_codes_of({exit_code::unreadable, exit_code::refused}));
  return [o] {
    promote(*o, std::cout);
    return exit_ok;
  };
}

}  // namespace bankgate::cli
