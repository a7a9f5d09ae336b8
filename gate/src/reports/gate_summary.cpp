// The gate summary's model: the files a run leaves, read and classified into one result per test. Each output
// format has its renderer in a file of its own: summary_console.cpp, summary_markdown.cpp, summary_junit.cpp,
// summary_json.cpp and html_report.cpp.
#include <bankgate/gate/reports/gate_summary.hpp>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <map>
#include <set>
#include <sstream>

#include <bankgate/gate/rules/baseline.hpp>
#include <bankgate/gate/rules/baseline_changes.hpp>
#include <bankgate/gate/store/baseline_folder.hpp>
#include <bankgate/gate/store/candidates.hpp>
#include <bankgate/gate/rules/comparison.hpp>
#include <bankgate/gate/store/confined_folder.hpp>
#include <bankgate/gate/reports/report.hpp>
#include <bankgate/gate/protocol/run_protocol.hpp>
#include <bankgate/gate/protocol/test_result.hpp>
#include <bankgate/gate/protocol/xml_reader.hpp>
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

// Records are written by the run of a pull request's tests: they are read inside their folder, and one that leads
// out of it (a link, absolute or through '..') or cannot be read is named as a problem of the run, never used.
std::map<std::string, h::TestResultRecord> read_result_records(const fs::path& dir,
                                                               std::vector<std::string>& problems) {
  std::map<std::string, h::TestResultRecord> records;
  std::error_code ec;
  if (dir.empty() || !fs::is_directory(dir, ec)) return records;
  std::vector<std::string> refused;
  try {
    const h::ConfinedFolder folder(dir, "the test results folder");
    const auto is_record = [](const std::string& name) { return name.ends_with(h::test_result_suffix); };
    for (const fs::path& relative : folder.files_below(".", is_record, refused)) {
      try {
        h::TestResultRecord record = h::parse_result_record(folder.read(relative), folder.display(relative).string());
        records[record.suite + "." + record.test] = std::move(record);
      } catch (const std::exception& e) {  // ResultRecordError, InputFileError
        refused.push_back(e.what());
      }
    }
  } catch (const h::ConfinementError& e) {
    refused.push_back(e.what());
  }
  for (const std::string& why : refused) problems.push_back("a test's result record was not read: " + why);
  return records;
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

// ctest's wall time for the test: nullopt where its report gives none, or gives what is no duration (text, a
// negative or infinite number), so that no such value reaches the reports.
std::optional<double> duration_of(const XmlElement& testcase) {
  const std::string text = testcase.attribute("time");
  double seconds = 0.0;
  const char* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, seconds);
  if (text.empty() || error != std::errc() || stop != end || !std::isfinite(seconds) || seconds < 0.0)
    return std::nullopt;
  return seconds;
}

// ctest's JUnit report; a missing or unreadable one is a problem of the whole run.
std::optional<XmlElement> read_junit(const fs::path& junit, std::vector<std::string>& problems) {
  std::error_code ec;
  if (!fs::exists(junit, ec)) {
    problems.push_back("no JUnit report at " + junit.string() +
                       ": ctest did not run the GPU tests (its output says why)");
    return std::nullopt;
  }
  try {
    return read_xml_file(junit);
  } catch (const XmlError& e) {
    problems.push_back(e.what());
    return std::nullopt;
  }
}

// How ctest says the test ended: "run", "fail", "notrun" or "disabled".
std::string status_of(const XmlElement& testcase) {
  // ctest writes status="run|fail|notrun|disabled"; other JUnit writers only the child elements.
  std::string status = testcase.attribute("status");
  if (status.empty())
    status = testcase.child("failure") || testcase.child("error") ? "fail"
             : testcase.child("skipped")                          ? "notrun"
                                                                  : "run";
  return status;
}

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

  // One gated test of ctest's report: what its files say, then its outcome.
  TestResult result_of(const XmlElement& testcase, const std::string& name);

 private:
  const h::TestRecord* add_measurement(TestResult& t, const Measured& m, fs::path& file);
  const std::optional<h::SuiteFile>& suite_file(const fs::path& root, const h::GpuKey& gpu, const std::string& suite,
                                                const fs::path& file);
  void classify(TestResult& t, const XmlElement& testcase, const h::TestResultRecord* record, const Measured* m,
                const h::TestRecord* baseline, const fs::path& file) const;
  void note_changes(const fs::path& root, const h::GpuKey& gpu, const std::string& suite, const fs::path& file);
  void show_changes(TestResult& t, const fs::path& file) const;

  const GateInputs& in_;
  std::vector<std::string>& problems_;
  RunProvenance& provenance_;
  std::map<std::string, h::TestResultRecord> records_;
  std::map<std::string, Measured> measured_;
  std::set<std::string> known_;  // the metrics a baseline may hold
  BaselineFolders folders_;
  std::map<fs::path, std::optional<h::SuiteFile>> baselines_;   // read once per file; nullopt: absent
  std::map<fs::path, std::string> unusable_;                    // and why a file could not be read
  std::map<fs::path, std::vector<h::BaselineChange>> changes_;  // what this change did to each, against the base
};

