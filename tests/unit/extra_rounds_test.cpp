// A comparison's extra time (extra_rounds.hpp): which undecided tests get more rounds within a budget, which are
// out of its reach, when it stops, what the verdicts then say; and the loop the command runs, on pooled rounds
// built in memory, deciding a noisy test and giving up on one whose change sits on the floor.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <bankgate/gate/rules/extra_rounds.hpp>
#include <bankgate/gate/rules/test_filter.hpp>

namespace {

using namespace bankgate::gate;

// 1% round-to-round noise and no change: inconclusive with 3 rounds a side, decided by a few more.
const std::vector<double> wobbly{30000, 30300, 29700};
// 0.3% noise and head 0.48% slower: a change a hair under the 30 us kernel's 0.5% floor, which only thousands
// of rounds could tell from one over it.
const std::vector<double> on_floor_base{30000, 30090, 29910}, on_floor_head{30144, 30234.432, 30053.568};

UndecidedTest undecided(const std::string& name, const std::vector<double>& base, const std::vector<double>& head) {
  return {name, judge_rounds({base, head, 1})};
}

RoundBudget budget(double seconds_left, double seconds_per_test) { return {seconds_left, seconds_per_test}; }

TEST(ExtraRounds, AnUndecidedTestThatTheBudgetCanDecideIsMeasured) {
  const UndecidedTest t = undecided("Noisy.wobbly", wobbly, wobbly);
  ASSERT_EQ(t.decision.verdict, Verdict::inconclusive) << t.decision.detail;
  const ExtraRoundPlan plan = plan_extra_round({t}, budget(100.0, 1.0));
  EXPECT_EQ(plan.measure, std::vector<std::string>{"Noisy.wobbly"});
  EXPECT_TRUE(plan.out_of_reach.empty());
  EXPECT_FALSE(plan.budget_spent);
  EXPECT_DOUBLE_EQ(plan.forecast_seconds, 1.0);
}

TEST(ExtraRounds, ATestWhoseChangeSitsOnTheFloorGetsOnlyWhatTheDecidableOnesLeave) {
  const UndecidedTest edge = undecided("Edge.onFloor", on_floor_base, on_floor_head);
  const UndecidedTest noisy = undecided("Noisy.wobbly", wobbly, wobbly);
  ASSERT_EQ(edge.decision.verdict, Verdict::inconclusive) << edge.decision.detail;
  ASSERT_EQ(rounds_to_decide(edge.decision, 64), 64u) << "as judged, no number of rounds decides it";
  const std::size_t noisy_needs = rounds_to_decide(noisy.decision, 64) - noisy.decision.rounds;
  // Just what the decidable test needs: all of it goes there.
  const ExtraRoundPlan tight = plan_extra_round({edge, noisy}, budget(static_cast<double>(noisy_needs), 1.0));
  EXPECT_EQ(tight.measure, std::vector<std::string>{"Noisy.wobbly"});
  EXPECT_EQ(tight.out_of_reach, std::vector<std::string>{"Edge.onFloor"});
  // Budget to spare: its change may be partly chance, and more rounds may show it smaller.
  const ExtraRoundPlan ample = plan_extra_round({edge, noisy}, budget(1000.0, 1.0));
  EXPECT_EQ(ample.measure, (std::vector<std::string>{"Edge.onFloor", "Noisy.wobbly"}));
  EXPECT_TRUE(ample.out_of_reach.empty());
  EXPECT_FALSE(ample.budget_spent);
}

TEST(ExtraRounds, ATestOnTheFloorAfterManyRoundsIsOutOfReach) {
  // The same change and noise over 45 rounds a side: one standard error nearer to none is still too near the floor
  // for the 50 rounds a side that any budget buys.
  std::vector<double> base, head;
  for (int i = 0; i < 15; ++i) {
    base.insert(base.end(), on_floor_base.begin(), on_floor_base.end());
    head.insert(head.end(), on_floor_head.begin(), on_floor_head.end());
  }
  const UndecidedTest t = undecided("Edge.onFloor", base, head);
  ASSERT_EQ(t.decision.verdict, Verdict::inconclusive) << t.decision.detail;
  const ExtraRoundPlan plan = plan_extra_round({t}, budget(1000.0, 1.0));
  EXPECT_TRUE(plan.measure.empty()) << "no rounds spent on a test they cannot decide";
  EXPECT_EQ(plan.out_of_reach, std::vector<std::string>{"Edge.onFloor"});
  EXPECT_FALSE(plan.budget_spent);
}

TEST(ExtraRounds, ATestNeedingMoreRoundsThanTheBudgetBuysGetsNone) {
  const UndecidedTest t = undecided("Noisy.wobbly", wobbly, wobbly);
  const std::size_t needed = rounds_to_decide(t.decision, 64) - t.decision.rounds;
  ASSERT_GT(needed, 1u);
  const double per_test = 2.0;
  // One test-round short of what it needs: none; exactly what it needs: measured.
  EXPECT_TRUE(plan_extra_round({t}, budget(per_test * static_cast<double>(needed - 1), per_test)).measure.empty());
  EXPECT_EQ(plan_extra_round({t}, budget(per_test * static_cast<double>(needed), per_test)).measure.size(), 1u);
}

TEST(ExtraRounds, ATightBudgetGoesToTheTestsNeedingFewestRounds) {
  // Both have the same noise; the one with more rounds already needs fewer further ones.
  const std::vector<double> longer{30000, 30300, 29700, 30000, 30300, 29700, 30000};
  const UndecidedTest fresh = undecided("A.fresh", wobbly, wobbly), further = undecided("B.further", longer, longer);
  ASSERT_EQ(further.decision.verdict, Verdict::inconclusive) << further.decision.detail;
  const std::size_t fresh_needs = rounds_to_decide(fresh.decision, 64) - fresh.decision.rounds;
  const std::size_t further_needs = rounds_to_decide(further.decision, 64) - further.decision.rounds;
  ASSERT_LT(further_needs, fresh_needs);
  const ExtraRoundPlan tight = plan_extra_round({fresh, further}, budget(static_cast<double>(further_needs), 1.0));
  EXPECT_EQ(tight.measure, std::vector<std::string>{"B.further"});
  EXPECT_EQ(tight.out_of_reach, std::vector<std::string>{"A.fresh"});
  const ExtraRoundPlan ample =
      plan_extra_round({further, fresh}, budget(static_cast<double>(fresh_needs + further_needs), 1.0));
  EXPECT_EQ(ample.measure, (std::vector<std::string>{"A.fresh", "B.further"})) << "in name order";
  EXPECT_DOUBLE_EQ(ample.forecast_seconds, 2.0);
}

TEST(ExtraRounds, ABudgetBelowOneTestsRoundIsSpent) {
  const ExtraRoundPlan plan = plan_extra_round({undecided("Noisy.wobbly", wobbly, wobbly)}, budget(0.9, 1.0));
  EXPECT_TRUE(plan.budget_spent);
  EXPECT_TRUE(plan.measure.empty());
  EXPECT_EQ(plan.out_of_reach, std::vector<std::string>{"Noisy.wobbly"});
  EXPECT_TRUE(plan_extra_round({}, budget(-5.0, 1.0)).budget_spent) << "an overrun is no budget";
}

TEST(ExtraRounds, RoundsAreCappedPerSideWhateverTheBudget) {
  const UndecidedTest t = undecided("Noisy.wobbly", wobbly, wobbly);
  const std::size_t wanted = rounds_to_decide(t.decision, 64);
  RoundBudget capped = budget(1e9, 1.0);
  capped.most_rounds = wanted - 1;
  EXPECT_EQ(plan_extra_round({t}, capped).out_of_reach, std::vector<std::string>{"Noisy.wobbly"});
  capped.most_rounds = wanted;
  EXPECT_EQ(plan_extra_round({t}, capped).measure, std::vector<std::string>{"Noisy.wobbly"});
}

TEST(ExtraRounds, DecidedTestsAndBadCostsAreNotPlanned) {
  const UndecidedTest decided = undecided("Quiet.steady", {30000, 30030, 29990}, {30010, 29980, 30020});
  ASSERT_EQ(decided.decision.verdict, Verdict::pass);
  const ExtraRoundPlan plan = plan_extra_round({decided}, budget(100.0, 1.0));
  EXPECT_TRUE(plan.measure.empty());
  EXPECT_TRUE(plan.out_of_reach.empty());
  EXPECT_THROW(plan_extra_round({decided}, budget(100.0, 0.0)), std::invalid_argument);
}

TEST(ExtraRounds, ARoundsCostIsSharedByItsTests) {
  EXPECT_DOUBLE_EQ(seconds_per_test(12.0, 4), 3.0);
  EXPECT_GT(seconds_per_test(0.0, 1), 0.0) << "a round never costs nothing";
  EXPECT_THROW(seconds_per_test(1.0, 0), std::invalid_argument);
}

TEST(ExtraRounds, TheFilterSelectsExactlyTheNamedTests) {
  const std::string filter = filter_naming({"Noisy.wobbly", "Other.a"});
  EXPECT_EQ(filter, "Noisy.wobbly:Other.a");
  EXPECT_TRUE(matches_filter("Noisy.wobbly", filter));
  EXPECT_TRUE(matches_filter("Other.a", filter));
  EXPECT_FALSE(matches_filter("Noisy.wobblyToo", filter));
  EXPECT_FALSE(matches_filter("Quiet.steady", filter));
}

TEST(ExtraRounds, DurationsAreSecondsMinutesOrHours) {
  EXPECT_EQ(duration_seconds("90"), 90.0);
  EXPECT_EQ(duration_seconds("90s"), 90.0);
  EXPECT_EQ(duration_seconds("1.5m"), 90.0);
  EXPECT_EQ(duration_seconds("10m"), 600.0);
  EXPECT_EQ(duration_seconds("1h"), 3600.0);
  EXPECT_EQ(duration_seconds("0"), 0.0);
  for (const char* bad : {"", "-1", "10x", "m", "1e3", "nan", "inf", "1 m", "ten", "1ms"})
    EXPECT_FALSE(duration_seconds(bad).has_value()) << bad;
}

TEST(ExtraRounds, AnUndecidedVerdictSaysItsRoundsAndTheBudget) {
  ExtraRounds extra;
  extra.budget_seconds = 60.0;
  extra.budget_spent = true;
  EXPECT_EQ(undecided_note(9, extra), "INCONCLUSIVE after 9 rounds; budget of 60 s spent");
  extra.budget_spent = false;
  extra.budget_seconds = 2.5;
  EXPECT_EQ(undecided_note(5, extra),
            "INCONCLUSIVE after 5 rounds; deciding it needs more rounds than the budget of 2.5 s allows (or more "
            "than 50 a side)");
}

TEST(ExtraRounds, OnlyUndecidedDurationsCarryTheNote) {
  Finding undecided_time, decided_time, counter;
  undecided_time.timing = decided_time.timing = true;
  undecided_time.verdict = Verdict::inconclusive;
  undecided_time.detail = "+0.10% (...)";
  decided_time.verdict = Verdict::pass;
  counter.verdict = Verdict::inconclusive;  // no counter is ever inconclusive; a note would still be wrong on one
  ComparisonRow row{"Noisy.wobbly", true, {undecided_time, decided_time, counter}, 8, 7};
  std::vector<ComparisonRow> rows{row};
  ExtraRounds extra;
  extra.budget_seconds = 30.0;
  extra.budget_spent = true;
  note_undecided(rows, extra);
  EXPECT_EQ(rows[0].findings[0].detail, "+0.10% (...); INCONCLUSIVE after 7 rounds; budget of 30 s spent");
  EXPECT_EQ(rows[0].findings[1].detail, "");
  EXPECT_EQ(rows[0].findings[2].detail, "");
}

TEST(ExtraRounds, TheLineNamesEachTestsExtraRounds) {
  ExtraRounds extra{45.0, 12.25, 4, {{"Noisy.wobbly", 4}, {"Other.a", 2}}, false};
  EXPECT_EQ(extra_rounds_line(extra), "extra time: 4 rounds in 12 s of a 45 s budget: Noisy.wobbly +4, Other.a +2");
  EXPECT_EQ(extra_rounds_line({5.0, 0.0, 0, {}, false}), "extra time: 0 rounds in 0.0 s of a 5.0 s budget");
}

// The command's loop, on rounds kept in memory: judge, plan, measure the planned tests only, until nothing is
// planned.
TestRecord timed(double median_ns) {
  TestRecord r;
  r.kernel = "k";
  r.correct = true;
  TimingSummary t;
  t.median_ns = median_ns;
  t.samples = 40;
  r.timing = t;
  return r;
}

void add_round(PooledRuns& runs, const std::string& test, double median_ns) {
  runs.records.try_emplace(test, timed(median_ns));
  runs.rounds[test].medians_ns.push_back(median_ns);
}

struct Simulated {
  PooledRuns base, head;
  ExtraRounds extra;
};

// Round r of a test gives the r-th value of its cycle, on each side.
void measure(Simulated& s, const std::vector<std::string>& tests, std::size_t round) {
  for (const std::string& t : tests) {
    const bool floor_case = t == "Edge.onFloor";
    add_round(s.base, t, (floor_case ? on_floor_base : wobbly)[round % 3]);
    add_round(s.head, t, (floor_case ? on_floor_head : wobbly)[round % 3]);
  }
}

TEST(ExtraRounds, TheLoopDecidesTheNoisyTestAndGivesUpOnTheOneOnTheFloor) {
  Simulated s;
  for (std::size_t round = 0; round < 3; ++round) {
    measure(s, {"Edge.onFloor", "Noisy.wobbly"}, round);
    add_round(s.base, "Quiet.steady", 30000);
    add_round(s.head, "Quiet.steady", 30000);
  }
  ASSERT_EQ(undecided_tests(s.base, s.head).size(), 2u);
  const std::size_t expected = rounds_to_decide(undecided_tests(s.base, s.head)[1].decision, 64);
  double left = 100.0;
  for (ExtraRoundPlan plan = plan_extra_round(undecided_tests(s.base, s.head), budget(left, 1.0));
       !plan.measure.empty(); plan = plan_extra_round(undecided_tests(s.base, s.head), budget(left, 1.0))) {
    measure(s, plan.measure, 3 + s.extra.rounds);
    for (const std::string& t : plan.measure) ++s.extra.given[t];
    ++s.extra.rounds;
    left -= plan.forecast_seconds;
  }
  // Judged again after each round, the noisy test stops as soon as it is decided: no later than the first estimate.
  const std::size_t given = s.extra.given.at("Noisy.wobbly");
  EXPECT_GE(given, 1u);
  EXPECT_LE(given, expected - 3);
  // The test on the floor got rounds while one standard error nearer to none could still be decided, and no more:
  // its change stays where it was, so the hope ran out before the budget did.
  const std::size_t edge = s.extra.given.at("Edge.onFloor");
  EXPECT_GT(edge, given);
  EXPECT_LT(edge, 47u);
  EXPECT_EQ(s.extra.rounds, edge);
  EXPECT_GT(left, 0.0) << "stopped early, with budget left";
  const std::vector<ComparisonRow> rows = compare_runs(s.base, s.head);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].findings.back().verdict, Verdict::inconclusive);
  EXPECT_EQ(rows[1].findings.back().verdict, Verdict::pass) << rows[1].findings.back().detail;
  // The pooled rounds differ between tests: each row says how many it got.
  EXPECT_EQ(std::make_pair(rows[0].base_rounds, rows[0].head_rounds), std::make_pair(3 + edge, 3 + edge));
  EXPECT_EQ(std::make_pair(rows[1].base_rounds, rows[1].head_rounds), std::make_pair(3 + given, 3 + given));
  EXPECT_EQ(rows[2].base_rounds, 3u);
}

