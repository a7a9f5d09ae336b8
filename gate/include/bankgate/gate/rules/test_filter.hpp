#pragma once
// Test filters, GoogleTest's syntax: ':'-separated patterns with '*' and '?', then optionally '-' and
// patterns to leave out ("Suite.*:Other.a-Suite.slow"). One rule for every place that selects tests: the
// command's --filter, promotion, comparison and the suite processes' own filter.
//
// GoogleTest's filter has no escape, so a test named "X.a-b" could only be selected as "X.a?b", which selects
// "X.a_b" too. Ours has one: '\' takes the next character as itself ("X.a\-b"), and "\xHH" is the byte HH (for
// a name holding a character that cannot be shown on one line). text.hpp's filter_literal writes a name so.

#include <optional>
#include <string>
#include <vector>

namespace bankgate::gate {

// An empty filter matches everything.
bool matches_filter(const std::string& name, const std::string& filter);

// Whether the filter has patterns to leave out (an unescaped '-').
bool has_negative_part(const std::string& filter);

// A --gtest_filter value that selects exactly `wanted` among a suite program's `listed` tests (which hold them):
// GoogleTest's own filter, with no escape, selects a name holding one of * ? : - by '?' there, and so leaves out
// by name each listed test that this would select too. nullopt where GoogleTest's filter cannot tell them apart
// (two names that differ only in those characters).
std::optional<std::string> exact_gtest_filter(const std::vector<std::string>& wanted,
                                              const std::vector<std::string>& listed);

}  // namespace bankgate::gate
