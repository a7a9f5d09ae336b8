#pragma once
// A same-runner comparison's rounds, read from the folder a build's rounds left (rules/run_comparison.hpp judges them).

#include <filesystem>
#include <string>

#include <bankgate/gate/rules/run_comparison.hpp>

namespace bankgate::gate {

// One build's rounds: every candidate file under the root (any depth: one folder per round) whose tests match
// `filter`, pooled per test (PooledRuns). A later round with other counters or method is an error.
PooledRuns pooled_candidates(const std::filesystem::path& root, const std::string& filter);

}  // namespace bankgate::gate
