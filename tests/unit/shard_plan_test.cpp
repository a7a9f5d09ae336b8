// A gate split over runners (bankgate/gate/shard_plan.hpp): the I/N argument, the plan's determinism, balance and
// coverage, the filter of a part, and the costs read from a summary.json and from baselines. No GPU.

#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <random>

#include <bankgate/gate/store/baseline_folder.hpp>
#include <bankgate/gate/rules/baseline.hpp>
#include <bankgate/gate/protocol/shard_costs.hpp>
#include <bankgate/gate/rules/shard_plan.hpp>
#include <bankgate/gate/rules/test_filter.hpp>

namespace {

namespace fs = std::filesystem;
using namespace bankgate::gate;

// `count` tests of `suite` in `program`, named Suite.t0, Suite.t1, ...
std::vector<ListedTest> tests_of(const std::string& suite, int count, const std::string& program = "prog") {
  std::vector<ListedTest> tests;
  for (int i = 0; i < count; ++i) tests.push_back({suite + ".t" + std::to_string(i), program});
  return tests;
}

std::vector<ListedTest> joined(std::initializer_list<std::vector<ListedTest>> parts) {
  std::vector<ListedTest> all;
  for (const auto& part : parts) all.insert(all.end(), part.begin(), part.end());
  return all;
}

// Every test of `suite` costs `seconds`.
void cost(TestSeconds& known, const std::vector<ShardUnit>& units, const std::string& suite, double seconds) {
  for (const ShardUnit& unit : units)
    if (unit.suite == suite)
      for (const std::string& test : unit.tests) known[test] = seconds;
}

TEST(ShardSpec, TakesIOfNCountedFromOne) {
  std::string problem;
  for (const auto& [text, index, count] :
       {std::tuple{"1/1", 1, 1}, {"2/3", 2, 3}, {"3/3", 3, 3}, {"1024/1024", 1024, 1024}}) {
    const auto spec = parse_shard_spec(text, problem);
    ASSERT_TRUE(spec) << text << ": " << problem;
    EXPECT_EQ(spec->index, index) << text;
    EXPECT_EQ(spec->count, count) << text;
  }
}

TEST(ShardSpec, RefusesWhatIsNotIOfN) {
  for (const char* text : {"0/3", "a/b", "3", "", "/", "1/", "/3", "1/0", "-1/3", "+1/3", "1/3 ", " 1/3", "1//3",
                           "1/3/3", "1.5/3", "1/1025", "99999999999/3"}) {
    std::string problem;
    EXPECT_FALSE(parse_shard_spec(text, problem)) << text;
    EXPECT_NE(problem.find("counted from 1"), std::string::npos) << text << ": " << problem;
    EXPECT_NE(problem.find("got '" + std::string(text) + "'"), std::string::npos) << problem;
  }
}

TEST(ShardSpec, APartBeyondNIsNamedSo) {
  std::string problem;
  EXPECT_FALSE(parse_shard_spec("4/3", problem));
  EXPECT_EQ(problem, "must be I/N with I at most N (parts are counted from 1: 1/3, 2/3, 3/3), got '4/3'");
}

TEST(ShardUnits, GroupTestsBySuiteWithTheirPrograms) {
  const auto units = shard_units({{"B.y", "two"}, {"A.x", "one"}, {"B.x", "one"}, {"B.y", "two"}, {"lone_test", ""}});
  ASSERT_EQ(units.size(), 3u);
  EXPECT_EQ(units[0].suite, "A");
  EXPECT_EQ(units[1].suite, "B");
  EXPECT_EQ(units[1].tests, (std::vector<std::string>{"B.x", "B.y"}));  // sorted, listed once
  EXPECT_EQ(units[1].programs, (std::set<std::string>{"one", "two"}));
  EXPECT_EQ(units[2].suite, "lone_test");  // a ctest name without a dot is a suite of its own
  EXPECT_TRUE(units[2].programs.empty());
}

TEST(ShardPlan, IsTheSameWhateverOrderCtestListsTheTestsIn) {
  std::vector<ListedTest> tests = joined({tests_of("Alpha", 3), tests_of("Beta", 5, "other"), tests_of("Gamma", 2),
                                          tests_of("Delta", 7), tests_of("Eps", 1, "other"), tests_of("Zeta", 4)});
  const ShardPlan first = plan_shards(shard_units(tests), {}, 3);
  std::mt19937 shuffle(12345);
  for (int round = 0; round < 20; ++round) {
    std::shuffle(tests.begin(), tests.end(), shuffle);
    const ShardPlan again = plan_shards(shard_units(tests), {}, 3);
    EXPECT_EQ(again.parts, first.parts) << "round " << round;
    EXPECT_EQ(again.seconds, first.seconds) << "round " << round;
  }
}

TEST(ShardPlan, PutsEverySuiteInExactlyOnePart) {
  std::vector<ListedTest> tests;
  std::mt19937 random(7);
  for (int s = 0; s < 40; ++s) {
    const auto more =
        tests_of("Suite" + std::to_string(s), 1 + static_cast<int>(random() % 9), "p" + std::to_string(s % 4));
    tests.insert(tests.end(), more.begin(), more.end());
  }
  const auto units = shard_units(tests);
  for (int count : {1, 2, 3, 5, 8, 40}) {
    const ShardPlan plan = plan_shards(units, {}, count);
    ASSERT_EQ(plan.parts.size(), static_cast<std::size_t>(count));
    std::vector<std::string> seen;
    for (const auto& part : plan.parts) seen.insert(seen.end(), part.begin(), part.end());
    std::sort(seen.begin(), seen.end());
    EXPECT_EQ(seen, plan.catalogue) << count << " parts";  // all of them, none twice
    EXPECT_EQ(plan.catalogue.size(), 40u);
    for (const auto& part : plan.parts) EXPECT_FALSE(part.empty()) << count << " parts: a part left idle";
  }
}

TEST(ShardPlan, BalancesASkewedCatalogue) {
  // One suite as long as ten others together: it alone on one runner, the ten on the other.
  std::vector<ListedTest> tests = tests_of("Heavy", 1, "");
  for (int s = 0; s < 10; ++s) tests.push_back({"Light" + std::to_string(s) + ".t", ""});
  const auto units = shard_units(tests);
  TestSeconds known;
  cost(known, units, "Heavy", 10.0);
  for (int s = 0; s < 10; ++s) cost(known, units, "Light" + std::to_string(s), 1.0);
  const ShardPlan plan = plan_shards(units, known, 2);
  EXPECT_EQ(plan.parts[0], std::vector<std::string>{"Heavy"});
  EXPECT_EQ(plan.parts[1].size(), 10u);
  EXPECT_DOUBLE_EQ(plan.seconds[0], 10.0);
  EXPECT_DOUBLE_EQ(plan.seconds[1], 10.0);
}

TEST(ShardPlan, StaysWithinAThirdOfTheIdealOnManySizes) {
  // Longest first is within 4/3 of the best split; the best is at least the mean and the longest suite.
  std::vector<ListedTest> tests;
  for (int s = 0; s < 30; ++s) tests.push_back({"S" + std::to_string(s) + ".t", ""});
  const auto units = shard_units(tests);
  TestSeconds known;
  double total = 0.0, longest = 0.0;
  for (int s = 0; s < 30; ++s) {
    const double seconds = 0.1 * (1 + (s * s) % 37);  // uneven, a few long
    cost(known, units, "S" + std::to_string(s), seconds);
    total += seconds;
    longest = std::max(longest, seconds);
  }
  for (int count : {2, 3, 4, 7}) {
    const ShardPlan plan = plan_shards(units, known, count);
    const double worst = *std::max_element(plan.seconds.begin(), plan.seconds.end());
    EXPECT_LE(worst, 4.0 / 3.0 * std::max(total / count, longest) + 1e-6) << count << " parts";
    EXPECT_NEAR(std::accumulate(plan.seconds.begin(), plan.seconds.end(), 0.0), total, 1e-6);
  }
}

TEST(ShardPlan, ChargesAProgramsStartOnEachRunnerItRunsOn) {
  // Four short suites of two programs over two runners: each program on one runner, not both on both.
  const auto units = shard_units(
      joined({tests_of("A1", 2, "a"), tests_of("A2", 2, "a"), tests_of("B1", 2, "b"), tests_of("B2", 2, "b")}));
  const ShardPlan plan = plan_shards(units, {}, 2);
  std::vector<std::vector<std::string>> parts = plan.parts;
  std::sort(parts.begin(), parts.end());
  EXPECT_EQ(parts, (std::vector<std::vector<std::string>>{{"A1", "A2"}, {"B1", "B2"}}));
  EXPECT_NEAR(plan.seconds[0], shard_cost::program_start_s + 4 * shard_cost::unrecorded_test_s, 1e-6);
}

TEST(ShardPlan, SplitsAProgramOnlyWhereItsRunnerWouldOtherwiseRunLong) {
  // Two programs of three short suites each over three runners: a program split once, not both over all three.
  const auto units = shard_units(joined({tests_of("A1", 2, "a"), tests_of("A2", 2, "a"), tests_of("A3", 2, "a"),
                                         tests_of("B1", 2, "b"), tests_of("B2", 2, "b"), tests_of("B3", 2, "b")}));
  const ShardPlan plan = plan_shards(units, {}, 3);
  const double worst = *std::max_element(plan.seconds.begin(), plan.seconds.end());
  EXPECT_NEAR(worst, shard_cost::program_start_s + 6 * shard_cost::unrecorded_test_s,
              1e-6);  // one program's three suites
  for (const auto& part : plan.parts) EXPECT_FALSE(part.empty());
}

TEST(ShardPlan, LeavesPartsBeyondTheCatalogueEmpty) {
  const auto units = shard_units(joined({tests_of("A", 2), tests_of("B", 1)}));
  const ShardPlan plan = plan_shards(units, {}, 5);
  ASSERT_EQ(plan.parts.size(), 5u);
  EXPECT_EQ(plan.parts[0], std::vector<std::string>{"A"});
  EXPECT_EQ(plan.parts[1], std::vector<std::string>{"B"});
  for (std::size_t p = 2; p < 5; ++p) {
    EXPECT_TRUE(plan.parts[p].empty());
    EXPECT_EQ(plan.seconds[p], 0.0);
  }
  EXPECT_EQ(empty_part_problem(3, 5, plan.catalogue.size()),
            "shard 3 of 5 has no suite to run: the gate's 2 suite(s) (after --filter) leave 3 of its 5 runners idle; a "
            "runner matrix wider than the catalogue is a configuration mistake: make it at most 2 wide");
  EXPECT_NE(empty_part_problem(1, 2, 0).find("ctest lists no GPU test (after --filter)"), std::string::npos);
  EXPECT_THROW(plan_shards(units, {}, 0), std::invalid_argument);
}

TEST(ShardPlan, TakesAbsurdRecordedCostsWithoutOverflowing) {
  const auto units = shard_units(joined({tests_of("A", 1, ""), tests_of("B", 1, ""), tests_of("C", 1, "")}));
  const TestSeconds known{{"A.t0", 1e300}, {"B.t0", -5.0}, {"C.t0", std::nan("")}};
  const ShardPlan plan = plan_shards(units, known, 2);
  EXPECT_EQ(plan.parts[0], std::vector<std::string>{"A"});  // the longest, alone
  EXPECT_EQ(plan.parts[1], (std::vector<std::string>{"B", "C"}));
}

TEST(ShardFilter, LeavesOtherPartsOutOfTheUsersFilter) {
  const auto units = shard_units({{"A.x", "p"}, {"A.y", "p"}, {"B.x", "p"}, {"C.x", "q"}, {"solo", ""}});
  ShardPlan plan;
  plan.parts = {{"A"}, {"B", "C", "solo"}};
  EXPECT_EQ(shard_filter("", units, plan, 1), "-B.*:C.*:solo");
  EXPECT_EQ(shard_filter("", units, plan, 2), "-A.*");
  EXPECT_EQ(shard_filter("A.*:B.*", units, plan, 1), "A.*:B.*-B.*:C.*:solo");
  EXPECT_EQ(shard_filter("*-A.y", units, plan, 2), "*-A.y:A.*");
  // The filter selects this part's tests and no other's, for ctest as for the suite processes.
  const std::string first = shard_filter("*-A.y", units, plan, 1);
  EXPECT_TRUE(matches_filter("A.x", first));
  EXPECT_FALSE(matches_filter("A.y", first));  // the user's own exclusion kept
  for (const char* other : {"B.x", "C.x", "solo"}) EXPECT_FALSE(matches_filter(other, first)) << other;
}

class ShardCosts : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = fs::temp_directory_path() / ("bankgate-shard-costs-" + std::to_string(::getpid()) + "-" +
                                       ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir);
    fs::create_directories(dir);
  }
  void TearDown() override { fs::remove_all(dir); }
  fs::path write(const std::string& text) {
    const fs::path file = dir / "summary.json";
    std::ofstream(file) << text;
    return file;
  }
  fs::path dir;
};