TEST(ExtraRounds, TheBasesOwnFloorJudgesTheRoundsAndAHeadCannotLoosenIt) {
  // The wobbly test's change, 0.48%, on its 30 us kernel's 0.5% floor: undecided at the policy's floor, ok at a
  // floor of 2% the test set itself, but only where the base set it.
  const auto pooled = [](double base_floor, double head_floor) {
    std::pair<PooledRuns, PooledRuns> sides;
    for (std::size_t r = 0; r < on_floor_base.size(); ++r) {
      add_round(sides.first, "Edge.onFloor", on_floor_base[r]);
      add_round(sides.second, "Edge.onFloor", on_floor_head[r]);
    }
    sides.first.records.at("Edge.onFloor").timing->tolerance.compare_floor = base_floor;
    sides.second.records.at("Edge.onFloor").timing->tolerance.compare_floor = head_floor;
    return sides;
  };
  const auto verdict = [](const std::pair<PooledRuns, PooledRuns>& sides) {
    return compare_runs(sides.first, sides.second).front().findings.back();
  };
  const auto [base_sets, base_sets_head] = pooled(0.02, 0.0);
  const Finding own = verdict(pooled(0.02, 0.0));
  EXPECT_EQ(own.verdict, Verdict::pass) << own.detail;
  EXPECT_NE(own.tolerance.find("beyond 2.00% (the test's own floor)"), std::string::npos) << own.tolerance;
  EXPECT_TRUE(undecided_tests(base_sets, base_sets_head).empty());
  const Finding head_only = verdict(pooled(0.0, 0.02));
  EXPECT_EQ(head_only.verdict, Verdict::inconclusive) << head_only.detail;
  EXPECT_EQ(head_only.tolerance.find("the test's own"), std::string::npos) << head_only.tolerance;
  const auto [base_policy, head_loose] = pooled(0.0, 0.02);
  ASSERT_EQ(undecided_tests(base_policy, head_loose).size(), 1u);
  EXPECT_FALSE(undecided_tests(base_policy, head_loose).front().decision.floor_of_test);
  // The comparison names the tests judged by a floor of their own, from the base.
  EXPECT_EQ(own_floors_line(base_sets),
            "floors of their own (timing_tolerance.compare_floor; where larger than the comparison's, smaller changes "
            "count as none): Edge.onFloor 2%");
  EXPECT_EQ(own_floors_line(base_policy), "");
}

