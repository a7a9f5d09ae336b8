#include <bankgate/metrics.hpp>

#include <bankgate/errors.hpp>

namespace bankgate {

double KernelCounters::at(const std::string& metric_name) const {
  const auto it = values.find(metric_name);
  if (it == values.end())
    throw CollectorError(ErrorKind::unknown_metric,
                         "metric '" + metric_name + "' was not collected; add it to CollectorOptions::metrics");
  return it->second;
}

std::vector<std::string> default_metric_names() {
  std::vector<std::string> names;
  for (const auto& m : shared_memory_metrics) names.emplace_back(m.name);
  return names;
}

std::string_view display_name(std::string_view metric_name) {
  for (const auto& m : shared_memory_metrics)
    if (m.name == metric_name) return m.display;
  return metric_name;
}

double transactions_per_request(const KernelCounters& counters, SharedOp op) {
  const bool load = op == SharedOp::load;
  const double transactions = counters.at(std::string(load ? metric::shared_load_wavefronts : metric::shared_store_wavefronts));
  const double requests = counters.at(std::string(load ? metric::shared_load_requests : metric::shared_store_requests));
  return requests == 0.0 ? 0.0 : transactions / requests;
}

}  // namespace bankgate