TestResult RunFiles::result_of(const XmlElement& testcase, const std::string& name) {
  TestResult t;
  t.name = name;
  const auto dot = t.name.find('.');
  t.suite = t.name.substr(0, dot);
  t.test = dot == std::string::npos ? "" : t.name.substr(dot + 1);
  t.seconds = duration_of(testcase);
  const auto r = records_.find(t.name);
  const h::TestResultRecord* record = r == records_.end() ? nullptr : &r->second;
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
  classify(t, testcase, record, measured, baseline, file);
  show_changes(t, file);
  return t;
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

// The outcome is the one the suite process recorded. ctest's report decides only for a test it did not run (not
// run, disabled) and for one without a record: its process died during it, or its suite never reached it.
void RunFiles::classify(TestResult& t, const XmlElement& testcase, const h::TestResultRecord* record, const Measured* m,
                        const h::TestRecord* baseline, const fs::path& file) const {
  const std::string status = status_of(testcase);
  if (status != "run" && status != "fail") {
    t.outcome = Outcome::skipped;
    if (t.reason.empty()) {
      const XmlElement* skipped = testcase.child("skipped");
      const std::string why = skipped ? skipped->attribute("message") : "";
      t.reason = "ctest did not run it or it skipped itself" + (why.empty() ? "" : " (" + why + ")");
    }
  } else if (record) {
    t.outcome = record->outcome;
    t.changes = changes_of(record->findings, record->wrong_output);
    // ctest's failure is never turned into a pass by a record that says otherwise.
    if (status == "fail" && t.outcome == Outcome::passed) {
      t.outcome = Outcome::not_measured;
      t.reason =
          "ctest failed this test, but its result record says it passed: the record is not taken over "
          "ctest's verdict" +
          (t.reason.empty() ? "" : "\n\n" + t.reason);
    }
  } else {
    // A test that left no record was never judged: not measured, whatever ctest's status says.
    t.outcome = Outcome::not_measured;
    if (status == "run" && t.reason.empty())
      t.reason = "ctest reports it run, but it left no result record: it was not measured";
  }
  const auto unusable = unusable_.find(file);
  if (t.outcome == Outcome::not_measured && m && !baseline) {  // measured, but nothing to gate against
    if (unusable != unusable_.end())
      t.reason = "unusable baseline: " + unusable->second + (t.reason.empty() ? "" : "\n\n" + t.reason);
    else if (t.reason.empty())
      t.reason = "no baseline for " + t.name + " in " + file.string();
    std::error_code ec;
    if (!fs::exists(file, ec)) t.refresh += " --new-gpu";
  } else if (m && unusable != unusable_.end()) {
    // The suite process judged it against its own baselines; the reports cannot show the baseline that names.
    t.reason += std::string(t.reason.empty() ? "" : "\n\n") + "its baseline is not shown: " + unusable->second;
  }
  if (t.outcome != Outcome::passed && t.reason.empty()) {
    const XmlElement* failure = testcase.child("failure");
    const std::string why = failure ? failure->attribute("message") : "";
    t.reason =
        "no result record for this test: its suite's process ended before the test finished (a crash, a "
        "timeout or a kill)" +
        (why.empty() ? "" : " [ctest: " + why + "]") + "; its output is in the JUnit file";
  }
}

}  // namespace

int GateSummary::exit_code() const {
  const auto regressed = [](const TestResult& t) { return t.outcome == Outcome::regressed; };
  const auto passed = [](const TestResult& t) { return t.outcome == Outcome::passed; };
  if (std::any_of(tests.begin(), tests.end(), regressed)) return protocol::exit_regression;
  if (!problems.empty() || tests.empty()) return protocol::exit_not_measured;
  return std::all_of(tests.begin(), tests.end(), passed) ? protocol::exit_ok : protocol::exit_not_measured;
}

// Read, then classify: each gated test of ctest's report, explained by the files the run left.
GateSummary summarize(const GateInputs& in) {
  GateSummary s;
  s.provenance = provenance_now();
  const std::optional<XmlElement> junit = read_junit(in.junit, s.problems);
  if (!junit) return s;
  RunFiles files(in, s.problems, s.provenance);
  for (const XmlElement* testcase : junit->descendants("testcase")) {
    const std::string name = testcase->attribute("name");
    // A suite's measuring run (bankgate run-suite) is no gated test; it fails only when it could not run at all.
    if (name.starts_with(protocol::measure_test_prefix)) {
      const std::string status = testcase->attribute("status");
      if (status == "fail" || testcase->child("failure"))
        s.problems.push_back("the measuring run " + name + " failed: its output (in the JUnit file) says why");
      continue;
    }
    s.tests.push_back(files.result_of(*testcase, name));
  }
  if (s.tests.empty())
    s.problems.push_back("no GPU test ran: " + in.junit.string() +
                         " lists none (a ctest filter that matches no test, or "
                         "a build without GPU suites)");
  if (s.provenance.commit.empty() && !in.source_commit.empty()) {
    s.provenance.commit = in.source_commit;
    s.provenance.dirty = in.source_dirty;
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
    } else {
      t.baseline = b->second;
      // The comparison's own findings (durations judged by the rounds' noise) where it has them.
      const auto row = row_of.find(name);
      const std::vector<h::Finding> findings =
          row != row_of.end() ? row->second->findings : h::compare(b->second, measured);
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
