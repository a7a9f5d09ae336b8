#pragma once
// gate and record with --shard I/N: this runner's part of a gate split over N runners (gate/rules/shard_plan.hpp),
// worked out from the build's ctest listing and the recorded costs, the same on every runner.

#include <filesystem>
#include <optional>
#include <string>

#include <bankgate/gate/reports/gate_summary.hpp>
#include <bankgate/gate/rules/shard_plan.hpp>

#include "commands.hpp"

namespace bankgate::cli {

// What --shard asks for, checked before anything is built: the part, and the costs --shard-durations recorded.
struct ShardRequest {
  gate::ShardSpec spec;
  gate::TestSeconds recorded;  // empty without --shard-durations
  std::string recorded_from;   // the file, for the line that shows the plan
};
// nullopt where `run` asks for no split. Throws Refusal where the durations file cannot be read.
std::optional<ShardRequest> shard_request(const SuiteRun& run);

struct ShardSelection {
  gate::ShardRecord record;                 // which part, its suites and the whole catalogue
  std::string filter;                       // the run's filter with every other part left out
  std::vector<std::string> idle_measuring;  // measuring entries of programs with no test in this part
};

// Lists the GPU tests of `build` (after building: the per-test entries come from the build), weighs them by what
// was recorded and the baselines under `baselines` (empty: the project's baselines/ beside its sources) and picks
// the part asked for, printing what it chose. Throws Refusal where ctest cannot list the tests.
ShardSelection select_shard(const ShardRequest& request, const SuiteRun& run, const std::filesystem::path& build,
                            const std::filesystem::path& baselines);

}  // namespace bankgate::cli
