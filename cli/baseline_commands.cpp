// review, promote, compare, summary, metrics: the subcommands that read and write files only.

#include <unistd.h>

#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <set>

#include <nlohmann/json.hpp>

#include <bankgate/gate/atomic_file.hpp>
#include <bankgate/gate/baseline.hpp>
#include <bankgate/gate/baseline_review.hpp>
#include <bankgate/gate/baseline_transaction.hpp>
#include <bankgate/gate/candidates.hpp>
#include <bankgate/gate/gate_summary.hpp>
#include <bankgate/gate/html_report.hpp>
#include <bankgate/gate/gpu_key.hpp>
#include <bankgate/gate/run_comparison.hpp>
#include <bankgate/gate/settings.hpp>
#include <bankgate/metrics.hpp>
#include <bankgate/results.hpp>

#include "commands.hpp"

namespace bankgate::cli {
namespace {

namespace fs = std::filesystem;
namespace g = bankgate::gate;

std::set<std::string> known_metrics() {
  const auto names = bankgate::default_metric_names();
  return {names.begin(), names.end()};
}

fs::path candidates_folder(const fs::path& candidates, const fs::path& build) {
  return candidates.empty() ? build / "bankgate" / "record" / "candidates" : candidates;
}

g::GpuKey candidate_gpu(const fs::path& candidates, const std::string& wanted) {
  if (wanted.empty() && g::gpu_folders(candidates).empty())
    throw Refusal("no candidates in " + candidates.string() +
                  ": measure first (bankgate record --build DIR, or bankgate refresh, which records and promotes)");
  try {
    return g::choose_gpu(candidates, wanted);
  } catch (const std::invalid_argument& e) {
    throw Refusal(e.what());
  }
}

// Where a suite's baselines are: --baselines when given, else the folder its candidates name.
fs::path destination(const fs::path& override_dir, const g::SuiteFile& candidate) {
  if (!override_dir.empty()) return override_dir;
  if (!candidate.baseline_dir.empty()) return candidate.baseline_dir;
  throw Refusal("the candidates of suite " + candidate.suite + " do not say which baselines folder they belong to "
                "(written by an older bankgate); pass --baselines DIR");
}

std::map<std::string, g::SuiteFile> read_baselines(const fs::path& override_dir, const g::GpuKey& gpu,
                                                   const std::map<std::string, g::SuiteFile>& candidates) {
  const auto known = known_metrics();
  std::map<std::string, g::SuiteFile> baselines;
  for (const auto& [suite, candidate] : candidates) {
    const fs::path path = g::suite_file_path(destination(override_dir, candidate), gpu, suite);
    if (fs::exists(path)) baselines.emplace(suite, g::read_suite_file(path, &known));
  }
  return baselines;
}

void write_text(const fs::path& path, const std::string& text) {
  if (path.empty()) return;
  g::write_file_atomically(path, [&](std::ostream& out) { out << text; });
}

}  // namespace

std::string this_command() {
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  return ec ? std::string("bankgate") : self.string();
}

int review(const ReviewOptions& o) {
  const fs::path dir = candidates_folder(o.candidates, o.build);
  const g::GpuKey gpu = candidate_gpu(dir, o.gpu);
  const auto candidates = g::read_candidates(dir, gpu);
  const auto baselines = read_baselines(o.baselines, gpu, candidates);
  const auto rows = g::review(candidates, baselines);
  std::cout << "GPU " << gpu.arch << "/" << gpu.model << ": measured (new) in " << dir.string() << " against the baselines (old)\n"
            << g::render(rows, o.changes_only);
  bool failed = false;
  nlohmann::json out = nlohmann::json::array();
  for (const auto& r : rows) {
    failed |= !r.correct || g::is_failure(r.finding.verdict);
    out.push_back({{"suite", r.suite}, {"test", r.test}, {"correct", r.correct}, {"metric", r.finding.metric},
                   {"measured", r.finding.measured}, {"baseline", r.finding.baseline},
                   {"verdict", g::to_string(r.finding.verdict)}, {"tolerance", r.finding.tolerance}});
  }
  write_text(o.json, nlohmann::json{{"gpu", gpu.arch + "/" + gpu.model}, {"rows", out}}.dump(2) + "\n");
  return failed ? exit_regression : exit_ok;
}

void refuse_in_ci(bool force, bool dry_run) {
  if (g::parse_flag("CI", g::process_environment("CI")) && !force && !dry_run)
    throw Refusal("refusing to change baselines in CI (CI is set): baselines change after a person reviews the table. "
                  "Run the refresh on a GPU machine, review, commit; --force overrides");
}

int promote(const PromoteOptions& o) {
  refuse_in_ci(o.force, o.dry_run);
  const fs::path dir = candidates_folder(o.candidates, o.build);
  const g::GpuKey gpu = candidate_gpu(dir, o.gpu);
  const auto candidates = g::read_candidates(dir, gpu);
  if (candidates.empty()) throw Refusal("no candidates for " + gpu.arch + "/" + gpu.model + " in " + dir.string());
  for (const auto& [suite, candidate] : candidates) {
    const fs::path gpu_dir = destination(o.baselines, candidate) / gpu.relative_dir();
    if (!fs::is_directory(gpu_dir) && !o.new_gpu && !o.dry_run)
      throw Refusal("no baselines for " + gpu.arch + "/" + gpu.model + " in " + destination(o.baselines, candidate).string() +
                    "; this is a GPU without baselines: pass --new-gpu to create them");
  }
  const auto baselines = read_baselines(o.baselines, gpu, candidates);

  std::map<std::string, g::SuiteFile> selected;
  std::vector<std::string> wrong_output;
  for (const auto& [suite, candidate] : candidates) {
    g::SuiteFile chosen = candidate;
    chosen.tests.clear();
    for (const auto& [test, record] : candidate.tests) {
      if (!g::matches_filter(suite + "." + test, o.filter)) continue;
      if (!record.correct) {
        wrong_output.push_back(suite + "." + test);
        continue;
      }
      chosen.tests[test] = record;
    }
    if (const auto b = baselines.find(suite);
        b != baselines.end() && b->second.provenance.gpu_name != candidate.provenance.gpu_name && !o.new_gpu)
      throw Refusal(g::suite_file_path(destination(o.baselines, candidate), gpu, suite).string() + " was measured on '" +
                    b->second.provenance.gpu_name + "', the candidates on '" + candidate.provenance.gpu_name +
                    "'; pass --new-gpu to replace it");
    if (!chosen.tests.empty()) selected.emplace(suite, chosen);
  }
  if (selected.empty())
    throw Refusal("no candidate test matches the filter '" + o.filter + "' with a correct output; nothing to promote");

  std::cout << g::render(g::review(selected, baselines), false);
  for (const auto& name : wrong_output) std::cout << "not promoted (output differs from the CPU reference): " << name << "\n";
  if (o.dry_run) {
    std::cout << "dry run: nothing written\n";
    return exit_ok;
  }

  // Build every file first, so a bad one stops the promotion before anything is written.
  const std::string commit = g::process_environment("BANKGATE_GIT_COMMIT").value_or("unknown");
  const bool dirty = g::parse_flag("BANKGATE_GIT_DIRTY", g::process_environment("BANKGATE_GIT_DIRTY"));
  const auto known = known_metrics();
  struct Write {
    fs::path root, path;
    g::SuiteFile file;
  };
  std::vector<Write> writes;
  for (const auto& [suite, candidate] : selected) {
    g::Provenance p = candidate.provenance;
    p.git_commit = commit;
    p.git_dirty = dirty;
    p.date = g::utc_now_iso8601();
    p.command = o.invocation;
    std::vector<std::string> tests;
    for (const auto& [test, unused] : candidate.tests) tests.push_back(test);
    const auto b = baselines.find(suite);
    const g::SuiteFile merged = g::promote(b == baselines.end() ? nullptr : &b->second, candidate, tests, p);
    g::parse_suite_file(g::serialize_suite_file(merged, g::Samples::drop), suite, &known);  // readable by the gate
    const fs::path root = destination(o.baselines, candidate);
    writes.push_back({root, g::suite_file_path(root, gpu, suite), merged});
  }
  // One transaction per baselines folder (however its path is spelt): every file of it is written, or none.
  std::map<fs::path, std::vector<std::pair<fs::path, const g::SuiteFile*>>> by_root;
  for (const Write& w : writes) by_root[fs::weakly_canonical(fs::absolute(w.root))].emplace_back(w.path, &w.file);
  std::vector<std::unique_ptr<g::BaselineTransaction>> transactions;
  for (const auto& [root, files] : by_root) {
    transactions.push_back(std::make_unique<g::BaselineTransaction>(root));
    for (const std::string& line : transactions.back()->recovered()) std::cout << "recovered: " << line << "\n";
    for (const auto& [path, file] : files) transactions.back()->stage(path, g::serialize_suite_file(*file, g::Samples::drop));
  }
  // Suites gated against different folders (BASELINES) are committed folder by folder; a failure in a later
  // folder says which earlier ones were already changed.
  std::vector<std::string> committed;
  for (auto& transaction : transactions) {
    try {
      for (const auto& change : transaction->commit())
        std::cout << (change.created ? "created " : "replaced ") << change.path.string() << "\n";
    } catch (const g::TransactionError& e) {
      if (committed.empty()) throw;
      std::string done;
      for (const std::string& root : committed) done += (done.empty() ? "" : ", ") + root;
      throw g::TransactionError(std::string(e.what()) + " (in " + transaction->root().string() + "; the baselines in " + done +
                                " were already promoted)");
    }
    committed.push_back(transaction->root().string());
  }
  return exit_ok;
}

fs::path configured_source_dir(const fs::path& build) {
  if (build.empty()) return {};
  std::ifstream cache(build / "CMakeCache.txt");
  const std::string key = "CMAKE_HOME_DIRECTORY:INTERNAL=";
  for (std::string line; std::getline(cache, line);)
    if (line.starts_with(key)) return line.substr(key.size());
  return {};
}

int compare_candidates(const CompareOptions& o) {
  const auto base = g::pooled_candidates(o.base, o.filter);
  const auto head = g::pooled_candidates(o.head, o.filter);
  if (base.empty() || head.empty())
    throw std::runtime_error("no candidate files for the filter '" + o.filter + "' under " + (base.empty() ? o.base : o.head).string() +
                             ": run the GPU suites of both builds first");
  const auto rows = g::compare_runs(base, head);
  std::cout << "head (" << o.head.string() << ") against base (" << o.base.string() << "), rounds pooled per side\n"
            << g::render_comparison(rows, o.fail_on_speedup);
  const bool failed = g::any_failure(rows, o.fail_on_speedup);
  nlohmann::json out = nlohmann::json::array();
  for (const auto& row : rows) {
    nlohmann::json findings = nlohmann::json::array();
    for (const auto& f : row.findings)
      findings.push_back({{"metric", f.metric}, {"timing", f.timing}, {"base", f.baseline}, {"head", f.measured},
                          {"verdict", g::to_string(f.verdict)}, {"detail", f.detail}});
    out.push_back({{"test", row.test}, {"head_correct", row.head_correct}, {"findings", findings}});
  }
  write_text(o.json, nlohmann::json{{"exit_code", failed ? exit_regression : exit_ok}, {"tests", out}}.dump(2) + "\n");
  if (!o.html.empty()) {
    write_text(o.html, g::render_html(g::summarize_comparison(base, head, o.fail_on_speedup), o.sources,
                                      "bankgate compare: head against base"));
    std::cout << "report: " << fs::absolute(o.html).string() << "\n";
  }
  return failed ? exit_regression : exit_ok;
}

int summary(const SummaryOptions& o) {
  g::GateInputs in;
  in.junit = o.junit;
  in.gtest_results = o.gtest_results;
  in.candidates = o.candidates;
  in.baselines = o.baselines;
  in.refresh = {this_command(), o.build.empty() ? std::string() : fs::absolute(o.build).lexically_normal().string()};
  const g::GateSummary s = g::summarize(in);
  std::cout << g::render_console(s);
  if (!o.markdown.empty()) {
    std::ofstream file(o.markdown, std::ios::app);
    file << g::render_markdown(s);
    if (!file) std::cerr << "bankgate: could not append the summary to " << o.markdown.string() << "\n";
  }
  write_text(o.json, g::to_json(s).dump(2) + "\n");
  write_text(o.junit_out, g::render_junit(s));
  if (!o.html.empty()) {
    write_text(o.html, g::render_html(s, o.sources.empty() ? configured_source_dir(o.build) : o.sources));
    std::cout << "report: " << fs::absolute(o.html).string() << "\n";
    if (!o.markdown.empty())
      std::ofstream(o.markdown, std::ios::app) << "\nThe full report, with per-line figures and duration plots: `"
                                               << o.html.filename().string() << "` (beside this summary in the run's reports).\n";
  }
  return s.exit_code();
}

int metrics(bool as_json, bool hardware) {
  const auto names = bankgate::metric_names(hardware ? bankgate::CounterSet::hardware : bankgate::CounterSet::sass_instrumented);
  if (as_json) {
    nlohmann::json list = nlohmann::json::array();
    for (const auto& name : names) list.push_back({{"name", name}, {"display_name", std::string(display_name(name))}});
    std::cout << list.dump(2) << "\n";
    return exit_ok;
  }
  for (std::size_t i = 0; i < names.size(); ++i) std::cout << (i ? "," : "") << names[i];
  std::cout << "\n";
  return exit_ok;
}

int check_baselines(const fs::path& root) {
  const auto known = known_metrics();
  std::size_t files = 0, tests = 0;
  std::vector<std::string> problems;
  std::error_code ec;
  if (!fs::is_directory(root, ec)) throw std::runtime_error(root.string() + " is not a folder of baselines");
  for (const g::GpuKey& gpu : g::gpu_folders(root)) {
    for (const auto& entry : fs::recursive_directory_iterator(root / gpu.relative_dir(), ec)) {
      if (entry.path().extension() != ".json") continue;
      try {
        const g::SuiteFile file = g::read_suite_file(entry.path(), &known);
        const fs::path expected = g::suite_file_path(root, gpu, file.suite);
        if (!(file.gpu == gpu) || fs::weakly_canonical(expected) != fs::weakly_canonical(entry.path()))
          throw g::BaselineError(entry.path().string() + ": holds " + file.suite + " for " + file.gpu.arch + "/" + file.gpu.model +
                                 ", which belongs in " + expected.string());
        ++files;
        tests += file.tests.size();
      } catch (const std::exception& e) {
        problems.push_back(e.what());
      }
    }
  }
  for (const std::string& p : problems) std::cerr << "bankgate: " << p << "\n";
  std::cout << root.string() << ": " << files << " baseline files with " << tests << " tests read, " << problems.size()
            << " unusable\n";
  return problems.empty() && files > 0 ? exit_ok : exit_not_measured;
}

int kernel_names(const std::vector<std::string>& names) {
  std::vector<std::string> input = names;
  if (input.empty())
    for (std::string line; std::getline(std::cin, line);)
      if (!line.empty()) input.push_back(line);
  nlohmann::json out = nlohmann::json::array();
  for (const std::string& name : input) out.push_back({{"name", name}, {"bare", bankgate::kernel_base_name(name)}});
  std::cout << out.dump(2) << "\n";
  return exit_ok;
}

}  // namespace bankgate::cli
