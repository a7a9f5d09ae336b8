#include <bankgate/gate/text/number_format.hpp>

#include <cmath>
#include <cstdio>

namespace bankgate::gate {

std::string format_number(double value) {
  char text[64];
  if (std::isfinite(value) && value == std::floor(value) && std::abs(value) < 1e15)
    std::snprintf(text, sizeof text, "%.0f", value);
  else
    std::snprintf(text, sizeof text, "%.3f", value);
  std::string s = text;
  if (s.find('.') != std::string::npos) {
    s.erase(s.find_last_not_of('0') + 1);
    if (s.back() == '.') s.pop_back();
  }
  return s;
}

std::string format_change(double measured, double baseline) {
  const double delta = measured - baseline;
  std::string text = delta >= 0 ? "+" : "";  // (appended, not concatenated: g++ 12 warns falsely on the latter)
  text += format_number(delta);
  if (baseline != 0.0) {
    char percent[32];
    std::snprintf(percent, sizeof percent, " (%+.1f%%)", 100.0 * delta / baseline);
    text += percent;
  }
  return text;
}

}  // namespace bankgate::gate
