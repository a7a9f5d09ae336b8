// The few functions of the plain result types (results.hpp).
#include <bankgate/results.hpp>

#include <bankgate/errors.hpp>

namespace bankgate {

double KernelCounters::at(const std::string& metric_name) const {
  const auto it = values.find(metric_name);
  if (it == values.end())
    throw CollectorError(ErrorKind::unknown_metric,
                         "metric '" + metric_name + "' was not collected; add it to CollectorOptions::metrics");
  return it->second;
}

const char* to_string(L2State state) { return state == L2State::cold ? "cold" : "warm"; }

}  // namespace bankgate
