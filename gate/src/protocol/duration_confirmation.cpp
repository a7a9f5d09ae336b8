#include <bankgate/gate/protocol/duration_confirmation.hpp>

#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include <bankgate/gate/protocol/run_protocol.hpp>

namespace bankgate::gate {
namespace {

bool slower_duration(const Finding& f) { return f.timing && f.verdict == Verdict::slower; }

std::string percent(double ratio) {
  char text[32];
  std::snprintf(text, sizeof text, "%+.1f%%", 100.0 * (ratio - 1.0));
  return text;
}

}  // namespace

bool slower_duration_alone(const TestResultRecord& record) {
  if (record.outcome != Outcome::regressed || record.wrong_output) return false;
  bool slower = false;
  for (const Finding& f : record.findings) {
    if (!is_failure(f.verdict)) continue;
    if (!slower_duration(f)) return false;
    slower = true;
  }
  return slower;
}

double slowest_duration_ratio(const TestResultRecord& record) {
  double slowest = 1.0;
  bool any = false;
  for (const Finding& f : record.findings)
    if (f.timing && f.baseline > 0.0 && f.measured > 0.0) {
      slowest = any ? std::max(slowest, f.measured / f.baseline) : f.measured / f.baseline;
      any = true;
    }
  return slowest;
}

ConfirmedDuration confirm_by_fastest_process(const std::vector<TestResultRecord>& processes) {
  if (processes.empty()) throw std::invalid_argument("confirm_by_fastest_process: no process");
  ConfirmedDuration c;
  c.processes = processes.size();
  std::string changes;
  for (std::size_t i = 0; i < processes.size(); ++i) {
    const double ratio = slowest_duration_ratio(processes[i]);
    if (ratio < slowest_duration_ratio(processes[c.chosen])) c.chosen = i;
    const bool slower = std::any_of(processes[i].findings.begin(), processes[i].findings.end(), slower_duration);
    if (slower) ++c.slower;
    changes += (changes.empty() ? "" : ", ") + percent(ratio) + (slower ? " slower" : "");
  }
  const std::string each = " (each process's duration against the baseline: " + changes + ")";
  const std::string counted = std::to_string(c.processes) + " processes";
  if (c.slower == c.processes)
    c.note = "duration slower in all " + counted + each + ": a slowdown, not a per-process speed level; the fastest " +
             "process, " + std::to_string(c.chosen + 1) + ", is judged";
  else
    c.note = "duration slower in " + std::to_string(c.slower) + " of " + counted + each +
             ": the kernel runs at a per-process speed level, and the fastest process, " +
             std::to_string(c.chosen + 1) + ", is within its tolerance";
  return c;
}

TestResultRecord confirmed_record(const std::vector<TestResultRecord>& processes) {
  const ConfirmedDuration c = confirm_by_fastest_process(processes);
  TestResultRecord record = processes[c.chosen];
  record.messages.push_back("[bankgate] " + record.suite + "." + record.test + ": " + c.note);
  record.properties[protocol::property::duration_processes] = std::to_string(c.processes);
  record.properties[protocol::property::duration_processes_slower] = std::to_string(c.slower);
  return record;
}

}  // namespace bankgate::gate
