#pragma once
// What a kernel's source says its ratios should be (KernelRecord::expected) against what was measured: the ratios
// that do not hold, in words. Exact, as the counters are: a ratio holds only when it equals the stated value (but
// for the last bits of two divisions).

#include <string>
#include <vector>

#include <bankgate/gate/rules/baseline.hpp>

namespace bankgate::gate {

// One sentence per stated ratio that the record does not show, naming the ratio, its measured value with as many
// digits as it takes to differ visibly from the stated one (4.00024, never a rounded 4 beside "says 4"), the
// counts it comes from, the stated value and the source's reason; a stated ratio the record lacks is named as such.
// Ratios that hold are not mentioned: an empty list means the source's expectation holds.
std::vector<std::string> unmet_expectations(const KernelRecord& measured);

// `value` as reports write numbers (format_number), or with more significant digits where that would read the same
// as `other` although the two differ.
std::string format_apart(double value, double other);

}  // namespace bankgate::gate
