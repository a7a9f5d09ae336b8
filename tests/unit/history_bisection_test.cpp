// Bisection by counters (bisection.hpp): the first bad commit in log2 probes, unbuildable commits skipped and never
// called bad, and a range where only skipped commits lie between good and bad.

#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include <bankgate/history/bisection.hpp>

namespace {

namespace h = bankgate::history;

// Commits after GOOD, the first `first_bad` of them good, those in `broken` unbuildable.
h::Bisection run(std::size_t commits, std::size_t first_bad, const std::set<std::size_t>& broken = {}) {
  return h::bisect(commits, [&](std::size_t i) {
    if (broken.contains(i)) return h::Probe::skipped;
    return i >= first_bad ? h::Probe::bad : h::Probe::good;
  });
}

TEST(Bisection, FindsEveryFirstBadCommitInLog2Probes) {
  constexpr std::size_t commits = 63;  // a repository of 64 commits: GOOD and the 63 after it, BAD last
  for (std::size_t first_bad = 0; first_bad < commits; ++first_bad) {
    const h::Bisection found = run(commits, first_bad);
    EXPECT_EQ(found.first_bad, first_bad);
    EXPECT_TRUE(found.exact());
    EXPECT_LE(found.probes, 6u) << "first bad " << first_bad;
  }
}

TEST(Bisection, SkipsCommitsThatDoNotBuildNeverCallingThemBad) {
  const h::Bisection found = run(63, 40, {30, 46, 50});  // the first two it would probe
  EXPECT_EQ(found.first_bad, 40u);
  EXPECT_TRUE(found.exact());
  EXPECT_FALSE(found.skipped.empty());
  for (std::size_t s : found.skipped) EXPECT_TRUE(s == 30 || s == 46 || s == 50) << s;
}

TEST(Bisection, GivesARangeWhereOnlyUnbuildableCommitsLieBetween) {
  const h::Bisection found = run(63, 40, {38, 39});
  EXPECT_FALSE(found.exact());
  EXPECT_EQ(found.first_bad, 40u);
  EXPECT_EQ(found.last_good.value_or(99), 37u);
}

TEST(Bisection, ABadFirstCommitNeedsNoGoodOneAfterGood) {
  const h::Bisection found = run(1, 0);
  EXPECT_EQ(found.probes, 0u) << "BAD itself is not probed";
  EXPECT_EQ(found.first_bad, 0u);
  EXPECT_FALSE(found.last_good.has_value());
}

}  // namespace
