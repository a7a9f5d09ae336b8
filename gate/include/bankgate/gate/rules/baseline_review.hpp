#pragma once
// Review of candidates against baselines: the rows of the old / new / change table, and the merge that
// promotes reviewed candidates into baseline files.

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <bankgate/gate/rules/baseline.hpp>
#include <bankgate/gate/rules/comparison.hpp>
#include <bankgate/gate/rules/test_filter.hpp>

namespace bankgate::gate {

struct ReviewRow {
  std::string suite;
  std::string test;
  bool correct = false;
  gate::Finding finding;
};

// One row per metric of every candidate test; tests without a baseline get not_in_baseline rows.
std::vector<ReviewRow> review(const std::map<std::string, gate::SuiteFile>& candidates,
                              const std::map<std::string, gate::SuiteFile>& baselines);

// `baseline` with the chosen candidate tests replaced or added (samples dropped), provenance from `provenance`.
gate::SuiteFile promote(const gate::SuiteFile* baseline, const gate::SuiteFile& candidate,
                        const std::vector<std::string>& tests, const gate::Provenance& provenance);

}  // namespace bankgate::gate
