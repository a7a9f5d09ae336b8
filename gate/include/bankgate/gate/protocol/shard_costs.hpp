#pragma once
// What the shard plan (rules/shard_plan.hpp) knows of each test's cost: read from a previous run's summary.json
// (the costs the suite processes recorded as GoogleTest properties) or from the committed baselines.

#include <filesystem>
#include <set>
#include <stdexcept>
#include <string>

#include <bankgate/gate/rules/shard_plan.hpp>

namespace bankgate::gate {

class ShardInputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// From a previous run's summary.json (a gate's or a merge's): what each test recorded of its own host time
// (counters, timing, preparation, output check, per-line figures, verdict), or ctest's seconds for it where it
// recorded none. Throws ShardInputError naming the file and what is wrong.
TestSeconds test_seconds_from_summary(const std::filesystem::path& summary_json);

// From the baselines under `root` of the given suites, every GPU's: per_test_s plus the kernel time its timing
// took (samples x launches per sample, and the warm-up launches, at the median duration), the largest over the
// GPUs. An estimate never stops a run: a file that cannot be read leaves its tests to the default (the gate itself
// reports the file).
TestSeconds test_seconds_from_baselines(const std::filesystem::path& root, const std::set<std::string>& suites);

}  // namespace bankgate::gate
