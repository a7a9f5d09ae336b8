#include <bankgate/gate/test_filter.hpp>

#include <algorithm>
#include <vector>

namespace bankgate::gate {
namespace {

bool glob(const char* pattern, const char* text) {
  if (*pattern == '\0') return *text == '\0';
  if (*pattern == '*') return glob(pattern + 1, text) || (*text != '\0' && glob(pattern, text + 1));
  if (*text == '\0') return false;
  return (*pattern == '?' || *pattern == *text) && glob(pattern + 1, text + 1);
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
  return std::any_of(parts.begin(), parts.end(), [&](const std::string& p) { return glob(p.c_str(), name.c_str()); });
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
    if (c == '*') out += ".*";
    else if (c == '?') out += '.';
    else if (std::string_view("\\^$.|+()[]{}").find(c) != std::string_view::npos) out += std::string("\\") + c;
    else out += c;
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
  return {anchored_alternatives(positive.empty() ? "*" : positive), negative.empty() ? "" : anchored_alternatives(negative)};
}

}  // namespace bankgate::gate