TEST_F(ShardCosts, ReadsWhatEachTestRecordedOfItselfFromASummary) {
  const fs::path file = write(R"({"tests": [
    {"name": "A.recorded", "seconds": 0.004, "properties": {"counter_host_ms": "7.5", "timing_host_ms": "12.5",
                                                           "gate_rules_ms": "2", "median_ns": "900", "device": "0"}},
    {"name": "A.ctest_only", "seconds": 1.5, "properties": {}},
    {"name": "A.nothing", "properties": {"counter_host_ms": "not a number"}}]})");
  const TestSeconds seconds = test_seconds_from_summary(file);
  EXPECT_DOUBLE_EQ(seconds.at("A.recorded"), 0.022);  // its own costs, not the verdict's 4 ms nor the kernel's median
  EXPECT_DOUBLE_EQ(seconds.at("A.ctest_only"), 1.5);
  EXPECT_EQ(seconds.count("A.nothing"), 0u);
}

TEST_F(ShardCosts, RefusesASummaryItCannotRead) {
  const auto refused = [&](const std::string& text, const std::string& why) {
    try {
      test_seconds_from_summary(write(text));
      ADD_FAILURE() << text << " was read";
    } catch (const ShardInputError& e) {
      EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("--shard-durations"), std::string::npos) << e.what();
    }
  };
  refused("{not json", "is not JSON");
  refused(R"({"exit_code": 0})", "has no \"tests\" list");
  refused(R"({"tests": [{"seconds": 1}]})", "has no \"name\"");
  EXPECT_THROW(test_seconds_from_summary(dir / "absent.json"), ShardInputError);
}

