// review, promote, compare, metrics, protocol: the subcommands that read and write files only (summary has
// summary_command.cpp).

#include <unistd.h>

#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <set>

#include <nlohmann/json.hpp>

#include <bankgate/gate/store/atomic_file.hpp>
#include <bankgate/gate/rules/baseline.hpp>
#include <bankgate/gate/rules/baseline_changes.hpp>
#include <bankgate/gate/store/baseline_folder.hpp>
#include <bankgate/gate/rules/baseline_review.hpp>
#include <bankgate/gate/store/baseline_transaction.hpp>
#include <bankgate/gate/store/candidates.hpp>
#include <bankgate/gate/reports/gate_summary.hpp>
#include <bankgate/gate/reports/html_report.hpp>
#include <bankgate/gate/store/input_file.hpp>
#include <bankgate/gate/reports/output_json.hpp>
#include <bankgate/gate/rules/gpu_key.hpp>
#include <bankgate/gate/reports/console_tables.hpp>
#include <bankgate/gate/rules/run_comparison.hpp>
#include <bankgate/gate/store/pooled_candidates.hpp>
#include <bankgate/gate/protocol/run_protocol.hpp>
#include <bankgate/gate/rules/runner_merge.hpp>
#include <bankgate/gate/protocol/settings.hpp>
#include <bankgate/gate/text/text.hpp>
#include <bankgate/metrics.hpp>
#include <bankgate/gate/text/number_format.hpp>
#include <bankgate/results.hpp>

#include "base_baselines.hpp"
#include "cmake_cache.hpp"
#include "commands.hpp"
#include "console.hpp"
#include "process.hpp"