TEST(ExtraRounds, TheExtraTimePlansWithTheTestsOwnFloor) {
  // 2% round-to-round noise: undecided after 3 rounds even at a floor of 2%, and planned at that floor.
  PooledRuns base, head;
  for (double median : {30000.0, 30600.0, 29400.0}) {
    add_round(base, "Loud.test", median);
    add_round(head, "Loud.test", median);
  }
  base.records.at("Loud.test").timing->tolerance.compare_floor = 0.02;
  const std::vector<UndecidedTest> undecided = undecided_tests(base, head);
  ASSERT_EQ(undecided.size(), 1u);
  EXPECT_TRUE(undecided.front().decision.floor_of_test);
  EXPECT_DOUBLE_EQ(undecided.front().decision.floor, 0.02);
  // At the policy's 0.5% floor it would need many more rounds than at the test's 2%.
  base.records.at("Loud.test").timing->tolerance.compare_floor = 0.0;
  EXPECT_LT(rounds_to_decide(undecided.front().decision, 64),
            rounds_to_decide(undecided_tests(base, head).front().decision, 64));
}

// Simulated comparisons of one 30 us test with its extra time: each round's median is the true median times
// exp(noise), the noise normal, 1% of it between rounds (AsyncCopy's, at the most); 5 rounds a side, then rounds
// while plan_extra_round plans them within a budget of 45 test-rounds. Judging after every round is a look at the
// data each time: the verdicts must still hold for what the rule is built for.
struct Outcomes {
  int ok = 0, slower = 0, inconclusive = 0;
};

