// The one test-filter rule: GoogleTest's syntax for selecting tests, with an escape of its own.

#include <gtest/gtest.h>

#include <chrono>
#include <random>
#include <string>
#include <vector>

#include <bankgate/gate/rules/test_filter.hpp>
#include <bankgate/gate/text/text.hpp>

namespace {

using bankgate::gate::exact_gtest_filter;
using bankgate::gate::filter_literal;
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

// A test's name as filter_literal writes it selects that test and no other, whatever it holds: GoogleTest's
// filter, without an escape, selected "X.a-b" as "X.a?b", which ran "X.a_b" too.
TEST(TestFilter, ALiteralSelectsExactlyItsTest) {
  const std::vector<std::string> names{"X.a-b",
                                       "X.a_b",
                                       "X.a?b",
                                       "X.a*b",
                                       "X.a:b",
                                       "X.a\\b",
                                       "X.a\nb",
                                       "X.a\xff"
                                       "b",
                                       "X.a\u200bb",
                                       "X.ab",
                                       "X.a.b"};
  for (const auto& wanted : names) {
    const std::string filter = filter_literal(wanted);
    for (const auto& name : names) {
      EXPECT_EQ(matches_filter(name, filter), name == wanted) << "filter '" << filter << "', test " << name;
    }
  }
  EXPECT_EQ(filter_literal("X.a-b"), "X.a\\-b");
  EXPECT_EQ(filter_literal("X.a\nb"), "X.a\\x0ab");  // on one line
  EXPECT_TRUE(matches_filter("X.a-b", "X.a\\-b:Y.*-Y.slow"));
  EXPECT_TRUE(matches_filter("Y.a-b", "Y.*-Y.a\\-c"));  // an escaped '-' in the part left out
  EXPECT_FALSE(matches_filter("Y.a-c", "Y.*-Y.a\\-c"));
}

// The suite processes run exactly the wanted tests: GoogleTest's filter leaves out by name each other test its
// '?' would select, and where no GoogleTest filter can tell two tests apart there is none.
TEST(TestFilter, GoogleTestFilterOfExactlyTheWantedTests) {
  const std::vector<std::string> listed{"X.a-b", "X.a_b", "X.c", "Y.d"};
  EXPECT_EQ(exact_gtest_filter({"X.c", "Y.d"}, listed), "X.c:Y.d");
  EXPECT_EQ(exact_gtest_filter({"X.a-b"}, listed), "X.a?b-X.a_b");
  EXPECT_EQ(exact_gtest_filter({"X.a_b"}, listed), "X.a_b");
  EXPECT_EQ(exact_gtest_filter({"X.a-b", "X.a_b"}, listed), "X.a?b:X.a_b");
  EXPECT_EQ(exact_gtest_filter({"X.a-b"}, {"X.a-b", "X.a:b"}), std::nullopt);
  EXPECT_EQ(exact_gtest_filter({"X.a-b", "X.a:b"}, {"X.a-b", "X.a:b"}), "X.a?b");
}

// The matcher must stay fast on the patterns that made the old recursive one try every split between its
// stars: this pair took minutes. Its answer is false (the name has no 'b').
TEST(TestFilter, PatternOfManyStarsAgainstALongNameIsFast) {
  const std::string name(200, 'a');
  const std::string pattern = "*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b";
  const auto start = std::chrono::steady_clock::now();
  EXPECT_FALSE(matches_filter(name, pattern));
  EXPECT_FALSE(matches_filter(name, "X.*:" + pattern));
  EXPECT_TRUE(matches_filter(name, "-" + pattern));
  EXPECT_TRUE(matches_filter(name + "b", pattern));
  const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
  EXPECT_LT(elapsed.count(), 1.0);
}

TEST(TestFilter, WildcardsAndLiterals) {
  EXPECT_TRUE(matches_filter("", "*"));
  EXPECT_FALSE(matches_filter("", "?"));
  EXPECT_TRUE(matches_filter("abc", "a*c"));
  EXPECT_TRUE(matches_filter("ac", "a*c"));
  EXPECT_FALSE(matches_filter("ab", "a*c"));
  EXPECT_TRUE(matches_filter("a*b", "a*b"));
  EXPECT_TRUE(matches_filter("a?b", "a?b"));
  EXPECT_TRUE(matches_filter("axb", "a?b"));
  EXPECT_FALSE(matches_filter("axxb", "a?b"));
  EXPECT_TRUE(matches_filter("mississippi", "m*iss*ppi"));
  EXPECT_TRUE(matches_filter("abab", "*ab"));
  EXPECT_FALSE(matches_filter("abc", "ab"));  // the whole name must match
  EXPECT_FALSE(matches_filter("ab", "abc"));
  EXPECT_TRUE(matches_filter("ab", "ab**"));
}

// A plain dynamic-programming matcher, the definition of the pattern language: does pattern[i..] match
// name[j..]? The gate's matcher must agree with it everywhere.
bool reference_glob(const std::string& pattern, const std::string& name) {
  std::vector<std::vector<char>> matches(pattern.size() + 1, std::vector<char>(name.size() + 1, 0));
  matches[pattern.size()][name.size()] = 1;
  for (std::size_t i = pattern.size(); i-- > 0;)
    for (std::size_t j = name.size() + 1; j-- > 0;) {
      if (pattern[i] == '*')
        matches[i][j] = matches[i + 1][j] || (j < name.size() && matches[i][j + 1]);
      else
        matches[i][j] = j < name.size() && (pattern[i] == '?' || pattern[i] == name[j]) && matches[i + 1][j + 1];
    }
  return matches[0][0] != 0;
}

TEST(TestFilter, AgreesWithAReferenceMatcherOnRandomPatterns) {
  std::mt19937 generator(20240611);
  const std::string pattern_letters = "ab*?";
  const std::string name_letters = "ab*?";  // '*' and '?' in a name are ordinary characters
  auto random_text = [&](const std::string& letters, std::size_t max_length) {
    std::string text(generator() % (max_length + 1), ' ');
    for (char& c : text) c = letters[generator() % letters.size()];
    return text;
  };
  for (int i = 0; i < 20000; ++i) {
    const std::string pattern = random_text(pattern_letters, 7);
    const std::string name = random_text(name_letters, 9);
    if (pattern.empty()) continue;  // an empty filter means "everything", not "the empty name"
    ASSERT_EQ(matches_filter(name, pattern), reference_glob(pattern, name))
        << "pattern '" << pattern << "', name '" << name << "'";
  }
}

}  // namespace
