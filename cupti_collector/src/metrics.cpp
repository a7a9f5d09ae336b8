#include <bankgate/metrics.hpp>

#include <cxxabi.h>

#include <array>
#include <cstdlib>
#include <cctype>
#include <string_view>

#include <bankgate/errors.hpp>

#include "names.hpp"

namespace bankgate {

double KernelCounters::at(const std::string& metric_name) const {
  const auto it = values.find(metric_name);
  if (it == values.end())
    throw CollectorError(ErrorKind::unknown_metric,
                         "metric '" + metric_name + "' was not collected; add it to CollectorOptions::metrics");
  return it->second;
}

const char* to_string(SharedAccess access) {
  switch (access) {
    case SharedAccess::load: return "load";
    case SharedAccess::store: return "store";
    case SharedAccess::other: break;
  }
  return "other";
}

namespace detail {

std::string demangle(const char* mangled) {
  if (mangled == nullptr) return "<unnamed kernel>";
  int status = 0;
  char* text = abi::__cxa_demangle(mangled, nullptr, nullptr, &status);
  std::string result = status == 0 && text != nullptr ? text : mangled;
  std::free(text);
  return result;
}

}  // namespace detail

std::string kernel_base_name(const std::string& demangled) {
  std::string name = demangled;
  // Drop the parameter list: the parenthesis group that closes the name.
  if (!name.empty() && name.back() == ')') {
    int depth = 0;
    for (std::size_t i = name.size(); i-- > 0;) {
      if (name[i] == ')') ++depth;
      if (name[i] == '(' && --depth == 0) {
        name.erase(i);
        break;
      }
    }
  }
  // Drop a return type and namespaces: cut after the last space or "::" outside template brackets and
  // outside "(anonymous namespace)".
  int angle = 0, paren = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    if (c == '<') ++angle;
    if (c == '>') --angle;
    if (c == '(') ++paren;
    if (c == ')') --paren;
    if (angle == 0 && paren == 0) {
      if (c == ' ') start = i + 1;
      if (c == ':' && i + 1 < name.size() && name[i + 1] == ':') start = i + 2;
    }
  }
  name.erase(0, start);
  // Some demanglers (cu++filt) write integer template arguments with a cast, tiledMatmul<(int)16>; a name
  // is the same kernel either way, so the cast goes.
  static const std::array<std::string_view, 8> casts{"(int)", "(unsigned int)", "(long)", "(unsigned long)",
                                                     "(long long)", "(short)", "(char)", "(bool)"};
  for (std::size_t open = name.find('('); open != std::string::npos; open = name.find('(', open + 1)) {
    for (std::string_view cast : casts) {
      const std::size_t after = open + cast.size();
      if (name.compare(open, cast.size(), cast) == 0 && after < name.size() &&
          (std::isdigit(static_cast<unsigned char>(name[after])) || name[after] == '-')) {
        name.erase(open, cast.size());
        break;
      }
    }
  }
  return name;
}

std::vector<std::string> metric_names(CounterSet set) {
  std::vector<std::string> names;
  if (set == CounterSet::hardware)
    for (const auto& m : hardware_shared_memory_metrics) names.emplace_back(m.name);
  else
    for (const auto& m : shared_memory_metrics) names.emplace_back(m.name);
  return names;
}

std::vector<std::string> default_metric_names() { return metric_names(CounterSet::sass_instrumented); }

std::string_view display_name(std::string_view metric_name) {
  for (const auto& m : shared_memory_metrics)
    if (m.name == metric_name) return m.display;
  for (const auto& m : hardware_shared_memory_metrics)
    if (m.name == metric_name) return m.display;
  return metric_name;
}

double transactions_per_request(const KernelCounters& counters, SharedOp op) {
  const bool load = op == SharedOp::load;
  const bool sass = counters.values.contains(std::string(metric::shared_load_wavefronts)) ||
                    !counters.values.contains(std::string(metric::hardware::shared_load_wavefronts));
  const std::string_view wavefronts = sass ? (load ? metric::shared_load_wavefronts : metric::shared_store_wavefronts)
                                           : (load ? metric::hardware::shared_load_wavefronts : metric::hardware::shared_store_wavefronts);
  const std::string_view requests = sass ? (load ? metric::shared_load_requests : metric::shared_store_requests)
                                         : (load ? metric::hardware::shared_load_requests : metric::hardware::shared_store_requests);
  const double transactions = counters.at(std::string(wavefronts));
  const double issued = counters.at(std::string(requests));
  return issued == 0.0 ? 0.0 : transactions / issued;
}

}  // namespace bankgate
