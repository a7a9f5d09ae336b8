#pragma once
// Test filters, GoogleTest's syntax: ':'-separated patterns with '*' and '?', then optionally '-' and
// patterns to leave out ("Suite.*:Other.a-Suite.slow"). One rule for every place that selects tests: the
// command's --filter, promotion, comparison and the ctest selection it runs.

#include <string>

namespace bankgate::gate {

// An empty filter matches everything.
bool matches_filter(const std::string& name, const std::string& filter);

// The same selection as ctest regular expressions, anchored: `include` for -R, `exclude` for -E (empty when
// the filter has no negative part).
struct CtestSelection {
  std::string include;
  std::string exclude;
};
CtestSelection ctest_selection(const std::string& filter);

}  // namespace bankgate::gate
