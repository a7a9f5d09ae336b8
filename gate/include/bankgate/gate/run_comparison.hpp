#pragma once
// Same-runner comparison: candidate files of a base build and a head build, measured on one machine in
// interleaved rounds, pooled per side and judged with the same rules as the gate (gate::compare).

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <bankgate/gate/baseline.hpp>
#include <bankgate/gate/comparison.hpp>

namespace bankgate::gate {

// Every candidate file under `root` (any depth: one folder per round), by "Suite.test". Rounds of one test
// are pooled: the durations of all rounds are joined and summarized again; counters, correctness and the
// measurement method come from the first round, and a later round with other counters or method is an error.
std::map<std::string, gate::TestRecord> pooled_candidates(const std::filesystem::path& root, const std::string& filter);

struct ComparisonRow {
  std::string test;
  bool head_correct = true;  // the head build's output matched the CPU reference
  std::vector<gate::Finding> findings;  // head measured against base, as the gate would judge it
};

std::vector<ComparisonRow> compare_runs(const std::map<std::string, gate::TestRecord>& base,
                                        const std::map<std::string, gate::TestRecord>& head);

// test, base, head, change, verdict: one line per test (its duration), then one per counter that changed.
std::string render_comparison(const std::vector<ComparisonRow>& rows, bool fail_on_speedup);

bool any_failure(const std::vector<ComparisonRow>& rows, bool fail_on_speedup);

}  // namespace bankgate::gate
