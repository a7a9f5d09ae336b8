// The gate summary's model: a fold over the run's plans and result records, each planned test judged once by
// bankgate (protocol/judgement.hpp) from its measurement and the baseline read here. Each output
// format has its renderer in a file of its own: summary_console.cpp, summary_markdown.cpp, summary_junit.cpp,
// summary_json.cpp and html_report.cpp.
#include <bankgate/gate/reports/gate_summary.hpp>

#include <algorithm>
#include <cctype>
#include <functional>
#include <stdexcept>
#include <cmath>
#include <map>
#include <set>
#include <sstream>

#include <bankgate/gate/rules/baseline.hpp>
#include <bankgate/gate/rules/baseline_json.hpp>
#include <bankgate/gate/rules/baseline_changes.hpp>
#include <bankgate/gate/store/baseline_folder.hpp>
#include <bankgate/gate/store/candidates.hpp>
#include <bankgate/gate/rules/comparison.hpp>
#include <bankgate/gate/store/confined_folder.hpp>
#include <bankgate/gate/store/parallel_map.hpp>
#include <bankgate/gate/reports/report.hpp>
#include <bankgate/gate/protocol/run_protocol.hpp>
#include <bankgate/gate/protocol/test_result.hpp>
#include <bankgate/gate/protocol/judgement.hpp>
#include <bankgate/gate/protocol/test_plan.hpp>
#include <bankgate/metrics.hpp>

