#pragma once
// gate and record with --shard I/N: this runner's part of a gate split over N runners (gate/shard_plan.hpp),
// worked out from the build's ctest listing and the recorded costs, the same on every runner.

#include <filesystem>
#include <optional>
#include <string>

#include <bankgate/gate/gate_summary.hpp>

#include "commands.hpp"

namespace bankgate::cli {

struct ShardSelection {
  gate::ShardRecord record;  // which part, its suites and the whole catalogue
  std::string filter;        // the run's filter with every other part left out
};

// nullopt where `run` asks for no split. Lists the GPU tests of `build` (after building: the per-test entries
// come from the build), weighs them by --shard-durations and the baselines under `baselines` (empty: the
// project's baselines/ beside its sources) and picks part I, printing what it chose. Throws Refusal where ctest
// cannot list the tests or the durations file cannot be read.
std::optional<ShardSelection> select_shard(const SuiteRun& run, const std::filesystem::path& build,
                                           const std::filesystem::path& baselines);

}  // namespace bankgate::cli
