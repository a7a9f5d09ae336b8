#pragma once
// Same-runner comparison: candidate files of a base build and a head build, measured on one machine in
// interleaved rounds, pooled per side and judged with the same rules as the gate (gate::compare).

#include <cstddef>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <bankgate/gate/rules/baseline.hpp>
#include <bankgate/gate/rules/comparison.hpp>
#include <bankgate/gate/rules/round_judgement.hpp>

namespace bankgate::gate {

// Each round's median of one test, in the order of the rounds' files.
struct RoundTimes {
  std::vector<double> medians_ns;
};

// One build's rounds pooled per test, by "Suite.test" (store/pooled_candidates.hpp reads them from a folder): the
// durations of all rounds joined and summarized again; counters, correctness and the measurement method from the
// first round. Each round's median is kept too: their spread is the test's noise on this runner.
struct PooledRuns {
  std::map<std::string, gate::TestRecord> records;
  std::map<std::string, RoundTimes> rounds;
  std::vector<gate::Provenance> provenance;  // of each candidate file pooled, in the order read
};

struct ComparisonRow {
  std::string test;
  bool head_correct = true;  // the head build's output matched the CPU reference
  // Head measured against base: counters as the gate judges them; the duration by the rounds' own noise
  // (judge_rounds) where each side has two rounds or more, else by the gate's timing rule.
  std::vector<gate::Finding> findings;
  std::size_t base_rounds = 0, head_rounds = 0;  // the rounds that timed this test on each side
};

std::vector<ComparisonRow> compare_runs(const PooledRuns& base, const PooledRuns& head, const NoisePolicy& policy = {});

// No failure, but a duration the rounds could not decide (exit_inconclusive).
bool any_inconclusive(const std::vector<ComparisonRow>& rows);

bool any_failure(const std::vector<ComparisonRow>& rows, bool fail_on_speedup);

// The tests of `base` that set a comparison floor of their own (TimingTolerance::compare_floor), with it, in one
// line ("floors of their own ...: AsyncCopy.Sync16 1.5%"), or "" where none does: said beside every comparison's
// table, since an ok under such a floor says less than one under the comparison's own.
std::string own_floors_line(const PooledRuns& base);

}  // namespace bankgate::gate