namespace bankgate::gate {
namespace {

namespace fs = std::filesystem;
namespace h = bankgate::gate;

struct Measured {
  h::GpuKey gpu;
  std::string gpu_name;
  h::TestRecord record;
  fs::path baseline_dir;  // the folder the suite that measured it gates against
  h::Provenance provenance;
};

// GoogleTest begins each message with "file:line" and, for a plain failure, a line "Failed"; neither helps
// the reader of a summary.
std::string without_location(const std::string& message) {
  std::istringstream in(message);
  std::string line, out;
  for (int n = 0; std::getline(in, line); ++n) {
    const auto colon = line.rfind(':');
    const bool location = n == 0 && colon != std::string::npos && colon + 1 < line.size() &&
                          std::all_of(line.begin() + static_cast<std::ptrdiff_t>(colon) + 1, line.end(),
                                      [](unsigned char c) { return std::isdigit(c); });
    if (location || (out.empty() && (line == "Failed" || line == "Skipped"))) continue;
    out += (out.empty() ? "" : "\n") + line;
  }
  return out;
}

// One record file of the results folder: where it is, and the record where it could be read.
struct RecordFile {
  fs::path relative;
  std::optional<h::TestResultRecord> record;
};

// Each file below `dir` whose name ends with `suffix`, read inside the folder and parsed by `parse` (given its text
// and its name for messages) on the machine's cores, then handed to `use` with its place, in the listing's order.
// The files were written by the run of a pull request's tests: one that leads out of the folder (a link, absolute or
// through '..'), cannot be read, or that `parse` or `use` cannot take is a problem of the run (`what` names its
// kind), never used.
template <typename Parsed>
void read_run_files(const fs::path& dir, const std::string& suffix, const std::string& what,
                    std::vector<std::string>& problems,
                    const std::function<Parsed(const std::string&, const std::string&)>& parse,
                    const std::function<void(const fs::path&, Parsed&)>& use) {
  std::error_code ec;
  if (dir.empty() || !fs::is_directory(dir, ec)) return;
  std::vector<std::string> refused;
  try {
    const h::ConfinedFolder folder(dir, "the test results folder");
    const auto wanted = [&](const std::string& name) { return name.ends_with(suffix); };
    const std::vector<fs::path> found = folder.files_below(".", wanted, refused);
    auto parsed = h::map_in_parallel<Parsed>(
        found.size(), [&](std::size_t i) { return parse(folder.read(found[i]), folder.display(found[i]).string()); });
    for (std::size_t i = 0; i < found.size(); ++i) try {
        use(found[i].lexically_normal(), parsed[i].get());
      } catch (const std::exception& e) {  // ResultRecordError, InputFileError, ConfinementError
        refused.push_back(e.what());
      }
  } catch (const h::ConfinementError& e) {
    refused.push_back(e.what());
  }
  for (const std::string& why : refused) problems.push_back(what + " was not read: " + why);
}

// Every record file, subfolders' too, so that a second record of a test is seen and refused, never chosen; a file
// that cannot be parsed is kept without its record.
std::vector<RecordFile> read_result_records(const fs::path& dir, std::vector<std::string>& problems) {
  struct Parsed {
    std::optional<h::TestResultRecord> record;
    std::string error;  // why the text is no record
  };
  std::vector<RecordFile> files;
  read_run_files<Parsed>(
      dir, h::test_result_suffix, "a test's result record", problems,
      [](const std::string& text, const std::string& origin) {
        Parsed p;
        try {
          p.record = h::parse_result_record(text, origin);
        } catch (const std::exception& e) {  // ResultRecordError
          p.error = e.what();
        }
        return p;
      },
      [&](const fs::path& relative, Parsed& p) {
        files.push_back(RecordFile{relative, std::move(p.record)});
        if (!p.error.empty()) throw std::runtime_error(p.error);
      });
  return files;
}

// The plans of the run's measuring runs, in the order of their files; one whose run could not start its tests is a
// problem of the whole run.
std::vector<h::TestPlan> read_plans(const fs::path& dir, std::vector<std::string>& problems) {
  std::vector<h::TestPlan> plans;
  read_run_files<h::TestPlan>(
      dir, h::test_plan_suffix, "a test plan", problems,
      [](const std::string& text, const std::string& origin) { return h::parse_plan(text, origin); },
      [&](const fs::path&, h::TestPlan& plan) {
        if (!plan.problem.empty())
          problems.push_back("the measuring run of " + plan.program + " (shard " + std::to_string(plan.shard) +
                             ") could not run its tests: " + plan.problem);
        plans.push_back(std::move(plan));
      });
  return plans;
}

// The planned tests, each once, in the plans' order.
std::vector<std::string> planned_tests(const std::vector<h::TestPlan>& plans) {
  std::vector<std::string> tests;
  std::set<std::string> seen;
  for (const h::TestPlan& plan : plans)
    for (const std::string& name : plan.tests)
      if (seen.insert(name).second) tests.push_back(name);
  return tests;
}

// Every candidate under <dir>/<arch>/<model>/, by "Suite.test". A machine with GPUs of two models has two.
std::map<std::string, Measured> read_measurements(const fs::path& dir, std::vector<std::string>& problems) {
  std::map<std::string, Measured> measured;
  std::error_code ec;
  if (dir.empty() || !fs::is_directory(dir, ec)) return measured;
  std::vector<std::string> refused;  // GPU folders that are links: never followed
  try {
    for (const h::GpuKey& gpu : h::gpu_folders(h::ConfinedFolder(dir, "the candidates folder"), refused)) {
      try {
        for (const auto& [suite, file] : h::read_candidates(dir, gpu))
          for (const auto& [test, record] : file.tests)
            measured[suite + "." + test] = {gpu, file.provenance.gpu_name, record, file.baseline_dir, file.provenance};
      } catch (const h::BaselineError& e) {
        problems.push_back(std::string("unreadable candidate: ") + e.what());
      }
    }
  } catch (const h::ConfinementError& e) {
    refused.push_back(e.what());
  }
  for (const std::string& why : refused) problems.push_back(std::string("unreadable candidate: ") + why);
  return measured;
}

// The findings that are not a pass, as table rows (the suite process's, or those a comparison passes in).
std::vector<MetricChange> changes_of(const std::vector<h::Finding>& findings, bool wrong_output) {
  std::vector<MetricChange> changes;
  if (wrong_output)
    changes.push_back(
        {"output against the CPU reference", "", "differs", "matches", "", "", "wrong output", std::nullopt});
  for (const h::Finding& f : findings) {
    if (f.verdict == h::Verdict::pass) continue;
    const bool moved =
        f.verdict == h::Verdict::counter_changed || f.verdict == h::Verdict::slower || f.verdict == h::Verdict::faster;
    const std::string what = f.timing ? "duration (median) [ns]" : std::string(display_name(f.metric));
    changes.push_back({f.kernel.empty() ? what : f.kernel + ": " + what, f.timing ? "" : f.metric,
                       f.verdict == h::Verdict::not_measured ? "-" : h::format_number(f.measured),
                       f.verdict == h::Verdict::not_in_baseline ? "-" : h::format_number(f.baseline),
                       moved ? h::format_change(f.measured, f.baseline) : "", f.tolerance.empty() ? "-" : f.tolerance,
                       h::to_string(f.verdict), f});
  }
  return changes;
}

// Each baselines folder a run names, opened once; one that cannot be used (half-written by an interrupted
// promotion, not a folder) is a problem of the whole run, named once with its remedy.
class BaselineFolders {
 public:
  const h::BaselineFolder* open(const fs::path& root, std::vector<std::string>& problems) {
    auto [it, fresh] = folders_.try_emplace(root);
    if (fresh) {
      try {
        it->second.emplace(root);
      } catch (const h::BaselineError& e) {
        problems.push_back(e.what());
      }
    }
    return it->second ? &*it->second : nullptr;
  }

