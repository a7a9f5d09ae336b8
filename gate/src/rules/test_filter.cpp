#include <bankgate/gate/rules/test_filter.hpp>

#include <algorithm>
#include <string_view>
#include <vector>

namespace bankgate::gate {
namespace {

// '*' matches any run of characters, '?' any one character, anything else itself; the whole name must match.
// A filter comes from a command line or a CI file, so the match must not blow up on a pattern like
// "*a*a*a*a*a*b" (the recursive matcher tried every split between the stars: minutes on a 60-character name).
// This one walks name and pattern once, remembering only the last '*' seen: when a character fails to match,
// that '*' takes one more character of the name and matching resumes just after it. Returning to an earlier
// '*' would never help, since whatever it could absorb the later one can absorb as well. At most
// O(|pattern| * |name|) steps, no recursion, no extra memory.
bool glob(std::string_view pattern, std::string_view name) {
  constexpr std::size_t none = std::string_view::npos;
  std::size_t p = 0, n = 0;
  std::size_t star = none;    // position of the last '*' in the pattern
  std::size_t star_name = 0;  // where in the name that '*' currently stops
  while (n < name.size()) {
    if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      star_name = n;
    } else if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == name[n])) {
      ++p;
      ++n;
    } else if (star != none) {
      p = star + 1;
      n = ++star_name;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;  // trailing stars match the empty rest
  return p == pattern.size();
}

std::vector<std::string> split_patterns(const std::string& patterns) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (start <= patterns.size()) {
    const std::size_t end = std::min(patterns.find(':', start), patterns.size());
    parts.push_back(patterns.substr(start, end - start));
    start = end + 1;
  }
  return parts;
}

bool matches_any(const std::string& name, const std::string& patterns) {
  const auto parts = split_patterns(patterns);
  return std::any_of(parts.begin(), parts.end(), [&](const std::string& p) { return glob(p, name); });
}

std::pair<std::string, std::string> positive_and_negative(const std::string& filter) {
  const std::size_t minus = filter.find('-');
  if (minus == std::string::npos) return {filter, ""};
  return {filter.substr(0, minus), filter.substr(minus + 1)};
}

// One glob pattern as an ERE fragment.
std::string pattern_regex(const std::string& pattern) {
  std::string out;
  for (char c : pattern) {
    if (c == '*')
      out += ".*";
    else if (c == '?')
      out += '.';
    else if (std::string_view("\\^$.|+()[]{}").find(c) != std::string_view::npos)
      out += std::string("\\") + c;
    else
      out += c;
  }
  return out;
}

std::string anchored_alternatives(const std::string& patterns) {
  std::string out;
  for (const std::string& p : split_patterns(patterns)) out += (out.empty() ? "" : "|") + pattern_regex(p);
  return "^(" + out + ")$";
}

}  // namespace

bool matches_filter(const std::string& name, const std::string& filter) {
  if (filter.empty()) return true;
  const auto [positive, negative] = positive_and_negative(filter);
  const bool included = positive.empty() || matches_any(name, positive);
  return included && (negative.empty() || !matches_any(name, negative));
}

CtestSelection ctest_selection(const std::string& filter) {
  const auto [positive, negative] = positive_and_negative(filter);
  return {anchored_alternatives(positive.empty() ? "*" : positive),
          negative.empty() ? "" : anchored_alternatives(negative)};
}

}  // namespace bankgate::gate
