// bankgate-baselines: the review-and-promote step between a GPU run and the committed baselines.
//
//   bankgate-baselines metrics     prints the collector's metric names, comma-separated (for ncu --metrics)
//   bankgate-baselines table   --candidates DIR [--baselines DIR] [--gpu ARCH/MODEL] [--changes-only]
//   bankgate-baselines promote --candidates DIR [--baselines DIR] [--gpu ARCH/MODEL] [--filter PATTERN]
//                              [--dry-run] [--new-gpu] [--force] [--git-commit SHA] [--git-dirty] [--command TEXT]
//   bankgate-baselines compare --base DIR --head DIR [--filter PATTERN] [--fail-on-speedup]
//                              same-runner comparison of two builds' candidates (ci/compare-commits.sh)
//   bankgate-baselines readme-table [--baselines DIR] [--gpu ARCH/MODEL] [--readme FILE [--check]]
//                              the README's kernel table from the baselines (tools/readme_table.hpp)
//   bankgate-baselines gate-summary --junit FILE [--gtest-results DIR] [--candidates DIR] [--baselines DIR]
//                              [--markdown FILE]   the gate's verdict and tables (ci/gate.sh; tools/gate_summary.hpp)
//
// Exit codes: 0 done (table: no failure); 1 table shows a failure; 2 bad input or usage; 3 refused.

#include <cstdlib>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <bankgate/harness/baseline.hpp>
#include <bankgate/harness/candidates.hpp>
#include <bankgate/harness/settings.hpp>
#include <bankgate/metrics.hpp>

#include "baseline_review.hpp"
#include "gate_summary.hpp"
#include "readme_table.hpp"
#include "run_comparison.hpp"

namespace {

namespace fs = std::filesystem;
namespace h = bankgate::harness;

constexpr int exit_failures = 1;
constexpr int exit_bad_input = 2;
constexpr int exit_refused = 3;

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
struct Refusal : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct Options {
  std::string command;
  fs::path candidates;
  fs::path baselines = "baselines";
  fs::path base, head;  // compare: the candidate folders of the two builds
  std::string gpu;
  std::string filter;
  bool changes_only = false, dry_run = false, new_gpu = false, force = false, git_dirty = false, fail_on_speedup = false;
  std::string git_commit = "unknown", invocation = "bankgate-baselines promote";
};

Options parse(int argc, char** argv) {
  if (argc < 2) throw UsageError("missing command: use 'table' or 'promote'");
  Options o;
  o.command = argv[1];
  if (o.command != "table" && o.command != "promote" && o.command != "metrics" && o.command != "compare")
    throw UsageError("unknown command '" + o.command + "'");
  if (o.command == "metrics") return o;
  for (int i = 2; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw UsageError(arg + " needs a value");
      return argv[++i];
    };
    if (arg == "--candidates") o.candidates = value();
    else if (arg == "--baselines") o.baselines = value();
    else if (arg == "--base") o.base = value();
    else if (arg == "--head") o.head = value();
    else if (arg == "--fail-on-speedup") o.fail_on_speedup = true;
    else if (arg == "--gpu") o.gpu = value();
    else if (arg == "--filter") o.filter = value();
    else if (arg == "--git-commit") o.git_commit = value();
    else if (arg == "--command") o.invocation = value();
    else if (arg == "--changes-only") o.changes_only = true;
    else if (arg == "--dry-run") o.dry_run = true;
    else if (arg == "--new-gpu") o.new_gpu = true;
    else if (arg == "--force") o.force = true;
    else if (arg == "--git-dirty") o.git_dirty = true;
    else throw UsageError("unknown option '" + arg + "'");
  }
  if (o.command == "compare") {
    if (o.base.empty() || o.head.empty()) throw UsageError("compare needs --base DIR and --head DIR (candidate folders)");
    return o;
  }
  if (o.candidates.empty()) throw UsageError("--candidates DIR is required (the build's candidates/ folder)");
  return o;
}