 private:
  std::map<fs::path, std::optional<h::BaselineFolder>> folders_;
};

// What the run left behind, read once: the tests' result records, the candidates, and the baselines they are gated
// against (each baselines folder and suite file opened once, however many of its tests the run has). A file
// that cannot be read is a problem of the run, or the reason of the tests it concerns.
class RunFiles {
 public:
  RunFiles(const GateInputs& in, std::vector<std::string>& problems, RunProvenance& provenance)
      : in_(in),
        problems_(problems),
        provenance_(provenance),
        records_(read_result_records(in.gtest_results, problems)),
        measured_(read_measurements(in.candidates, problems)) {
    const auto names = gated_counter_names();
    known_.insert(names.begin(), names.end());
  }

  // One planned test: what its files say, judged once.
  TestResult result_of(const std::string& name);
  // The record files that no planned test owns, as problems of the run: they are refused, never read as a verdict.
  void refuse_unplanned(const std::vector<std::string>& planned);

 private:
  const h::TestRecord* add_measurement(TestResult& t, const Measured& m, fs::path& file);
  const std::optional<h::SuiteFile>& suite_file(const fs::path& root, const h::GpuKey& gpu, const std::string& suite,
                                                const fs::path& file);
  const h::TestResultRecord* record_of(const std::string& name, std::string& refused) const;
  void explain(TestResult& t, const h::Judgement& judged, const Measured* m, const h::TestRecord* baseline,
               const fs::path& file) const;
  void note_changes(const fs::path& root, const h::GpuKey& gpu, const std::string& suite, const fs::path& file);
  void show_changes(TestResult& t, const fs::path& file) const;