Outcomes simulate_with_extra_time(double true_change, int compares, std::uint32_t seed) {
  std::mt19937 random(seed);
  std::uniform_real_distribution<double> unit(1e-12, 1.0);
  const auto normal = [&] { return std::sqrt(-2.0 * std::log(unit(random))) * std::cos(2.0 * M_PI * unit(random)); };
  Outcomes o;
  for (int c = 0; c < compares; ++c) {
    PooledRuns base, head;
    const auto round = [&] {
      add_round(base, "Sim.test", 30000.0 * std::exp(0.01 * normal()));
      add_round(head, "Sim.test", 30000.0 * (1.0 + true_change) * std::exp(0.01 * normal()));
    };
    for (int r = 0; r < 5; ++r) round();
    for (double left = 45.0; !plan_extra_round(undecided_tests(base, head), budget(left, 1.0)).measure.empty();
         left -= 1.0)
      round();
    const Verdict v = compare_runs(base, head).front().findings.back().verdict;
    o.ok += v == Verdict::pass;
    o.slower += v == Verdict::slower;
    o.inconclusive += v == Verdict::inconclusive;
  }
  return o;
}

TEST(ExtraRounds, SimulatedVerdictsHoldAfterRepeatedLooks) {
  // At this noise (twice the floor) five rounds rarely decide an unchanged test, and its change as judged mostly
  // looks out of reach: the extra time must decide a good share, and never call it slower.
  const Outcomes same = simulate_with_extra_time(0.0, 400, 11);
  EXPECT_EQ(same.slower, 0) << "false alarms in 400 A/A compares";
  EXPECT_GE(same.ok, 150) << "unchanged tests decided ok: " << same.ok << " of 400";
  // The slowdown the rule is built for (1%) is never called ok, however often it is looked at.
  const Outcomes target = simulate_with_extra_time(0.01, 400, 13);
  EXPECT_EQ(target.ok, 0);
  EXPECT_GE(target.slower, 100) << "1% slowdowns caught: " << target.slower << " of 400";
  // A change the size of the floor, half the target, lies on the edge of "ok": repeated looks may call it ok,
  // but rarely.
  const Outcomes floor = simulate_with_extra_time(0.005, 400, 12);
  EXPECT_LE(floor.ok, 40) << "floor-size changes called ok: " << floor.ok << " of 400";
}

}  // namespace
