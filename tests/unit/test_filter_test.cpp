// The one test-filter rule: GoogleTest's syntax for selecting tests, and the same selection as ctest regexes.

#include <gtest/gtest.h>

#include <regex>

#include <bankgate/gate/test_filter.hpp>

namespace {

using bankgate::gate::ctest_selection;
using bankgate::gate::matches_filter;

TEST(TestFilter, EmptyMatchesEverything) { EXPECT_TRUE(matches_filter("Suite.test", "")); }

TEST(TestFilter, PositiveAndNegativeParts) {
  EXPECT_TRUE(matches_filter("Transpose.TiledSquare", "Transpose.*"));
  EXPECT_FALSE(matches_filter("Reverse.staticReverse", "Transpose.*"));
  EXPECT_FALSE(matches_filter("Transpose.TiledSquare", "Transpose.*-*Tiled*"));
  EXPECT_TRUE(matches_filter("Transpose.NaiveSquare", "Transpose.*-*Tiled*"));
  EXPECT_TRUE(matches_filter("Reverse.a", "-Transpose.*"));
  EXPECT_TRUE(matches_filter("A.b", "X.*:A.?"));
}

// ctest must run exactly the tests matches_filter selects, the negative part included.
TEST(TestFilter, CtestSelectionAgreesWithMatches) {
  const std::vector<std::string> names{"Transpose.TiledSquare", "Transpose.NaiveSquare", "Reverse.staticReverse",
                                       "Async(1).x", "A.b", "AxB"};
  for (const std::string filter : {"", "Transpose.*", "Transpose.*-*Tiled*", "-Transpose.*", "A.b", "X.*:A.?", "Async(1).*"}) {
    const auto selection = ctest_selection(filter);
    for (const auto& name : names) {
      const bool included = std::regex_search(name, std::regex(selection.include, std::regex::extended));
      const bool excluded = !selection.exclude.empty() && std::regex_search(name, std::regex(selection.exclude, std::regex::extended));
      EXPECT_EQ(included && !excluded, matches_filter(name, filter)) << "filter '" << filter << "', test " << name;
    }
  }
}

}  // namespace
