#pragma once
// A gate split over several runners: `bankgate gate --shard I/N` on each of N CI jobs measures the I-th part of
// the GPU suites, and `bankgate summary --shards DIR` merges their reports into one verdict (shard_merge.hpp).
//
// What moves as a whole is a suite in GoogleTest's sense, the part of "Suite.test" before the dot: what the
// baselines (one file per suite), the reports and --filter call a suite. A suite program (one
// bankgate_add_gpu_suite) may hold several; those that land on different runners each start the program there,
// which the plan charges as a start-up cost. Splitting finer, inside a suite, would save little (its tests take
// milliseconds each) and cut the suite's tests apart in every report.
//
// Every runner works the plan out alone, so it must come out the same on each: it depends only on the gated
// tests ctest lists (sorted here, whatever order ctest gives them), on what was recorded of their cost (a
// previous run's summary.json, or the committed baselines of every GPU), and on N. Costs are compared as whole
// microseconds, so no rounding of a sum can tip a choice differently on another machine. The parts are filled
// longest suite first, each into the part it leaves least loaded, ties going to the suite of the smaller name
// and the part of the smaller number.

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace bankgate::gate {

// "I/N": the I-th of N parts, counted from 1 as CI services count parallel jobs (GitLab's CI_NODE_INDEX).
struct ShardSpec {
  int index = 1;
  int count = 1;
};
inline constexpr int max_shards = 1024;
// nullopt where `text` is not I/N with 1 <= I <= N <= max_shards; `problem` then says what is wrong.
std::optional<ShardSpec> parse_shard_spec(const std::string& text, std::string& problem);

// A gated test as ctest lists it, with the suite program it runs in (its ctest fixture); empty for a test of no
// suite program.
struct ListedTest {
  std::string name;  // "Suite.test"
  std::string program;
};

// What one part receives whole: a suite and its tests.
struct ShardUnit {
  std::string suite;
  std::vector<std::string> tests;  // sorted
  std::set<std::string> programs;  // the suite programs its tests run in
};
// The listed tests grouped by suite, sorted by suite name.
std::vector<ShardUnit> shard_units(const std::vector<ListedTest>& tests);

// What a gated test costs a runner, in seconds, where nothing better was recorded: measured on an H200
// (bench/RESULTS-speed.md; the parts of each figure: docs/measurement.md, "Measurements behind the code").
namespace shard_cost {
// Beside its kernel's launches: counters, the timing phase's own work, the verdict and report, preparation.
inline constexpr double per_test_s = 0.020;
// A test no recording knows: the median test's whole cost, its launches included, rounded up.
inline constexpr double unrecorded_test_s = 0.025;
// A suite program starting on a runner: the device probe, the collector's set-up, the first profiled kernel.
inline constexpr double program_start_s = 0.55;
}  // namespace shard_cost

// Seconds per test, by "Suite.test".
using TestSeconds = std::map<std::string, double>;

struct ShardPlan {
  std::vector<std::vector<std::string>> parts;  // the suites of each part, sorted; parts[0] is shard 1
  std::vector<double> seconds;                  // each part's estimated cost, start-ups included
  std::vector<std::string> catalogue;           // every suite of the plan, sorted
};

// Splits `units` into `count` parts (above). A test missing from `known` costs unrecorded_test_s. With more parts
// than suites the last parts are empty. Throws std::invalid_argument for a count below 1.
ShardPlan plan_shards(const std::vector<ShardUnit>& units, const TestSeconds& known, int count);

// The run filter of part `index` (from 1): `filter` (GoogleTest's syntax) with every other part's suites left out.
std::string shard_filter(const std::string& filter, const std::vector<ShardUnit>& units, const ShardPlan& plan,
                         int index);

// Why part `index` of `count` has nothing to run, for its own reports and the merge's: a runner matrix wider than
// the catalogue of `suites` suites (after --filter) is a configuration mistake, and such a part exits 2 rather
// than pass having measured nothing.
std::string empty_part_problem(int index, int count, std::size_t suites);

}  // namespace bankgate::gate