// The candidates folder holds <arch>/<model>/ for each GPU measured; with one, that is the GPU.
h::GpuKey choose_gpu(const Options& o) {
  if (!o.gpu.empty()) {
    const auto slash = o.gpu.find('/');
    if (slash == std::string::npos) throw UsageError("--gpu takes ARCH/MODEL, e.g. sm_90/nvidia-h200");
    return {o.gpu.substr(0, slash), o.gpu.substr(slash + 1)};
  }
  std::vector<h::GpuKey> found;
  if (fs::is_directory(o.candidates))
    for (const auto& arch : fs::directory_iterator(o.candidates))
      if (arch.is_directory())
        for (const auto& model : fs::directory_iterator(arch.path()))
          if (model.is_directory()) found.push_back({arch.path().filename().string(), model.path().filename().string()});
  if (found.empty())
    throw Refusal("no candidates in " + o.candidates.string() +
                  ": run the GPU suites first (ci/refresh-baselines.sh runs them and then this step)");
  if (found.size() > 1) throw UsageError("candidates for several GPUs in " + o.candidates.string() + "; choose one with --gpu ARCH/MODEL");
  return found.front();
}

std::map<std::string, h::SuiteFile> read_baselines(const fs::path& root, const h::GpuKey& gpu,
                                                   const std::map<std::string, h::SuiteFile>& suites) {
  const auto names = bankgate::default_metric_names();
  const std::set<std::string> known(names.begin(), names.end());
  std::map<std::string, h::SuiteFile> baselines;
  for (const auto& [suite, unused] : suites) {
    const fs::path path = h::suite_file_path(root, gpu, suite);
    if (fs::exists(path)) baselines.emplace(suite, h::read_suite_file(path, &known));
  }
  return baselines;
}

int run_table(const Options& o) {
  const h::GpuKey gpu = choose_gpu(o);
  const auto candidates = h::read_candidates(o.candidates, gpu);
  const auto baselines = read_baselines(o.baselines, gpu, candidates);
  const auto rows = bankgate::tools::review(candidates, baselines);
  std::cout << "GPU " << gpu.arch << "/" << gpu.model << ": measured (new) against " << o.baselines.string() << " (old)\n"
            << bankgate::tools::render(rows, o.changes_only);
  for (const auto& r : rows)
    if (!r.correct || h::is_failure(r.finding.verdict)) return exit_failures;
  return 0;
}

int run_compare(const Options& o) {
  const auto base = bankgate::tools::pooled_candidates(o.base, o.filter);
  const auto head = bankgate::tools::pooled_candidates(o.head, o.filter);
  if (base.empty() || head.empty())
    throw UsageError("no candidate files for the filter '" + o.filter + "' under " + (base.empty() ? o.base : o.head).string() +
                     ": run the GPU suites of both builds first");
  const auto rows = bankgate::tools::compare_runs(base, head);
  std::cout << "head (" << o.head.string() << ") against base (" << o.base.string() << "), rounds pooled per side\n"
            << bankgate::tools::render_comparison(rows, o.fail_on_speedup);
  return bankgate::tools::any_failure(rows, o.fail_on_speedup) ? exit_failures : 0;
}

