// The same-runner timing rule (round_judgement.hpp): decisions on constructed rounds, and its false-alarm and
// detection rates on simulated rounds of a known noise.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include <bankgate/gate/round_judgement.hpp>

namespace {

using namespace bankgate::gate;

RoundEvidence rounds(std::vector<double> base, std::vector<double> head, int k = 1) {
  return {std::move(base), std::move(head), {}, {}, k};
}

TEST(RoundJudgement, EqualRoundsPass) {
  const RoundDecision d = judge_rounds(rounds({30000, 30030, 29990}, {30010, 29980, 30020}));
  EXPECT_EQ(d.verdict, Verdict::pass) << d.detail;
  EXPECT_EQ(d.rounds, 3u);
}

TEST(RoundJudgement, OnePercentOnAQuietRunnerIsSlower) {
  const RoundDecision d = judge_rounds(rounds({30000, 30030, 29990}, {30310, 30290, 30320}));
  EXPECT_EQ(d.verdict, Verdict::slower) << d.detail;
  EXPECT_NEAR(d.change, 0.0103, 0.001);
  EXPECT_GT(d.low, 0.0);
}

TEST(RoundJudgement, ASignificantChangeBelowTheFloorPasses) {
  // +0.2%, clearly real with this little noise, but below the 0.5% floor.
  const RoundDecision d = judge_rounds(rounds({30000, 30001, 29999}, {30060, 30061, 30059}));
  EXPECT_GT(d.low, 0.0);
  EXPECT_EQ(d.verdict, Verdict::pass) << d.detail;
}

TEST(RoundJudgement, NoisyRoundsAreInconclusive) {
  const RoundDecision d = judge_rounds(rounds({30000, 30600, 29700}, {30300, 30900, 30000}));
  EXPECT_EQ(d.verdict, Verdict::inconclusive) << d.detail;
  EXPECT_LT(d.low, 0.0);
  EXPECT_GT(d.high, d.floor);
}

TEST(RoundJudgement, FasterIsReportedAsFaster) {
  EXPECT_EQ(judge_rounds(rounds({30000, 30030, 29990}, {29000, 29010, 28990})).verdict, Verdict::faster);
}

TEST(RoundJudgement, TheFloorIsAQuarterTickOnShortKernels) {
  // A quarter of a 32 ns tick is 0.8% of 1000 ns with one launch per sample, 0.025% with 32.
  EXPECT_NEAR(judge_rounds(rounds({1000, 1000}, {1000, 1000})).floor, 0.008, 1e-12);
  EXPECT_NEAR(judge_rounds(rounds({1000, 1000}, {1000, 1000}, 32)).floor, 0.005, 1e-12);
}

TEST(RoundJudgement, WithinRoundErrorsBoundTheNoiseFromBelow) {
  // Two rounds that happen to agree exactly know their medians only to 1%: a 1.5% change is not decided.
  RoundEvidence e = rounds({30000, 30000}, {30450, 30450});
  e.base_relative_se = {0.01, 0.01};
  e.head_relative_se = {0.01, 0.01};
  const RoundDecision d = judge_rounds(e);
  EXPECT_NEAR(d.noise, 0.01, 1e-12);
  EXPECT_EQ(d.verdict, Verdict::inconclusive) << d.detail;
}

TEST(RoundJudgement, RefusesFewerThanTwoRoundsAndNonPositiveMedians) {
  EXPECT_THROW(judge_rounds(rounds({30000}, {30000, 30000})), std::invalid_argument);
  EXPECT_THROW(judge_rounds(rounds({30000, 0}, {30000, 30000})), std::invalid_argument);
  EXPECT_DOUBLE_EQ(t_quantile_999(4), 8.610);
  EXPECT_DOUBLE_EQ(t_quantile_999(1000), 3.291);
  EXPECT_DOUBLE_EQ(t_quantile_90(4), 2.132);
}

// Simulated comparisons: each round's median is the true median times exp(noise), the noise normal. The rule
// must almost never call an unchanged kernel slower, and must catch the targets where the runner's
// round-to-round noise is what was measured on an H200 (base against base within 0.2% on 30 us kernels).
struct Rates {
  int slower = 0, inconclusive = 0;
};

Rates simulate(double true_change, double noise, int rounds_per_side, int compares, std::uint32_t seed) {
  std::mt19937 random(seed);
  std::uniform_real_distribution<double> unit(1e-12, 1.0);
  const auto normal = [&] { return std::sqrt(-2.0 * std::log(unit(random))) * std::cos(2.0 * M_PI * unit(random)); };
  Rates r;
  for (int c = 0; c < compares; ++c) {
    RoundEvidence e;
    for (int i = 0; i < rounds_per_side; ++i) {
      e.base_medians_ns.push_back(30000.0 * std::exp(noise * normal()));
      e.head_medians_ns.push_back(30000.0 * (1.0 + true_change) * std::exp(noise * normal()));
    }
    const Verdict v = judge_rounds(e).verdict;
    r.slower += v == Verdict::slower;
    r.inconclusive += v == Verdict::inconclusive;
  }
  return r;
}

TEST(RoundJudgement, SimulatedFalseAlarmsAndDetection) {
  // Five rounds per side, compare's default.
  const Rates same = simulate(0.0, 0.001, 5, 2000, 1);
  EXPECT_EQ(same.slower, 0) << "false alarms in 2000 A/A compares at 0.1% noise";
  EXPECT_LE(same.inconclusive, 20);
  const Rates one_percent = simulate(0.01, 0.001, 5, 2000, 2);
  EXPECT_GE(one_percent.slower, 1900) << "a 1% slowdown caught in at least 95%";
  const Rates noisy = simulate(0.0, 0.01, 5, 2000, 3);
  EXPECT_LE(noisy.slower, 2) << "false alarms at 1% noise, 99.9% intervals";
}

}  // namespace