namespace bankgate::cli {
namespace {

namespace fs = std::filesystem;
namespace g = bankgate::gate;

std::set<std::string> known_metrics() {
  const auto names = bankgate::gated_counter_names();
  return {names.begin(), names.end()};
}

fs::path candidates_folder(const fs::path& candidates, const fs::path& build) {
  return candidates.empty() ? g::protocol::run_candidates(g::protocol::record_run(build)) : candidates;
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

// Where a suite's baselines are: --baselines when given, else the folder its candidates name, inside the
// project the build was configured from (candidate_baselines_folder).
fs::path destination(const fs::path& override_dir, const g::SuiteFile& candidate, const fs::path& project) {
  if (!override_dir.empty()) return override_dir;
  try {
    return g::candidate_baselines_folder(candidate.baseline_dir, project, candidate.suite);
  } catch (const g::BaselineError& e) {
    throw Refusal(e.what());
  }
}

// A baseline file of an older schema is replaced whole by the recording, and only when the recording holds
// every test the old file held, so that no test it gated is dropped unseen. Its test names are all that is
// read of it.
void check_replaceable(const std::string& old_text, const g::OldSchemaError& old, const g::SuiteFile& candidate) {
  const nlohmann::json document = nlohmann::json::parse(old_text, nullptr, false);
  std::string missing;
  if (document.is_object() && document.contains("tests") && document["tests"].is_object())
    for (const auto& [test, unused] : document["tests"].items())
      if (!candidate.tests.contains(test)) missing += (missing.empty() ? "" : ", ") + test;
  if (!missing.empty())
    throw Refusal(std::string(old.what()) + "\nit also holds tests this recording lacks (" + missing +
                  "): record the whole suite (bankgate refresh without --filter) to replace it");
  std::cout << "note: " << g::terminal_safe(old.what()) << "\n  this promotion replaces it with the tests just recorded\n";
}

// The baselines each candidate suite is shown against, read from their folders (a folder half-written by an
// interrupted promotion is refused with the recovery command). A file of an older schema counts as absent:
// the promotion replaces it (check_replaceable).
std::map<std::string, g::SuiteFile> read_baselines(const fs::path& override_dir, const fs::path& project, const g::GpuKey& gpu,
                                                   const std::map<std::string, g::SuiteFile>& candidates) {
  const auto known = known_metrics();
  std::map<std::string, g::SuiteFile> baselines;
  for (const auto& [suite, candidate] : candidates) {
    const g::BaselineFolder folder(destination(override_dir, candidate, project));
    try {
      if (auto file = folder.read(gpu, suite, &known)) baselines.emplace(suite, std::move(*file));
    } catch (const g::OldSchemaError& e) {
      check_replaceable(folder.folder()->read(g::suite_file_relative(gpu, suite)), e, candidate);
    }
  }
  return baselines;
}

}  // namespace

// "-" is standard output (the data alone there: main() sends the human text to standard error then).
void write_text(const fs::path& path, const std::string& text) {
  if (path.empty()) return;
  if (path == "-") {
    std::ostream data(standard_output());
    data << text << std::flush;
    return;
  }
  g::write_file_atomically(path, [&](std::ostream& out) { out << text; });
}

// Report data as JSON text (json_text: a byte of a name or message that is not UTF-8 becomes U+FFFD).
void write_json(const fs::path& path, const nlohmann::json& data) { write_text(path, g::json_text(data) + "\n"); }

namespace {

// The comparison's markdown summary: the gate's, headed as a comparison, with what base and head are and the
// verdict the gate's summary has no word for (INCONCLUSIVE) under its heading.
std::string comparison_markdown(const g::GateSummary& s, const CompareOptions& o, int exit_code) {
  std::string notes;
  if (!o.sides.empty()) notes += "Compared: " + g::markdown_text(o.sides) + ".\n\n";
  if (exit_code == exit_inconclusive)
    notes += "**INCONCLUSIVE**: no regression found, but the rounds of some tests were too noisy to tell a change of the "
             "floor's size from none (more `--rounds`, or a quieter runner).\n\n";
  std::string markdown = g::render_markdown(s, "bankgate compare");
  const std::size_t after_heading = markdown.find("\n\n");
  return after_heading == std::string::npos ? markdown + "\n" + notes : markdown.insert(after_heading + 2, notes);
}

// compare's reports beside its table and JSON: the HTML report, the run's summary.md and the markdown appended to
// --markdown. Like the gate's copy for a CI step summary, an unwritable --markdown is said and changes no verdict.
void write_comparison_reports(const CompareOptions& o, const fs::path& summary_file, const g::GateSummary& s, int exit_code,
                              const std::string& source_url) {
  if (!o.html.empty()) {
    const std::string title = "bankgate compare: " + (o.sides.empty() ? std::string("head against base") : o.sides);
    write_text(o.html, g::render_html(s, {o.sources, title, source_url}));
    std::cout << "report: " << g::terminal_line(fs::absolute(o.html).string()) << "\n";
  }
  const std::string markdown = comparison_markdown(s, o, exit_code);
  write_text(summary_file, markdown);
  if (o.markdown.empty()) return;
  try {
    g::append_markdown(o.markdown, markdown);
  } catch (const std::exception& e) {
    std::cerr << "bankgate: the markdown summary was not appended to " << g::terminal_line(o.markdown.string()) << ": "
              << g::terminal_safe(e.what()) << "\n";
  }
}

}  // namespace

std::streambuf*& standard_output() {
  static std::streambuf* buffer = std::cout.rdbuf();
  return buffer;
}

std::string this_command() {
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  return ec ? std::string("bankgate") : self.string();
}

int review(const ReviewOptions& o) {
  const fs::path dir = candidates_folder(o.candidates, o.build);
  const g::GpuKey gpu = candidate_gpu(dir, o.gpu);
  const auto candidates = g::read_candidates(dir, gpu);
  const auto baselines = read_baselines(o.baselines, configured_source_dir(o.build), gpu, candidates);
  const auto rows = g::review(candidates, baselines);
  std::cout << "GPU " << g::terminal_line(gpu.arch + "/" + gpu.model) << ": measured (new) in " << g::terminal_line(dir.string())
            << " against the baselines (old)\n"
            << g::render(rows, o.changes_only, console().palette);
  const bool failed = std::any_of(rows.begin(), rows.end(), [](const g::ReviewRow& r) {
    return !r.correct || g::is_failure(r.finding.verdict);
  });
  const int exit_code = failed ? exit_regression : exit_ok;
  if (!o.json.empty()) {
    g::RunProvenance provenance = g::provenance_now();
    for (const auto& [suite, file] : candidates) g::note_measurement(provenance, file.provenance);
    for (const auto& [suite, file] : baselines) g::note_baseline(provenance, file.provenance);
    write_json(o.json, g::review_document(rows, gpu, provenance, exit_code));
  }
  return exit_code;
}

void refuse_in_ci(bool force, bool dry_run) {
  bool in_ci = false;
  try {
    in_ci = g::running_in_ci(g::process_environment);
  } catch (const g::SettingsError& e) {  // as ci/lib.sh's bankgate_is_ci: neither side guesses
    throw Refusal(std::string(e.what()) + ": refusing to guess whether this is CI, where baselines must not change");
  }
  if (in_ci && !force && !dry_run)
    throw Refusal("refusing to change baselines in CI (" + std::string(g::protocol::env::ci) +
                  " is set): baselines change after a person reviews the table. Run the refresh on a GPU machine, "
                  "review, commit; --force overrides");
}

namespace {

// The baselines folders a promotion writes, each with its suites, keyed by the folder's resolved path (one
// folder however its path is spelt).
struct Destination {
  fs::path root;
  std::vector<std::string> suites;
};
std::map<fs::path, Destination> destinations(const PromoteOptions& o, const std::map<std::string, g::SuiteFile>& candidates,
                                             const g::GpuKey& gpu) {
  const fs::path project = configured_source_dir(o.build);
  std::map<fs::path, Destination> folders;
  for (const auto& [suite, candidate] : candidates) {
    const fs::path root = destination(o.baselines, candidate, project);
    std::error_code ec;
    if (!fs::is_directory(root / gpu.relative_dir(), ec) && !o.new_gpu && !o.dry_run)
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
Selection select_candidates(const std::map<std::string, g::SuiteFile>& candidates, const std::map<std::string, g::SuiteFile>& baselines,
                            const PromoteOptions& o) {
  Selection chosen;
  for (const auto& [suite, candidate] : candidates) {
    g::SuiteFile tests = candidate;
    tests.tests.clear();
    for (const auto& [test, record] : candidate.tests) {
      if (!g::matches_filter(suite + "." + test, o.filter)) continue;
      if (record.correct) tests.tests[test] = record;
      else chosen.wrong_output.push_back(suite + "." + test);
    }
    if (const auto b = baselines.find(suite);
        b != baselines.end() && b->second.provenance.gpu_name != candidate.provenance.gpu_name && !o.new_gpu)
      throw Refusal("the baseline of " + suite + " was measured on '" + b->second.provenance.gpu_name + "', the candidates on '" +
                    candidate.provenance.gpu_name + "'; pass --new-gpu to replace it");
    if (!tests.tests.empty()) chosen.suites.emplace(suite, tests);
  }
  if (chosen.suites.empty())
    throw Refusal("no candidate test matches the filter '" + o.filter + "' with a correct output; nothing to promote");
  return chosen;
}

void show(const Selection& chosen, const std::map<std::string, g::SuiteFile>& baselines) {
  std::cout << g::render(g::review(chosen.suites, baselines), false, console().palette);
  for (const auto& name : chosen.wrong_output)
    std::cout << "not promoted (output differs from the CPU reference): " << g::terminal_line(name) << "\n";
}

// Every folder locked before any of its baselines is read, in one order (two promotions cannot deadlock);
// what recovery did on the way is printed.
std::map<fs::path, std::unique_ptr<g::BaselineTransaction>> lock_folders(const std::map<fs::path, Destination>& folders) {
  std::map<fs::path, std::unique_ptr<g::BaselineTransaction>> locked;
  for (const auto& [key, d] : folders) {
    auto& transaction = locked[key] = std::make_unique<g::BaselineTransaction>(d.root);
    for (const std::string& line : transaction->recovered()) std::cout << "recovered: " << g::terminal_line(line) << "\n";
  }
  return locked;
}

std::map<std::string, g::SuiteFile> read_locked_baselines(const std::map<fs::path, std::unique_ptr<g::BaselineTransaction>>& locked,
                                                          const std::map<fs::path, Destination>& folders, const g::GpuKey& gpu,
                                                          const std::map<std::string, g::SuiteFile>& candidates) {
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
        check_replaceable(folder.read(relative), e, candidates.at(suite));
      }
    }
  }
  return baselines;
}

// Each suite's new baseline, merged and stamped, staged in its folder's transaction. Every file is built and
// read back first, so a bad one stops the promotion before anything is visible.
void stage(const Selection& chosen, const std::map<std::string, g::SuiteFile>& baselines, const g::GpuKey& gpu,
           const std::map<fs::path, Destination>& folders, std::map<fs::path, std::unique_ptr<g::BaselineTransaction>>& locked,
           const PromoteOptions& o) {
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
void commit(std::map<fs::path, std::unique_ptr<g::BaselineTransaction>>& locked) {
  std::vector<std::string> committed;
  for (auto& [key, transaction] : locked) {
    try {
      for (const auto& change : transaction->commit())
        std::cout << (change.created ? "created " : "replaced ") << g::terminal_line(change.path.string()) << "\n";
    } catch (const g::TransactionError& e) {
      if (committed.empty()) throw;
      std::string done;
      for (const std::string& root : committed) done += (done.empty() ? "" : ", ") + root;
      throw g::TransactionError(std::string(e.what()) + " (in " + transaction->root().string() + "; the baselines in " + done +
                                " were already promoted)");
    }
    committed.push_back(transaction->root().string());
  }
}

// A runner's name in messages and tolerance reasons: its folder's own name ("gpu-369aa79c", say).
std::string runner_label(const fs::path& folder) {
  fs::path p = folder.lexically_normal();
  if (p.filename().empty()) p = p.parent_path();
  return p.filename().empty() ? folder.string() : p.filename().string();
}

// The candidates of `dir`, merged with those of each other runner's folder (runner_merge.hpp).
std::map<std::string, g::SuiteFile> runners_merged(const fs::path& dir, const g::GpuKey& gpu, const std::vector<fs::path>& runners) {
  std::vector<g::RunnerRecording> recordings;
  std::vector<fs::path> folders{dir};
  folders.insert(folders.end(), runners.begin(), runners.end());
  for (const fs::path& folder : folders) {
    recordings.push_back({runner_label(folder), g::read_candidates(folder, gpu)});
    if (recordings.back().suites.empty()) throw Refusal("no candidates for " + gpu.arch + "/" + gpu.model + " in " + folder.string());
  }
  try {
    return g::merge_runners(recordings);
  } catch (const g::RunnerMergeError& e) {
    throw Refusal(std::string("the runners' recordings cannot be merged: ") + e.what());
  }
}

}  // namespace

// One locked transaction per baselines folder, from reading its baselines to the commit: two promotions of one
// folder at once each merge into what the other wrote, never into what it read before.
int promote(const PromoteOptions& o) {
  refuse_in_ci(o.force, o.dry_run);
  const fs::path dir = candidates_folder(o.candidates, o.build);
  const g::GpuKey gpu = candidate_gpu(dir, o.gpu);
  const auto candidates = runners_merged(dir, gpu, o.runners);
  const auto folders = destinations(o, candidates, gpu);
  if (o.dry_run) {
    const auto baselines = read_baselines(o.baselines, configured_source_dir(o.build), gpu, candidates);
    show(select_candidates(candidates, baselines, o), baselines);
    std::cout << "dry run: nothing written\n";
    return exit_ok;
  }
  auto locked = lock_folders(folders);
  const auto baselines = read_locked_baselines(locked, folders, gpu, candidates);
  const Selection chosen = select_candidates(candidates, baselines, o);
  show(chosen, baselines);
  stage(chosen, baselines, gpu, folders, locked, o);
  commit(locked);
  return exit_ok;
}

namespace {

// A journal inside the baselines folder came with the folder's files (bankgate 0.4 kept its journal there; a pull
// request can add one): it is never read, and said so.
std::optional<std::string> stray_journal(const g::ConfinedFolder& folder) {
  constexpr const char* name = ".bankgate-promote.journal";
  if (!folder.kind(name)) return std::nullopt;
  return folder.display(name).string() + " is not bankgate's: journals of interrupted promotions are kept outside the folder (in " +
         g::journal_folder().string() + "), where no pull request can place one; it is ignored and nothing it names is "
         "restored or removed: delete it (git rm)";
}

}  // namespace

// Recovery by hand: rolls back what an interrupted promotion left in `root`, as the next promotion would.
int recover(const fs::path& root) {
  std::error_code ec;
  if (!fs::is_directory(root, ec)) throw std::runtime_error(root.string() + " is not a folder of baselines");
  const g::BaselineTransaction transaction(root);
  if (const auto stray = stray_journal(transaction.folder())) std::cout << "note: " << *stray << "\n";
  for (const std::string& line : transaction.recovered()) std::cout << "recovered: " << g::terminal_line(line) << "\n";
  std::cout << g::terminal_line(root.string()) << (transaction.recovered().empty() ? ": nothing to recover\n" : ": as before the interrupted promotion\n");
  return exit_ok;
}

fs::path configured_source_dir(const fs::path& build) {
  if (build.empty()) return {};
  try {
    return CMakeCache::of_build(build).found_value("CMAKE_HOME_DIRECTORY").value_or("");
  } catch (const g::InputFileError&) {
    return {};  // an unreadable cache says nothing of the sources
  }
}

std::string source_url_template(const std::string& option) {
  if (!option.empty()) return option;
  return g::source_url_template(g::process_environment).value_or("");
}

int compare_candidates(const CompareOptions& o, const fs::path& summary_file) {
  // A malformed BANKGATE_SOURCE_URL is refused before anything is read, where a report is asked for.
  const std::string source_url = o.html.empty() ? "" : source_url_template(o.source_url);
  const auto base = g::pooled_candidates(o.base, o.filter);
  const auto head = g::pooled_candidates(o.head, o.filter);
  if (base.records.empty() || head.records.empty())
    throw std::runtime_error("no candidate files for the filter '" + o.filter + "' under " + (base.records.empty() ? o.base : o.head).string() +
                             ": run the GPU suites of both builds first");
  const auto rows = g::compare_runs(base, head);
  std::cout << "head (" << g::terminal_line(o.head.string()) << ") against base (" << g::terminal_line(o.base.string()) << "), rounds pooled per side; "
            << "durations judged by their round-to-round noise where each side has two rounds or more\n"
            << g::render_comparison(rows, o.fail_on_speedup, console().palette);
  const bool failed = g::any_failure(rows, o.fail_on_speedup);
  const int exit_code = failed ? exit_regression : g::any_inconclusive(rows) ? exit_inconclusive : exit_ok;
  if (exit_code == exit_inconclusive)
    std::cout << "bankgate compare: " << console().palette.paint("INCONCLUSIVE", g::Tone::doubtful)
              << ": no regression found, but the rounds of the tests marked INCONCLUSIVE were too noisy to tell a change "
                 "of the floor's size from none (more --rounds, or a quieter runner)\n";
  const g::GateSummary summary = g::summarize_comparison(base, head, rows, o.fail_on_speedup);
  write_json(o.json, g::comparison_document(rows, summary.provenance, exit_code, o.fail_on_speedup));
  if (!o.html.empty() || !o.markdown.empty() || !summary_file.empty())
    write_comparison_reports(o, summary_file, summary, exit_code, source_url);
  return exit_code;
}

namespace {

std::string tolerance_text(const bankgate::MetricTraits& m) {
  if (m.tolerance.relative == 0.0) return "exact";
  return "±" + g::format_number(100.0 * m.tolerance.relative) + "%";
}

// The "What is counted" table of docs/measurement.md, from the metric table (a test checks the page against it).
void metrics_markdown(std::span<const bankgate::MetricTraits> table) {
  std::cout << "| counter | Nsight Compute name | nvprof-era name | gated |\n| --- | --- | --- | --- |\n";
  for (const bankgate::MetricTraits& m : table)
    std::cout << "| " << m.display << " (" << bankgate::to_string(m.group) << ") | `" << m.name << "`"
              << (m.name == bankgate::metric::resident_blocks_per_sm ? " (ours: the least of Nsight Compute's `launch__occupancy_limit_*`)"
                  : m.name == bankgate::metric::local_memory_per_thread ? " (ours: the driver's figure; Nsight Compute has none)"
                  : m.source == bankgate::CounterSource::launch ? " (from the driver, no counter)"
                  : m.source == bankgate::CounterSource::tma_traffic ? " (hardware: a further run, for kernels with TMA instructions only)"
                                                                      : "") << " | "
              << (m.nvprof.empty() ? "—" : "`" + std::string(m.nvprof) + "`") << " | " << tolerance_text(m) << " |\n";
  std::cout << "\n| ratio | from | nvprof-era name |\n| --- | --- | --- |\n";
  for (const bankgate::RatioTraits& r : bankgate::ratio_table())
    std::cout << "| " << r.display << " (`" << r.key << "`) | " << display_name(r.numerator) << " / "
              << display_name(r.denominator) << " | " << (r.nvprof.empty() ? "—" : "`" + std::string(r.nvprof) + "`") << " |\n";
}

}  // namespace

int metrics(MetricsFormat format, bool hardware) {
  const auto table = hardware ? bankgate::hardware_counter_table() : bankgate::counter_table();
  if (format == MetricsFormat::json) {
    nlohmann::json list = nlohmann::json::array();
    for (const bankgate::MetricTraits& m : table)
      list.push_back({{"name", m.name}, {"display_name", m.display}, {"nvprof_name", m.nvprof},
                      {"group", bankgate::to_string(m.group)},
                      {"source", m.source == bankgate::CounterSource::launch        ? "launch"
                                 : m.source == bankgate::CounterSource::tma_traffic ? "tma_traffic"
                                                                                    : "sass"},
                      {"default_relative_tolerance", m.tolerance.relative}, {"tolerance_reason", m.tolerance.reason},
                      {"explained_by_lines_of_kind", m.kind}});
    std::cout << g::json_text(list) << "\n";
    return exit_ok;
  }
  if (format == MetricsFormat::markdown) {
    metrics_markdown(table);
    return exit_ok;
  }
  // The range profiler's metrics only (with the TMA traffic pass's): the list ncu --metrics takes.
  auto names = bankgate::metric_names(hardware ? bankgate::CounterSet::hardware : bankgate::CounterSet::sass_instrumented);
  if (!hardware)
    for (const std::string& name : bankgate::metric_names(bankgate::CounterSet::tma_traffic)) names.push_back(name);
  for (std::size_t i = 0; i < names.size(); ++i) std::cout << (i ? "," : "") << names[i];
  std::cout << "\n";
  return exit_ok;
}

namespace {

// The run protocol as data: what `bankgate protocol` prints, and the scripts read instead of keeping copies.
nlohmann::json protocol_document(const fs::path& build) {
  namespace p = g::protocol;
  nlohmann::json environment = nlohmann::json::object();
  for (const p::Name& variable : p::environment) environment[std::string(variable.key)] = std::string(variable.name);
  nlohmann::json layout = nlohmann::json::object();
  for (const auto& [name, path] : p::layout(build)) layout[name] = path.string();
  nlohmann::json properties = nlohmann::json::array();
  for (const char* name : p::properties) properties.push_back(name);
  nlohmann::json exit_codes = nlohmann::json::object();
  for (const auto& [name, code] : p::exit_codes) exit_codes[std::string(name)] = code;
  return {{"environment", environment}, {"layout", layout}, {"measure_test_prefix", p::measure_test_prefix},
          {"test_properties", properties}, {"exit_codes", exit_codes}};
}

// A value as a shell reads it: a string bare, anything else as JSON.
std::string bare(const nlohmann::json& value) { return value.is_string() ? value.get<std::string>() : g::json_text(value, -1); }

// The entry `path` names ("layout.gate": one step per dot), or nullptr after saying on `err` what there is.
const nlohmann::json* find_entry(const nlohmann::json& document, const std::string& path, std::ostream& err) {
  const nlohmann::json* value = &document;
  std::size_t start = 0;  // of the next step's key in `path`
  while (start <= path.size()) {
    const std::size_t end = std::min(path.find('.', start), path.size());
    const std::string key = path.substr(start, end - start);
    if (!value->is_object() || !value->contains(key)) {
      err << "bankgate protocol: no '" << path << "' in the run protocol";
      if (value->is_object()) {
        err << "; " << (start == 0 ? std::string("it") : path.substr(0, start - 1)) << " has:";
        for (const auto& [name, unused] : value->items()) err << " " << name;
      }
      err << "\n";
      return nullptr;
    }
    value = &(*value)[key];
    start = end + 1;
  }
  return value;
}

// How the first baselines of a folder are recorded, for a check before there are any.
std::string first_baselines_advice(const fs::path& root) {
  std::vector<std::string> refresh{this_command(), "refresh", "--build", "BUILD", "--new-gpu"};
  if (root != "baselines") refresh.insert(refresh.end(), {"--baselines", root.string()});
  return ": record the first ones on a machine with the GPU with `" + as_command_line(refresh) +
         "` (BUILD: your build folder), review them and commit the folder";
}

}  // namespace

int protocol(const ProtocolOptions& o) {
  const nlohmann::json document = protocol_document(o.build);
  if (o.get.empty()) {
    std::cout << g::json_text(document) << "\n";
    return exit_ok;
  }
  const nlohmann::json* value = find_entry(document, o.get, std::cerr);
  if (value == nullptr) return exit_usage;
  if (value->is_object())
    for (const auto& [name, entry] : value->items()) std::cout << name << "\t" << bare(entry) << "\n";
  else if (value->is_array())
    for (const auto& entry : *value) std::cout << bare(entry) << "\n";
  else
    std::cout << bare(*value) << "\n";
  return exit_ok;
}

namespace {

// What this change did to the baselines against the base branch's copy (base_baselines.hpp): every change named,
// the loosenings a reviewer has not accepted counted and returned.
std::size_t show_baseline_changes(const g::ConfinedFolder& folder, const std::map<fs::path, g::SuiteFile>& head, const BaseOptions& o,
                                  const std::set<std::string>& known) {
  const fs::path& root = folder.root();
  const std::optional<BaseRef> base = find_base(root, o.base_ref);
  if (!base) {
    std::cout << root.string() << ": no base to compare with (--base-ref, " << g::protocol::env::base_ref
              << " or origin/main): changes to the baselines are not checked\n";
    return 0;
  }
  std::size_t loosened = 0, changes = 0;
  const auto say = [&](const fs::path& file, const std::string& text, bool loosens) {
    const bool fails = loosens && !o.accept_loosened;
    loosened += fails ? 1 : 0;
    ++changes;
    std::cout << (fails ? "LOOSENED " : loosens ? "loosened, accepted " : "changed ") << folder.display(file).string() << ": "
              << g::terminal_safe(text) << "\n";
  };
  for (const fs::path& relative : base_files(root, base->commit)) {
    const std::optional<std::string> text = base_text(root, base->commit, relative);
    g::SuiteFile before;
    try {
      if (!text) continue;
      before = g::parse_suite_file(*text, "the base's " + relative.string(), &known);
    } catch (const g::BaselineError&) {
      continue;  // not a baseline this bankgate reads (another schema): the file as it is now is all there is
    }
    if (const auto now = head.find(relative); now != head.end()) {
      for (const g::BaselineChange& c : g::baseline_changes(before, now->second)) say(relative, before.suite + "." + c.test + ": " + c.text(), c.loosens);
    } else if (!folder.kind(relative)) {
      say(relative, "its " + std::to_string(before.tests.size()) + " tests are no longer gated: the file was removed in this change", true);
    }
  }
  std::cout << root.string() << ": against " << base->named << " (" << base->commit.substr(0, 12) << "): " << changes << " changes, "
            << loosened << " loosening the gate" << (loosened ? " unaccepted (review them; --accept-loosened passes them)" : "") << "\n";
  return loosened;
}

}  // namespace

// Every file below the GPU folders is read inside the folder: a link that leads out, a folder reached through a
// link, a FIFO or a file in the wrong place is a problem named here, never followed.
int check_baselines(const fs::path& root, const BaseOptions& base) {
  const auto known = known_metrics();
  std::error_code ec;
  if (!fs::exists(fs::symlink_status(root, ec)))
    throw std::runtime_error(root.string() + " does not exist: no baselines have been recorded there yet" +
                             first_baselines_advice(root) + "; or give the folder that holds them with --baselines");
  if (!fs::is_directory(root, ec)) throw std::runtime_error(root.string() + " is not a folder of baselines: give the folder that holds them with --baselines");
  const g::BaselineFolder baselines(root);  // refuses a folder an interrupted promotion left half-written
  const g::ConfinedFolder& folder = *baselines.folder();
  std::size_t tests = 0;
  std::map<fs::path, g::SuiteFile> read;
  std::vector<std::string> problems;
  if (const auto stray = stray_journal(folder)) problems.push_back(*stray);
  const auto is_json = [](const std::string& name) { return name.ends_with(".json"); };
  for (const g::GpuKey& gpu : baselines.gpus(problems)) {
    // Links are listed by their own names, so that a link from one suite's name to another's file is caught.
    for (const fs::path& relative : folder.files_below(gpu.relative_dir(), is_json, problems, /*links_as_entries=*/true)) {
      try {
        g::SuiteFile file = g::read_suite_file(folder, relative, &known);
        const fs::path expected = g::suite_file_relative(gpu, file.suite);
        const bool in_place = relative == expected || (folder.kind(expected) && folder.locate(expected).relative == relative);
        if (!(file.gpu == gpu) || !in_place)
          throw g::BaselineError(folder.display(relative).string() + ": holds " + file.suite + " for " + file.gpu.arch + "/" +
                                 file.gpu.model + ", which belongs in " + folder.display(expected).string());
        tests += file.tests.size();
        read.emplace(relative, std::move(file));
      } catch (const std::exception& e) {
        problems.push_back(e.what());
      }
    }
  }
  // A problem names a file of the folder, whatever its name holds: each on one line, escaped.
  for (const std::string& p : problems) std::cerr << "bankgate: " << g::terminal_line(p) << "\n";
  std::cout << g::terminal_line(root.string()) << ": " << read.size() << " baseline files with " << tests << " tests read, " << problems.size()
            << " unusable\n";
  if (read.empty() && problems.empty())
    std::cerr << "bankgate: " << g::terminal_line(root.string()) << " holds no baselines yet" << first_baselines_advice(root) << "\n";
  const std::size_t loosened = show_baseline_changes(folder, read, base, known);
  if (!problems.empty() || read.empty()) return exit_not_measured;
  return loosened > 0 ? exit_regression : exit_ok;
}

int kernel_names(const std::vector<std::string>& names) {
  std::vector<std::string> input = names;
  if (input.empty())
    for (std::string line; std::getline(std::cin, line);)
      if (!line.empty()) input.push_back(line);
  nlohmann::json out = nlohmann::json::array();
  for (const std::string& name : input) out.push_back({{"name", name}, {"bare", bankgate::kernel_base_name(name)}});
  std::cout << g::json_text(out) << "\n";
  return exit_ok;
}

}  // namespace bankgate::cli
