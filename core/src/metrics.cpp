// The metric table's lists, labels and derived ratios (metrics.hpp): plain data, nothing here asks CUPTI.
#include <bankgate/metrics.hpp>

#include <string>
#include <string_view>

namespace bankgate {

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