  const GateInputs& in_;
  std::vector<std::string>& problems_;
  RunProvenance& provenance_;
  std::vector<RecordFile> records_;
  std::map<std::string, Measured> measured_;
  std::set<std::string> known_;  // the metrics a baseline may hold
  BaselineFolders folders_;
  std::map<fs::path, std::optional<h::SuiteFile>> baselines_;   // read once per file; nullopt: absent
  std::map<fs::path, std::string> unusable_;                    // and why a file could not be read
  std::map<fs::path, std::vector<h::BaselineChange>> changes_;  // what this change did to each, against the base
};

TestResult RunFiles::result_of(const std::string& name) {
  TestResult t;
  t.name = name;
  const auto dot = t.name.find('.');
  t.suite = t.name.substr(0, dot);
  t.test = dot == std::string::npos ? "" : t.name.substr(dot + 1);
  std::string refused;
  const h::TestResultRecord* record = record_of(name, refused);
  if (record) {
    t.seconds = record->seconds;
    t.properties = record->properties;
    if (const auto d = t.properties.find(protocol::property::device); d != t.properties.end()) t.device = d->second;
    for (const std::string& m : record->messages) t.reason += (t.reason.empty() ? "" : "\n\n") + without_location(m);
  }
  const auto m = measured_.find(t.name);
  const Measured* measured = m == measured_.end() ? nullptr : &m->second;
  const h::TestRecord* baseline = nullptr;
  fs::path file;
  if (measured) baseline = add_measurement(t, *measured, file);
  t.refresh = h::refresh_command(in_.refresh, t.suite, t.test);
  const h::Judgement judged =
      h::judge({name, record, measured ? &measured->record : nullptr, baseline, in_.fail_on_speedup, refused});
  explain(t, judged, measured, baseline, file);
  show_changes(t, file);
  return t;
}

// The test's one record: the file its name gives, at the top of the results folder. Where any other file holds a
// record of the test too (a copy, a subfolder), none is taken, and `refused` says why.
const h::TestResultRecord* RunFiles::record_of(const std::string& name, std::string& refused) const {
  const fs::path own = h::test_file_name(name) + h::test_result_suffix;
  const RecordFile* found = nullptr;
  std::vector<std::string> files;
  for (const RecordFile& f : records_) {
    const bool names_it = f.record && f.record->suite + "." + f.record->test == name;
    if (f.relative == own) found = &f;
    if (f.relative == own || names_it) files.push_back(f.relative.string());
  }
  if (files.size() > 1) {
    std::string list;
    for (const std::string& f : files) list += (list.empty() ? "" : ", ") + f;
    refused = "more than one result record names this test (" + list + "); none is taken";
    return nullptr;
  }
  return found && found->record ? &*found->record : nullptr;
}

void RunFiles::refuse_unplanned(const std::vector<std::string>& planned) {
  std::set<fs::path> owned;
  for (const std::string& name : planned) owned.insert(h::test_file_name(name) + h::test_result_suffix);
  for (const RecordFile& f : records_)
    if (!owned.contains(f.relative))
      problems_.push_back("the result record " + f.relative.string() +
                          " is of no planned test (or not at the top of the results folder): refused");
}

// What the change did to the suite's baseline, against the base branch's copy (where there is one that reads).
void RunFiles::note_changes(const fs::path& root, const h::GpuKey& gpu, const std::string& suite,
                            const fs::path& file) {
  if (!in_.base_baseline || !baselines_[file]) return;
  const std::optional<std::string> text = in_.base_baseline(root, h::suite_file_relative(gpu, suite));
  if (!text) return;  // a suite new in this change: nothing was there to loosen
  try {
    changes_[file] = h::baseline_changes(h::parse_suite_file(*text, "the base branch's " + file.string(), &known_),
                                         *baselines_[file]);
  } catch (const h::BaselineError&) {
    // The base's file is of another schema or unreadable: this change's file is the only one to go by.
  }
}

// Every change to the test's baseline is named in its result; one that loosens the gate fails the test unless the
// run accepts it (a reviewer's decision, --accept-loosened).
void RunFiles::show_changes(TestResult& t, const fs::path& file) const {
  const auto changes = changes_.find(file);
  if (changes == changes_.end()) return;
  for (const h::BaselineChange& c : changes->second) {
    if (c.test != t.test) continue;
    const bool fails = c.loosens && !in_.accept_loosened;
    if (fails) {
      t.changes.push_back({c.figure + " (loosened in this change)", "", c.after, c.before, "", "-",
                           "LOOSENED in this change", std::nullopt});
      if (t.outcome == Outcome::passed) t.outcome = Outcome::regressed;
    }
    t.reason += (t.reason.empty() ? "" : "\n") + c.text() +
                (fails       ? ": the gate fails until a reviewer accepts it (--accept-loosened)"
                 : c.loosens ? " (accepted)"
                             : "");
  }
}

// The test's measurement, and the baseline it is gated against where there is one (returned, and kept in the
// result); `file` is where that baseline is, or would be.
const h::TestRecord* RunFiles::add_measurement(TestResult& t, const Measured& m, fs::path& file) {
  t.gpu = m.gpu_name;
  t.measured = m.record;
  note_measurement(provenance_, m.provenance);
  if (m.record.timing) t.median_ns = m.record.timing->median_ns;
  fs::path folder = in_.baselines;
  std::optional<std::string> refused;  // why the folder the candidate names is not read
  if (folder.empty() && m.baseline_dir.empty()) folder = "baselines";
  if (folder.empty()) {
    try {
      folder = h::candidate_baselines_folder(m.baseline_dir, in_.project, t.suite);
    } catch (const h::BaselineError& e) {
      folder = m.baseline_dir;
      refused = e.what();
    }
  }
  file = h::suite_file_path(folder, m.gpu, t.suite);
  t.baseline_file = file.string();
  if (refused) {
    unusable_[file] = *refused;
    return nullptr;
  }
  const h::TestRecord* baseline = nullptr;
  if (const std::optional<h::SuiteFile>& read = suite_file(folder, m.gpu, t.suite, file))
    if (const auto it = read->tests.find(t.test); it != read->tests.end()) baseline = &it->second;
  if (baseline) t.baseline = *baseline;
  return baseline;
}

// The suite's baseline file, read on first use; nullopt where it is absent or cannot be used (unusable_ says why).
const std::optional<h::SuiteFile>& RunFiles::suite_file(const fs::path& root, const h::GpuKey& gpu,
                                                        const std::string& suite, const fs::path& file) {
  if (!baselines_.count(file)) {
    baselines_[file] = std::nullopt;
    if (const h::BaselineFolder* folder = folders_.open(root, problems_)) {
      try {
        baselines_[file] = folder->read(gpu, suite, &known_);
        if (baselines_[file]) note_baseline(provenance_, baselines_[file]->provenance);
        note_changes(root, gpu, suite, file);
      } catch (const h::BaselineError& e) {
        unusable_[file] = e.what();
      }
    } else {
      unusable_[file] = "its baselines folder cannot be used (the problem is named below the table)";
    }
  }
  return baselines_[file];
}

// The outcome is bankgate's judgement (protocol/judgement.hpp); the reason says what the record said, why the
// judgement differs from it, and what kept a measured test from being judged.
void RunFiles::explain(TestResult& t, const h::Judgement& judged, const Measured* m, const h::TestRecord* baseline,
                       const fs::path& file) const {
  t.outcome = judged.outcome;
  t.comparison = judged.comparison;
  t.changes = changes_of(judged.findings, judged.wrong_output);
  for (const std::string& note : judged.notes) t.reason = note + (t.reason.empty() ? "" : "\n\n" + t.reason);
  const auto unusable = unusable_.find(file);
  if (t.outcome == Outcome::not_measured && m && !baseline) {  // measured, but nothing to gate against
    if (unusable != unusable_.end())
      t.reason = "unusable baseline: " + unusable->second + (t.reason.empty() ? "" : "\n\n" + t.reason);
    else
      t.reason = "no baseline for " + t.name + " in " + file.string() + (t.reason.empty() ? "" : "\n\n" + t.reason);
    std::error_code ec;
    if (!fs::exists(file, ec)) t.refresh += " --new-gpu";
  } else if (m && unusable != unusable_.end()) {
    t.reason += std::string(t.reason.empty() ? "" : "\n\n") + "its baseline is not shown: " + unusable->second;
  }
  if (t.outcome != Outcome::passed && t.reason.empty())
    t.reason = "its result record gives no reason; its output is in its suite's measuring test's log";
}

}  // namespace

int GateSummary::exit_code() const {
  const auto regressed = [](const TestResult& t) { return t.outcome == Outcome::regressed; };
  const auto passed = [](const TestResult& t) { return t.outcome == Outcome::passed; };
  if (std::any_of(tests.begin(), tests.end(), regressed)) return protocol::exit_regression;
  if (!problems.empty() || tests.empty()) return protocol::exit_not_measured;
  return std::all_of(tests.begin(), tests.end(), passed) ? protocol::exit_ok : protocol::exit_not_measured;
}

// A fold over the run's plans and records: each planned test, judged once.
GateSummary summarize(const GateInputs& in) {
  GateSummary s;
  s.provenance = provenance_now();
  const std::vector<std::string> planned = planned_tests(read_plans(in.gtest_results, s.problems));
  RunFiles files(in, s.problems, s.provenance);
  for (const std::string& name : planned) s.tests.push_back(files.result_of(name));
  files.refuse_unplanned(planned);
  if (s.tests.empty())
    s.problems.push_back("no GPU test ran: no measuring run planned a test in " + in.gtest_results.string() +
                         " (a ctest filter that matches no test, or a build without GPU suites)");
  if (s.provenance.commit.empty() && in.source_tree)
    if (const std::optional<SourceTree> tree = in.source_tree()) {
      s.provenance.commit = tree->commit;
      s.provenance.dirty = tree->dirty;
    }
  return s;
}

GateSummary summarize_comparison(const h::PooledRuns& base_runs, const h::PooledRuns& head_runs,
                                 const std::vector<h::ComparisonRow>& rows, bool fail_on_speedup) {
  std::map<std::string, const h::ComparisonRow*> row_of;
  for (const h::ComparisonRow& row : rows) row_of[row.test] = &row;
  GateSummary s;
  s.provenance = provenance_now();
  for (const h::Provenance& p : head_runs.provenance) note_measurement(s.provenance, p);
  for (const h::Provenance& p : base_runs.provenance) note_baseline(s.provenance, p);
  const auto& base = base_runs.records;
  for (const auto& [name, measured] : head_runs.records) {
    TestResult t;
    t.name = name;
    const auto dot = name.find('.');
    t.suite = name.substr(0, dot);
    t.test = dot == std::string::npos ? "" : name.substr(dot + 1);
    t.measured = measured;
    if (measured.timing) t.median_ns = measured.timing->median_ns;
    const auto b = base.find(name);
    if (b == base.end()) {
      t.outcome = Outcome::not_measured;
      t.reason = "the base build did not measure " + name;
    } else if (const auto row = row_of.find(name); row == row_of.end()) {
      t.baseline = b->second;
      t.outcome = Outcome::not_measured;  // judged once, by compare_runs(), or not at all
      t.reason = "the comparison has no row for " + name + ": it was not judged";
    } else {
      t.baseline = b->second;
      // The comparison's own findings (durations judged by the rounds' noise): the one judgement of the pooled rounds.
      const std::vector<h::Finding>& findings = row->second->findings;
      const bool failed = !measured.correct || std::any_of(findings.begin(), findings.end(), [&](const h::Finding& f) {
        return h::is_failure(f.verdict, fail_on_speedup);
      });
      t.outcome = failed ? Outcome::regressed : Outcome::passed;
      t.changes = changes_of(findings, !measured.correct);
      for (const MetricChange& c : t.changes)
        t.reason +=
            (t.reason.empty() ? "" : "\n") + c.metric + ": " + c.verdict + " " + c.baseline + " -> " + c.measured;
    }
    s.tests.push_back(std::move(t));
  }
  return s;
}

std::string verdict_word(int exit_code) {
  switch (exit_code) {
    case protocol::exit_ok:
      return "passed";
    case protocol::exit_regression:
      return "regressed";
    default:
      return "not measured";
  }
}

}  // namespace bankgate::gate
