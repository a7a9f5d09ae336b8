#include <bankgate/gate/gate_summary.hpp>

#include <bankgate/gate/baseline_folder.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <map>
#include <set>
#include <sstream>

#include <bankgate/gate/baseline.hpp>
#include <bankgate/gate/candidates.hpp>
#include <bankgate/gate/comparison.hpp>
#include <bankgate/gate/report.hpp>
#include <bankgate/gate/run_protocol.hpp>
#include <bankgate/gate/test_report.hpp>
#include <bankgate/metrics.hpp>

#include <nlohmann/json.hpp>
#include <pugixml.hpp>

#include <bankgate/gate/xml_reader.hpp>

namespace bankgate::gate {
namespace {

namespace fs = std::filesystem;
namespace h = bankgate::gate;

// What GoogleTest's own report says about one test.
struct GtestReport {
  std::vector<std::string> messages;  // failure messages, or the skip message
  std::string device;
  std::map<std::string, std::string> properties;  // what the test recorded (RecordProperty)
};

struct Measured {
  h::GpuKey gpu;
  std::string gpu_name;
  h::TestRecord record;
  fs::path baseline_dir;  // the folder the suite that measured it gates against
};

bool starts_with(const std::string& text, std::string_view prefix) { return text.rfind(prefix, 0) == 0; }

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

std::string first_line(const std::string& text, std::size_t width) {
  std::string line = text.substr(0, text.find('\n'));
  if (line.size() > width) line = line.substr(0, width - 3) + "...";
  return line;
}

std::map<std::string, GtestReport> read_gtest_reports(const fs::path& dir) {
  std::map<std::string, GtestReport> reports;
  std::error_code ec;
  if (dir.empty() || !fs::is_directory(dir, ec)) return reports;
  for (const auto& entry : fs::recursive_directory_iterator(dir, ec)) {
    if (!entry.is_regular_file() || entry.path().extension() != ".xml") continue;
    XmlElement root;
    try {
      root = read_xml_file(entry.path());
    } catch (const XmlError&) {
      // A report cut short by a crash, or no regular file (read_xml_file never waits on a FIFO): the test's ctest
      // record says how it ended.
      continue;
    }
    for (const XmlElement* testcase : root.descendants("testcase")) {
      const h::TestReportEntry test = h::read_testcase(*testcase);
      GtestReport& r = reports[test.suite + "." + test.test];
      for (const std::string& m : test.messages) r.messages.push_back(without_location(m));
      r.properties = test.properties;
      if (const auto d = r.properties.find(protocol::property::device); d != r.properties.end()) r.device = d->second;
    }
  }
  return reports;
}

// Every candidate under <dir>/<arch>/<model>/, by "Suite.test". A machine with GPUs of two models has two.
std::map<std::string, Measured> read_measurements(const fs::path& dir, std::vector<std::string>& problems) {
  std::map<std::string, Measured> measured;
  std::error_code ec;
  if (dir.empty() || !fs::is_directory(dir, ec)) return measured;
  for (const auto& arch : fs::directory_iterator(dir))
    if (arch.is_directory())
      for (const auto& model : fs::directory_iterator(arch.path())) {
        if (!model.is_directory()) continue;
        const h::GpuKey gpu{arch.path().filename().string(), model.path().filename().string()};
        try {
          for (const auto& [suite, file] : h::read_candidates(dir, gpu))
            for (const auto& [test, record] : file.tests) measured[suite + "." + test] = {gpu, file.provenance.gpu_name, record, file.baseline_dir};
        } catch (const h::BaselineError& e) {
          problems.push_back(std::string("unreadable candidate: ") + e.what());
        }
      }
  return measured;
}

std::vector<MetricChange> changes_against(const h::TestRecord& baseline, const h::TestRecord& measured) {
  std::vector<MetricChange> changes;
  if (!measured.correct)
    changes.push_back({"output against the CPU reference", "", "differs", "matches", "", "", "wrong output"});
  for (const h::Finding& f : h::compare(baseline, measured)) {
    if (f.verdict == h::Verdict::pass) continue;
    const bool moved = f.verdict == h::Verdict::counter_changed || f.verdict == h::Verdict::slower || f.verdict == h::Verdict::faster;
    changes.push_back({f.timing ? "duration (median) [ns]" : std::string(display_name(f.metric)), f.timing ? "" : f.metric,
                       f.verdict == h::Verdict::not_measured ? "-" : h::format_number(f.measured),
                       f.verdict == h::Verdict::not_in_baseline ? "-" : h::format_number(f.baseline),
                       moved ? h::format_change(f.measured, f.baseline) : "", f.tolerance.empty() ? "-" : f.tolerance,
                       h::to_string(f.verdict)});
  }
  return changes;
}

std::string escape_cell(const std::string& text) {
  std::string out;
  for (const char c : text) {
    if (c == '|') out += "\\|";
    else if (c == '\n') out += "<br>";
    else if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else out += c;
  }
  return out;
}

std::string code_block(const std::string& text) {
  const std::string fence = text.find("```") == std::string::npos ? "```" : "~~~~";
  constexpr std::size_t limit = 4000;  // GitHub caps a step summary at 1 MiB
  const std::string shown = text.size() > limit ? text.substr(0, limit) + "\n... (cut; the whole message is in the JUnit file)" : text;
  return fence + "text\n" + shown + "\n" + fence + "\n";
}

std::string detail(const TestResult& t) {
  switch (t.outcome) {
    case Outcome::passed:
      return t.median_ns ? "median " + h::format_number(*t.median_ns) + " ns" : "";
    case Outcome::regressed: {
      if (t.changes.empty()) return first_line(t.reason, 100);
      const MetricChange& c = t.changes.front();
      std::string text = c.metric + ": " + c.baseline + " -> " + c.measured + (c.change.empty() ? "" : " (" + c.change + ")");
      if (t.changes.size() > 1) text += " and " + std::to_string(t.changes.size() - 1) + " more";
      return text;
    }
    case Outcome::not_measured:
    case Outcome::skipped:
      return first_line(t.reason, 100);
  }
  return "";
}

std::size_t count(const GateSummary& s, Outcome o) {
  return static_cast<std::size_t>(std::count_if(s.tests.begin(), s.tests.end(), [&](const TestResult& t) { return t.outcome == o; }));
}

std::string gpus_of(const GateSummary& s) {
  std::set<std::string> names;
  for (const TestResult& t : s.tests)
    if (!t.gpu.empty()) names.insert(t.gpu);
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

std::string headline(const GateSummary& s) {
  const std::size_t failed = s.tests.size() - count(s, Outcome::passed);
  const std::string gpus = gpus_of(s);
  switch (s.exit_code()) {
    case protocol::exit_ok:
      return "passed: " + std::to_string(s.tests.size()) + " GPU tests" + (gpus.empty() ? "" : " on " + gpus);
    case protocol::exit_regression:
      return "FAILED: " + std::to_string(failed) + " of " + std::to_string(s.tests.size()) + " GPU tests failed, " +
             std::to_string(count(s, Outcome::regressed)) + " of them regressed";
    default:
      if (s.tests.empty()) return "FAILED: no GPU test ran";
      return "FAILED: could not measure " + std::to_string(failed) + " of " + std::to_string(s.tests.size()) + " GPU tests" +
             (failed == 0 ? " (see the problems below)" : "");
  }
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

}  // namespace

std::string to_string(Outcome outcome) {
  switch (outcome) {
    case Outcome::passed: return "passed";
    case Outcome::regressed: return "REGRESSED";
    case Outcome::not_measured: return "NOT MEASURED";
    case Outcome::skipped: return "SKIPPED";
  }
  return "?";
}

int GateSummary::exit_code() const {
  const auto regressed = [](const TestResult& t) { return t.outcome == Outcome::regressed; };
  const auto passed = [](const TestResult& t) { return t.outcome == Outcome::passed; };
  if (std::any_of(tests.begin(), tests.end(), regressed)) return protocol::exit_regression;
  if (!problems.empty() || tests.empty()) return protocol::exit_not_measured;
  return std::all_of(tests.begin(), tests.end(), passed) ? protocol::exit_ok : protocol::exit_not_measured;
}

GateSummary summarize(const GateInputs& in) {
  GateSummary s;
  std::error_code ec;
  if (!fs::exists(in.junit, ec)) {
    s.problems.push_back("no JUnit report at " + in.junit.string() + ": ctest did not run the GPU tests (its output says why)");
    return s;
  }
  XmlElement junit;
  try {
    junit = read_xml_file(in.junit);
  } catch (const XmlError& e) {
    s.problems.push_back(e.what());
    return s;
  }
  const auto reports = read_gtest_reports(in.gtest_results);
  const auto measured = read_measurements(in.candidates, s.problems);
  const auto names = default_metric_names();
  const std::set<std::string> known(names.begin(), names.end());
  BaselineFolders folders;
  std::map<fs::path, std::optional<h::SuiteFile>> baselines;  // read once per file; nullopt: absent
  std::map<fs::path, std::string> unusable;                   // and why a file could not be read

  for (const XmlElement* testcase : junit.descendants("testcase")) {
    TestResult t;
    t.name = testcase->attribute("name");
    // A suite's measuring run (bankgate run-suite) is no gated test; it fails only when it could not run at all.
    if (t.name.starts_with(protocol::measure_test_prefix)) {
      const std::string status = testcase->attribute("status");
      if (status == "fail" || testcase->child("failure"))
        s.problems.push_back("the measuring run " + t.name + " failed: its output (in the JUnit file) says why");
      continue;
    }
    const auto dot = t.name.find('.');
    t.suite = t.name.substr(0, dot);
    t.test = dot == std::string::npos ? "" : t.name.substr(dot + 1);
    try {
      t.seconds = std::stod(testcase->attribute("time", "0"));
    } catch (const std::exception&) {
    }
    // ctest writes status="run|fail|notrun|disabled"; other JUnit writers only the child elements.
    std::string status = testcase->attribute("status");
    if (status.empty()) status = testcase->child("failure") || testcase->child("error") ? "fail" : testcase->child("skipped") ? "notrun" : "run";

    const auto report = reports.find(t.name);
    if (report != reports.end()) {
      t.device = report->second.device;
      t.properties = report->second.properties;
      for (const std::string& m : report->second.messages) t.reason += (t.reason.empty() ? "" : "\n\n") + m;
    }
    const auto m = measured.find(t.name);
    const h::TestRecord* baseline = nullptr;
    fs::path file;
    if (m != measured.end()) {
      t.gpu = m->second.gpu_name;
      t.measured = m->second.record;
      if (m->second.record.timing) t.median_ns = m->second.record.timing->median_ns;
      const fs::path& root = in.baselines.empty() ? m->second.baseline_dir : in.baselines;
      file = h::suite_file_path(root.empty() ? fs::path("baselines") : root, m->second.gpu, t.suite);
      t.baseline_file = file.string();
      if (!baselines.count(file)) {
        baselines[file] = std::nullopt;
        if (const h::BaselineFolder* folder = folders.open(root.empty() ? fs::path("baselines") : root, s.problems)) {
          try {
            baselines[file] = folder->read(m->second.gpu, t.suite, &known);
          } catch (const h::BaselineError& e) {
            unusable[file] = e.what();
          }
        } else {
          unusable[file] = "its baselines folder cannot be used (the problem is named below the table)";
        }
      }
      if (const std::optional<h::SuiteFile>& suite_file = baselines[file])
        if (const auto it = suite_file->tests.find(t.test); it != suite_file->tests.end()) baseline = &it->second;
      if (baseline) t.baseline = *baseline;
    }
    t.refresh = h::refresh_command(in.refresh, t.suite, t.test);

    if (status == "run") {
      t.outcome = Outcome::passed;
    } else if (status != "fail") {
      t.outcome = Outcome::skipped;
      if (t.reason.empty()) {
        const XmlElement* skipped = testcase->child("skipped");
        const std::string why = skipped ? skipped->attribute("message") : "";
        t.reason = "ctest did not run it or it skipped itself" + (why.empty() ? "" : " (" + why + ")");
      }
    } else if (m == measured.end()) {
      t.outcome = Outcome::not_measured;  // it failed before its measurement was written
    } else if (baseline) {
      // Measured, with a baseline to differ from: a regression.
      t.outcome = Outcome::regressed;
      t.changes = changes_against(*baseline, m->second.record);
    } else {
      t.outcome = Outcome::not_measured;  // measured, but nothing to gate against
      if (unusable.count(file)) t.reason = "unusable baseline: " + unusable[file] + (t.reason.empty() ? "" : "\n\n" + t.reason);
      else if (t.reason.empty()) t.reason = "no baseline for " + t.name + " in " + file.string();
      if (!fs::exists(file, ec)) t.refresh += " --new-gpu";
    }
    if (t.outcome != Outcome::passed && t.reason.empty()) {
      const XmlElement* failure = testcase->child("failure");
      const std::string why = failure ? failure->attribute("message") : "";
      t.reason = "GoogleTest wrote no report for this test: its process ended before the test finished (a crash, a "
                 "timeout or a kill)" + (why.empty() ? "" : " [ctest: " + why + "]") + "; its output is in the JUnit file";
    }
    s.tests.push_back(std::move(t));
  }
  if (s.tests.empty())
    s.problems.push_back("no GPU test ran: " + in.junit.string() + " lists none (a ctest filter that matches no test, or "
                         "a build without GPU suites)");
  return s;
}

GateSummary summarize_comparison(const std::map<std::string, h::TestRecord>& base, const std::map<std::string, h::TestRecord>& head,
                                 bool fail_on_speedup) {
  GateSummary s;
  for (const auto& [name, measured] : head) {
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
      const std::vector<h::Finding> findings = h::compare(b->second, measured);
      const bool failed = !measured.correct || std::any_of(findings.begin(), findings.end(), [&](const h::Finding& f) {
        return h::is_failure(f.verdict, fail_on_speedup);
      });
      t.outcome = failed ? Outcome::regressed : Outcome::passed;
      t.changes = changes_against(b->second, measured);
      for (const MetricChange& c : t.changes) t.reason += (t.reason.empty() ? "" : "\n") + c.metric + ": " + c.verdict + " " + c.baseline + " -> " + c.measured;
    }
    s.tests.push_back(std::move(t));
  }
  return s;
}

std::string render_console(const GateSummary& s) {
  std::vector<std::vector<std::string>> rows{{"test", "result", "device", "detail"}};
  for (const TestResult& t : s.tests) rows.push_back({t.name, to_string(t.outcome), t.device.empty() ? "-" : t.device, detail(t)});
  std::ostringstream out;
  if (!s.tests.empty()) out << h::format_table(rows);
  for (const std::string& p : s.problems) out << "problem: " << p << "\n";
  out << "bankgate gate " << headline(s) << "\n";
  return h::terminal_safe(out.str());  // names and messages come from the tests' reports
}

std::string render_markdown(const GateSummary& s) {
  std::ostringstream out;
  out << "## bankgate gate " << headline(s) << "\n\n";
  if (const std::size_t r = count(s, Outcome::regressed), n = count(s, Outcome::not_measured), k = count(s, Outcome::skipped);
      r + n + k > 0)
    out << count(s, Outcome::passed) << " passed, " << r << " regressed, " << n << " could not be measured, " << k
        << " skipped or not run.\n\n";
  for (const std::string& p : s.problems) out << "- **problem:** " << escape_cell(p) << "\n";
  if (!s.problems.empty()) out << "\n";

  std::vector<const TestResult*> failures;
  for (const Outcome o : {Outcome::regressed, Outcome::not_measured, Outcome::skipped})
    for (const TestResult& t : s.tests)
      if (t.outcome == o) failures.push_back(&t);
  if (!failures.empty()) out << "### Failures\n\n";
  for (const TestResult* t : failures) {
    out << "#### `" << t->name << "`: " << (t->outcome == Outcome::regressed ? "regressed" : t->outcome == Outcome::skipped ? "skipped (a failure in the gate)" : "could not be measured")
        << "\n\n";
    if (!t->device.empty() || !t->gpu.empty())
      out << "Measured on device " << (t->device.empty() ? "?" : t->device) << (t->gpu.empty() ? "" : ", " + t->gpu) << ".\n\n";
    if (!t->changes.empty()) {
      out << "| what | measured | baseline | change | tolerance |\n| --- | ---: | ---: | ---: | --- |\n";
      for (const MetricChange& c : t->changes)
        out << "| " << escape_cell(c.metric) << (c.metric_name.empty() ? "" : "<br>`" + c.metric_name + "`") << " | "
            << escape_cell(c.measured) << " | " << escape_cell(c.baseline) << " | " << escape_cell(c.change.empty() ? c.verdict : c.change)
            << " | " << escape_cell(c.tolerance) << " |\n";
      out << "\n";
    }
    if (!t->baseline_file.empty()) out << "Baseline file: `" << t->baseline_file << "`. ";
    if (t->outcome == Outcome::regressed)
      out << "If the change is intended, refresh this test's baseline on the same GPU and commit it: `" << t->refresh << "`\n\n";
    else if (t->refresh.find("--new-gpu") != std::string::npos || starts_with(t->reason, "no baseline"))
      out << "Record a baseline on this GPU: `" << t->refresh << "`\n\n";
    else
      out << "\n\n";
    if (!t->reason.empty()) {
      if (t->changes.empty()) out << code_block(t->reason) << "\n";
      else out << "<details><summary>the test's messages</summary>\n\n" << code_block(t->reason) << "\n</details>\n\n";
    }
  }
  if (!s.tests.empty()) {
    out << "### All tests\n\n| test | result | device | detail |\n| --- | --- | --- | --- |\n";
    for (const TestResult& t : s.tests)
      out << "| `" << t.name << "` | " << to_string(t.outcome) << " | " << escape_cell(t.device.empty() ? "-" : t.device) << " | "
          << escape_cell(detail(t)) << " |\n";
    out << "\n";
  }
  // A step summary is also read as plain text in CI logs: no raw control character from a test's name or
  // message reaches it.
  return h::terminal_safe(out.str());
}

namespace {

std::string not_regular(const fs::path& file) {
  return file.string() + ": is not a regular file (a FIFO, socket, device or folder is in its place); the markdown "
                         "summary is only appended to a regular file, such as $GITHUB_STEP_SUMMARY";
}

}  // namespace

void append_markdown(const fs::path& file, const std::string& markdown) {
  // O_NONBLOCK: opening a FIFO without a reader fails at once (ENXIO) instead of waiting for one; any other file
  // that is not regular is refused before a byte is written to it.
  const int fd = ::open(file.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_NONBLOCK | O_CLOEXEC | O_NOCTTY, 0666);
  if (fd < 0) {
    const int error = errno;
    struct stat info {};
    if (::stat(file.c_str(), &info) == 0 && !S_ISREG(info.st_mode)) throw std::runtime_error(not_regular(file));
    throw std::runtime_error(file.string() + ": cannot be opened for appending: " + std::strerror(error));
  }
  std::string problem;
  struct stat info {};
  if (::fstat(fd, &info) != 0) problem = file.string() + ": cannot be examined: " + std::strerror(errno);
  else if (!S_ISREG(info.st_mode)) problem = not_regular(file);
  for (std::size_t done = 0; problem.empty() && done < markdown.size();) {
    const ssize_t n = ::write(fd, markdown.data() + done, markdown.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) problem = file.string() + ": cannot be appended to: " + std::strerror(errno);
    else done += static_cast<std::size_t>(n);
  }
  ::close(fd);
  if (!problem.empty()) throw std::runtime_error(problem);
}

nlohmann::json to_json(const GateSummary& s) {
  nlohmann::json tests = nlohmann::json::array();
  for (const TestResult& t : s.tests) {
    nlohmann::json changes = nlohmann::json::array();
    for (const MetricChange& c : t.changes)
      changes.push_back({{"metric", c.metric}, {"metric_name", c.metric_name}, {"measured", c.measured},
                         {"baseline", c.baseline}, {"change", c.change}, {"tolerance", c.tolerance}, {"verdict", c.verdict}});
    nlohmann::json test = {{"name", t.name}, {"suite", t.suite}, {"test", t.test}, {"outcome", to_string(t.outcome)},
                           {"device", t.device}, {"gpu", t.gpu}, {"seconds", t.seconds}, {"reason", t.reason},
                           {"changes", changes}, {"baseline_file", t.baseline_file}, {"refresh", t.refresh}};
    test["median_ns"] = t.median_ns ? nlohmann::json(*t.median_ns) : nlohmann::json(nullptr);
    test["properties"] = t.properties;
    tests.push_back(test);
  }
  return {{"exit_code", s.exit_code()}, {"verdict", verdict_word(s.exit_code())}, {"problems", s.problems}, {"tests", tests}};
}

std::string render_junit(const GateSummary& s) {
  pugi::xml_document doc;
  pugi::xml_node suites = doc.append_child("testsuites");
  pugi::xml_node suite = suites.append_child("testsuite");
  suite.append_attribute("name") = "bankgate";
  std::size_t failures = 0, skipped = 0;
  double seconds = 0.0;
  for (const TestResult& t : s.tests) {
    pugi::xml_node testcase = suite.append_child("testcase");
    testcase.append_attribute("name") = t.test.c_str();
    testcase.append_attribute("classname") = t.suite.c_str();
    testcase.append_attribute("time") = t.seconds;
    seconds += t.seconds;
    if (t.outcome == Outcome::passed) continue;
    // The first line of the reason is what CI front ends show for a failure; the whole text goes inside.
    std::string why = t.reason;
    if (t.outcome == Outcome::regressed && !t.changes.empty()) {
      const MetricChange& c = t.changes.front();
      why = c.metric + " " + c.verdict + ": " + c.measured + " (baseline " + c.baseline + (c.change.empty() ? "" : ", " + c.change) +
            ")" + (t.changes.size() > 1 ? " and " + std::to_string(t.changes.size() - 1) + " more" : "") + "\n" + t.reason;
    }
    const std::string detail = why + (t.refresh.empty() ? "" : "\nif intended, refresh: " + t.refresh);
    pugi::xml_node node = testcase.append_child(t.outcome == Outcome::skipped ? "skipped" : "failure");
    node.append_attribute("message") = first_line(why, 400).c_str();
    if (t.outcome != Outcome::skipped) node.append_attribute("type") = to_string(t.outcome).c_str();
    node.append_child(pugi::node_pcdata).set_value(detail.c_str());
    ++(t.outcome == Outcome::skipped ? skipped : failures);
  }
  suite.append_attribute("tests") = s.tests.size();
  suite.append_attribute("failures") = failures;
  suite.append_attribute("skipped") = skipped;
  suite.append_attribute("time") = seconds;
  std::ostringstream out;
  doc.save(out, "  ");
  return out.str();
}

std::string verdict_word(int exit_code) {
  switch (exit_code) {
    case protocol::exit_ok: return "passed";
    case protocol::exit_regression: return "regressed";
    default: return "not measured";
  }
}

}  // namespace bankgate::gate