TEST(ShardCostsFromBaselines, AddTheKernelTimeOfTheSlowestGpuToEachTest) {
  const fs::path root = fs::path(BANKGATE_SOURCE_DIR) / "baselines";
  const TestSeconds seconds = test_seconds_from_baselines(root, {"Transpose", "NoSuchSuite"});
  ASSERT_TRUE(seconds.count("Transpose.NaiveSquare"));
  double kernel = 0.0;
  for (const char* gpu : {"nvidia-h200", "nvidia-h100-80gb-hbm3"}) {
    const TimingSummary t = *read_suite_file(root / "sm_90" / gpu / "Transpose.json").tests.at("NaiveSquare").timing;
    kernel = std::max(
        kernel, (static_cast<double>(t.samples) * t.launches_per_sample + static_cast<double>(t.warmup_launches)) *
                    t.median_ns / 1e9);
  }
  EXPECT_NEAR(seconds.at("Transpose.NaiveSquare"), shard_cost::per_test_s + kernel, 1e-9);
  for (const auto& [test, s] : seconds)
    EXPECT_TRUE(test.starts_with("Transpose.")) << test;  // only the suites asked for
  EXPECT_TRUE(test_seconds_from_baselines(root / "absent", {"Transpose"}).empty());
}

}  // namespace
