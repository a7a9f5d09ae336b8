#include <bankgate/gate/rules/expectation_check.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include <bankgate/gate/text/number_format.hpp>
#include <bankgate/metrics.hpp>

namespace bankgate::gate {
namespace {

// Exact but for the last bits of two divisions (8/11 computed from counts against 8.0/11.0 written).
bool holds(double measured, double stated) {
  return std::abs(measured - stated) <= 1e-12 * std::max(1.0, std::abs(stated));
}

std::string with_digits(double value, int digits) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*g", digits, value);
  return text;
}

// "(131080 cp.async shared transactions / 32768 cp.async requests)": the counts a ratio of the table comes from.
std::string counts_behind(const RatioTraits& ratio, const KernelRecord& measured) {
  const auto numerator = measured.counters.find(std::string(ratio.numerator));
  const auto denominator = measured.counters.find(std::string(ratio.denominator));
  if (numerator == measured.counters.end() || denominator == measured.counters.end()) return "";
  return " (" + format_number(numerator->second.value) + " " + std::string(display_name(ratio.numerator)) + " / " +
         format_number(denominator->second.value) + " " + std::string(display_name(ratio.denominator)) + ")";
}

}  // namespace

std::string format_apart(double value, double other) {
  std::string text = format_number(value);
  if (value == other || text != format_number(other)) return text;
  for (int digits = 4; digits <= 17; ++digits) {
    text = with_digits(value, digits);
    if (text != with_digits(other, digits)) return text;
  }
  return text;
}

std::vector<std::string> unmet_expectations(const KernelRecord& measured) {
  std::vector<std::string> unmet;
  if (!measured.expected) return unmet;
  for (const auto& [key, stated] : measured.expected->ratios) {
    const RatioTraits* ratio = find_ratio(key);
    const auto got = measured.derived.find(key);
    if (ratio == nullptr || got == measured.derived.end()) {
      unmet.push_back("the kernel's source states " + key +
                      ", which is not a ratio of the metric table or was not measured");
      continue;
    }
    if (holds(got->second, stated)) continue;
    unmet.push_back(std::string(ratio->display) + " is " + format_apart(got->second, stated) +
                    counts_behind(*ratio, measured) + ", the kernel's source says " + format_number(stated) + ": " +
                    measured.expected->why);
  }
  return unmet;
}

}  // namespace bankgate::gate
