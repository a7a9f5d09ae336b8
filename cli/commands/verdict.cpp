// verdict (plumbing): one test's result from its suite's run (suite_process.cpp), as each per-test ctest entry
// that discover writes runs it. The test is judged here, in bankgate's process (protocol/judgement.hpp), from its
// candidate against its baseline: the record the suite process wrote is its report, never its verdict.

#include <iostream>
#include <memory>

#include <bankgate/gate/protocol/judgement.hpp>
#include <bankgate/gate/protocol/settings.hpp>
#include <bankgate/gate/store/baseline_folder.hpp>
#include <bankgate/gate/store/candidates.hpp>
#include <bankgate/gate/text/text.hpp>

#include "../commands.hpp"
#include "../options.hpp"
#include "../subcommand_table.hpp"

namespace bankgate::cli {
namespace {

namespace fs = std::filesystem;
namespace g = bankgate::gate;

// The test's measurement and its baseline, where both can be read: whatever cannot be read leaves it unjudged,
// and the record alone then decides no pass (judge()).
struct Evidence {
  std::optional<g::TestRecord> measured, baseline;
};

Evidence evidence_of(const VerdictOptions& o, const std::string& suite, const std::string& test) {
  Evidence e;
  try {
    const g::Settings s = g::load_settings(g::process_environment, o.baselines, o.candidates);
    std::error_code ec;
    if (s.candidate_dir.empty() || s.baseline_dir.empty() || !fs::is_directory(s.candidate_dir, ec)) return e;
    for (const g::GpuKey& gpu : g::gpu_folders(s.candidate_dir)) {
      e.measured = g::read_candidate(s.candidate_dir, gpu, suite, test);
      if (!e.measured) continue;
      if (const auto stored = g::BaselineFolder(s.baseline_dir).read(gpu, suite))
        if (const auto it = stored->tests.find(test); it != stored->tests.end()) e.baseline = it->second;
      break;
    }
  } catch (const std::exception& error) {  // settings, candidates or baselines that cannot be read
    std::cout << "[bankgate] " << g::terminal_line(suite + "." + test)
              << ": not judged against its baseline: " << g::terminal_safe(error.what()) << "\n";
  }
  return e;
}

int verdict(const VerdictOptions& o) {
  const auto dot = o.test.find('.');
  const std::string suite = o.test.substr(0, dot), test = dot == std::string::npos ? "" : o.test.substr(dot + 1);
  // ctest's log shows what this prints: the name on one line, the messages with their controls escaped.
  const std::string name = g::terminal_line(o.test);
  std::optional<g::TestResultRecord> record;
  try {
    record = g::read_result_record(g::test_result_path(o.results, suite, test));
  } catch (const g::ResultRecordError& e) {
    std::cout << name << ": unreadable result: " << g::terminal_safe(e.what()) << "\n";
    return exit_regression;
  }
  if (!record) {
    std::cout << name << ": no result: its suite's measuring run did not reach it (the test "
              << g::protocol::measure_test_prefix << "* of its suite says why)\n";
    return exit_regression;
  }
  for (const std::string& m : record->messages) std::cout << g::terminal_safe(m) << "\n";
  const Evidence e = evidence_of(o, suite, test);
  const g::Judgement judged =
      g::judge({o.test, &*record, e.measured ? &*e.measured : nullptr, e.baseline ? &*e.baseline : nullptr,
                g::fail_on_speedup(g::process_environment), ""});
  for (const std::string& note : judged.notes) std::cout << "[bankgate] " << name << ": " << note << "\n";
  switch (judged.outcome) {
    case g::Outcome::passed:
      std::cout << "[       OK ] " << name << "\n";
      return exit_ok;
    case g::Outcome::skipped:
      std::cout << "[  SKIPPED ] " << name << "\n";
      return g::protocol::exit_skipped;
    case g::Outcome::regressed:
    case g::Outcome::not_measured:
      break;
  }
  std::cout << "[  FAILED  ] " << name << "\n";
  return exit_regression;
}

}  // namespace

Runner define_verdict(CLI::App& command) {
  const auto o = std::make_shared<VerdictOptions>();
  command.add_option("--results", o->results, "folder of the per-test result files")->required();
  command.add_option("--test", o->test, "Suite.test")->required();
  command.add_option("--candidates", o->candidates, "the suite's candidates folder (the run's manifest decides)");
  command.add_option("--baselines", o->baselines, "the suite's baselines folder (the run's manifest decides)");
  command.footer(exit_codes_of({{exit_regression, "the test failed, or left no readable result"},
                                {g::protocol::exit_skipped, "the test was skipped"}}));
  return [o] { return verdict(*o); };
}

}  // namespace bankgate::cli