int run_promote(const Options& o) {
  if (h::parse_flag("CI", h::process_environment("CI")) && !o.force)
    throw Refusal("refusing to change baselines in CI (CI is set): baselines change after a person reviews the table. "
                  "Run ci/refresh-baselines.sh on a GPU machine, review, commit; --force overrides");
  const h::GpuKey gpu = choose_gpu(o);
  const auto candidates = h::read_candidates(o.candidates, gpu);
  if (candidates.empty()) throw Refusal("no candidates for " + gpu.arch + "/" + gpu.model + " in " + o.candidates.string());
  const fs::path gpu_dir = o.baselines / gpu.relative_dir();
  if (!fs::is_directory(gpu_dir) && !o.new_gpu)
    throw Refusal("no baselines for " + gpu.arch + "/" + gpu.model + " in " + o.baselines.string() +
                  "; this is a GPU without baselines: pass --new-gpu to create them");
  const auto baselines = read_baselines(o.baselines, gpu, candidates);

  std::map<std::string, h::SuiteFile> selected;
  std::vector<std::string> wrong_output;
  for (const auto& [suite, candidate] : candidates) {
    h::SuiteFile chosen = candidate;
    chosen.tests.clear();
    for (const auto& [test, record] : candidate.tests) {
      if (!bankgate::tools::matches_filter(suite + "." + test, o.filter)) continue;
      if (!record.correct) {
        wrong_output.push_back(suite + "." + test);
        continue;
      }
      chosen.tests[test] = record;
    }
    if (const auto b = baselines.find(suite); b != baselines.end() && b->second.provenance.gpu_name != candidate.provenance.gpu_name &&
                                              !o.new_gpu)
      throw Refusal(h::suite_file_path(o.baselines, gpu, suite).string() + " was measured on '" + b->second.provenance.gpu_name +
                    "', the candidates on '" + candidate.provenance.gpu_name + "'; pass --new-gpu to replace it");
    if (!chosen.tests.empty()) selected.emplace(suite, chosen);
  }
  if (selected.empty())
    throw Refusal("no candidate test matches the filter '" + o.filter + "' with a correct output; nothing to promote");

  std::cout << bankgate::tools::render(bankgate::tools::review(selected, baselines), false);
  for (const auto& name : wrong_output) std::cout << "not promoted (output differs from the CPU reference): " << name << "\n";
  if (o.dry_run) {
    std::cout << "dry run: nothing written\n";
    return 0;
  }

  // Build every file first, so a bad one stops the promotion before anything is written.
  std::vector<std::pair<fs::path, h::SuiteFile>> writes;
  for (const auto& [suite, candidate] : selected) {
    h::Provenance p = candidate.provenance;
    p.git_commit = o.git_commit;
    p.git_dirty = o.git_dirty;
    p.date = h::utc_now_iso8601();
    p.command = o.invocation;
    std::vector<std::string> tests;
    for (const auto& [test, unused] : candidate.tests) tests.push_back(test);
    const auto b = baselines.find(suite);
    const h::SuiteFile merged = bankgate::tools::promote(b == baselines.end() ? nullptr : &b->second, candidate, tests, p);
    const auto names = bankgate::default_metric_names();
    const std::set<std::string> known(names.begin(), names.end());
    h::parse_suite_file(h::serialize_suite_file(merged, h::Samples::drop), suite, &known);  // readable by the gate
    writes.emplace_back(h::suite_file_path(o.baselines, gpu, suite), merged);
  }
  for (const auto& [path, file] : writes) {
    h::write_suite_file(path, file, h::Samples::drop);
    std::cout << "wrote " << path.string() << " (" << file.tests.size() << " tests)\n";
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    // gate-summary reads a gate run's reports and has options and exit codes of its own (tools/gate_summary.hpp).
    if (argc >= 2 && std::string(argv[1]) == "gate-summary") return bankgate::tools::run_gate_summary(argc, argv);
    // readme-table reads baselines only and has options of its own (tools/readme_table.hpp).
    if (argc >= 2 && std::string(argv[1]) == "readme-table")
      return bankgate::tools::readme_table_main(argv[0], std::vector<std::string>(argv + 2, argv + argc), std::cout,
                                                std::cerr);
    const Options o = parse(argc, argv);
    if (o.command == "metrics") {
      const auto names = bankgate::default_metric_names();
      for (std::size_t i = 0; i < names.size(); ++i) std::cout << (i ? "," : "") << names[i];
      std::cout << "\n";
      return 0;
    }
    if (o.command == "compare") return run_compare(o);
    return o.command == "table" ? run_table(o) : run_promote(o);
  } catch (const UsageError& e) {
    std::cerr << "bankgate-baselines: " << e.what() << "\nusage: bankgate-baselines table|promote --candidates DIR [options]"
              << " (see the comment at the top of tools/bankgate_baselines.cpp or the README)\n";
    return exit_bad_input;
  } catch (const Refusal& e) {
    std::cerr << "bankgate-baselines: refused: " << e.what() << "\n";
    return exit_refused;
  } catch (const std::exception& e) {
    std::cerr << "bankgate-baselines: " << e.what() << "\nnothing was written\n";
    return exit_bad_input;
  }
}
