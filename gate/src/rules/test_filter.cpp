#include <bankgate/gate/rules/test_filter.hpp>

#include <algorithm>
#include <set>
#include <string_view>
#include <vector>

namespace bankgate::gate {
namespace {

// A pattern as read: each element a byte of the name (0-255) or one of the two wildcards.
constexpr int star = -1;  // any run of characters
constexpr int any = -2;   // any one character
using Pattern = std::vector<int>;

struct Filter {
  std::vector<Pattern> positive, negative;
  bool has_negative = false;
};

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Reads the filter once: ':' ends a pattern and the first '-' starts the patterns left out, unless escaped;
// "\xHH" is a byte, '\' before anything else that thing; a '\' at the very end is itself.
Filter parse(std::string_view filter) {
  Filter out;
  std::vector<Pattern>* part = &out.positive;
  part->emplace_back();
  for (std::size_t i = 0; i < filter.size(); ++i) {
    const char c = filter[i];
    if (c == '\\' && i + 3 < filter.size() && filter[i + 1] == 'x' && hex_digit(filter[i + 2]) >= 0 &&
        hex_digit(filter[i + 3]) >= 0) {
      part->back().push_back(hex_digit(filter[i + 2]) * 16 + hex_digit(filter[i + 3]));
      i += 3;
    } else if (c == '\\' && i + 1 < filter.size()) {
      part->back().push_back(static_cast<unsigned char>(filter[++i]));
    } else if (c == ':') {
      part->emplace_back();
    } else if (c == '-' && !out.has_negative) {
      out.has_negative = true;
      part = &out.negative;
      part->emplace_back();
    } else {
      part->back().push_back(c == '*' ? star : c == '?' ? any : static_cast<unsigned char>(c));
    }
  }
  return out;
}

// The whole name must match. A filter comes from a command line or a CI file, so the match must not blow up on
// a pattern like "*a*a*a*a*a*b" (the recursive matcher tried every split between the stars: minutes on a
// 60-character name). This one walks name and pattern once, remembering only the last '*' seen: when a
// character fails to match, that '*' takes one more character of the name and matching resumes just after it.
// Returning to an earlier '*' would never help, since whatever it could absorb the later one can absorb as
// well. At most O(|pattern| * |name|) steps, no recursion, no extra memory.
bool glob(const Pattern& pattern, std::string_view name) {
  constexpr std::size_t none = std::string_view::npos;
  std::size_t p = 0, n = 0;
  std::size_t last_star = none;  // position of the last '*' in the pattern
  std::size_t star_name = 0;     // where in the name that '*' currently stops
  while (n < name.size()) {
    if (p < pattern.size() && pattern[p] == star) {
      last_star = p++;
      star_name = n;
    } else if (p < pattern.size() && (pattern[p] == any || pattern[p] == static_cast<unsigned char>(name[n]))) {
      ++p;
      ++n;
    } else if (last_star != none) {
      p = last_star + 1;
      n = ++star_name;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == star) ++p;  // trailing stars match the empty rest
  return p == pattern.size();
}

bool matches_any(std::string_view name, const std::vector<Pattern>& patterns) {
  return std::any_of(patterns.begin(), patterns.end(), [&](const Pattern& p) { return glob(p, name); });
}

// What GoogleTest's filter cannot hold as itself: its wildcards and separators.
bool gtest_special(char c) { return c == '*' || c == '?' || c == ':' || c == '-'; }

// Whether GoogleTest's pattern for `source` (its special characters as '?') selects `name`.
bool gtest_word_selects(std::string_view source, std::string_view name) {
  if (source.size() != name.size()) return false;
  for (std::size_t i = 0; i < source.size(); ++i)
    if (!gtest_special(source[i]) && source[i] != name[i]) return false;
  return true;
}

std::string gtest_word(std::string name) {
  std::replace_if(name.begin(), name.end(), gtest_special, '?');
  return name;
}

}  // namespace

bool matches_filter(const std::string& name, const std::string& filter) {
  if (filter.empty()) return true;
  const Filter f = parse(filter);
  const bool everything = f.has_negative && f.positive.size() == 1 && f.positive.front().empty();
  return (everything || matches_any(name, f.positive)) && !matches_any(name, f.negative);
}

bool has_negative_part(const std::string& filter) { return parse(filter).has_negative; }

std::optional<std::string> exact_gtest_filter(const std::vector<std::string>& wanted,
                                              const std::vector<std::string>& listed) {
  const std::set<std::string> chosen(wanted.begin(), wanted.end());
  // Whether GoogleTest's pattern for `source` selects one of the wanted tests, or is selected by one's pattern.
  const auto selects_a_wanted = [&](const std::string& source) {
    return std::any_of(chosen.begin(), chosen.end(),
                       [&](const std::string& w) { return gtest_word_selects(source, w); });
  };
  const auto a_wanted_selects = [&](const std::string& name) {
    return std::any_of(chosen.begin(), chosen.end(), [&](const std::string& w) { return gtest_word_selects(w, name); });
  };
  std::set<std::string> words;  // two wanted names may have one
  for (const std::string& name : chosen) words.insert(gtest_word(name));
  std::string positive, negative;
  for (const std::string& word : words) positive += (positive.empty() ? "" : ":") + word;
  for (const std::string& other : listed) {
    if (chosen.count(other) || !a_wanted_selects(other)) continue;
    // Left out by its own pattern, which must then select none of the wanted tests.
    if (selects_a_wanted(other)) return std::nullopt;
    if (!negative.empty()) negative += ':';
    negative += gtest_word(other);
  }
  return negative.empty() ? positive : positive + "-" + negative;
}

}  // namespace bankgate::gate
