#pragma once
// Review of candidates against baselines: the rows of the old / new / change table, and the merge that
// promotes reviewed candidates into baseline files.

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <bankgate/harness/baseline.hpp>
#include <bankgate/harness/comparison.hpp>

namespace bankgate::tools {

struct ReviewRow {
  std::string suite;
  std::string test;
  bool correct = false;
  harness::Finding finding;
};

// One row per metric of every candidate test; tests without a baseline get not_in_baseline rows.
std::vector<ReviewRow> review(const std::map<std::string, harness::SuiteFile>& candidates,
                              const std::map<std::string, harness::SuiteFile>& baselines);

std::string render(const std::vector<ReviewRow>& rows, bool only_changes);

// Matches "Suite.test" against a GoogleTest-style filter: ':'-separated patterns with '*' and '?', and an
// optional '-' part of negative patterns. An empty filter matches everything.
bool matches_filter(const std::string& name, const std::string& filter);

// `baseline` with the chosen candidate tests replaced or added (samples dropped), provenance from `provenance`.
harness::SuiteFile promote(const harness::SuiteFile* baseline, const harness::SuiteFile& candidate,
                           const std::vector<std::string>& tests, const harness::Provenance& provenance);

}  // namespace bankgate::tools
