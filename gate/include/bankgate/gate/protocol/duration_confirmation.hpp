#pragma once
// A slower duration is confirmed in fresh processes before it becomes a verdict. Some kernels run at one of a few
// speeds per process, tight within each (warp-specialised Hopper GEMMs: one process in six about 12% slower on some
// cards), so one process's samples cannot tell such a level from a slowdown. When a test's only failure is a
// slower duration, run-suite measures it again in up to N fresh processes (the gate's --confirm-processes), each
// judged against the same baseline, and the fastest process stands: a speed level passes in the first process
// that lands on the baseline's level, while a real slowdown is slower in every process and still fails, by the
// fastest process's change. The baseline holds the fastest level (process_spread.hpp), so the gate judges level by
// level instead of widening the tolerance to hold every level. A test that passes in its first process costs nothing.
//
// With one process in six on a slow level, a false alarm needs 1 + N processes all on it: below 1 in 1,000 for
// N = 3, against 1 in 6 without confirmation.

#include <cstddef>
#include <string>
#include <vector>

#include <bankgate/gate/protocol/test_result.hpp>

namespace bankgate::gate {

// Whether the record's failure is a slower duration alone: it regressed, its output was right, and every failing
// finding is a duration that got slower. Only such a test is measured again.
bool slower_duration_alone(const TestResultRecord& record);

// The largest measured/baseline ratio of the record's duration findings (1 where it has none).
double slowest_duration_ratio(const TestResultRecord& record);

struct ConfirmedDuration {
  std::size_t chosen = 0;  // the process (index into the records) whose record stands: the fastest
  std::size_t slower = 0;  // processes that found the test slower
  std::size_t processes = 0;
  std::string note;  // for the chosen record's messages: how many processes agreed, and each one's change
};

// Of one test's records from its first process and the fresh ones after it (only records that measured and were
// compared), the one that stands: the fastest process, by slowest_duration_ratio. Needs at least one record.
ConfirmedDuration confirm_by_fastest_process(const std::vector<TestResultRecord>& processes);

// The record that stands, with the confirmation in its messages and properties (duration_processes,
// duration_processes_slower).
TestResultRecord confirmed_record(const std::vector<TestResultRecord>& processes);

}  // namespace bankgate::gate
