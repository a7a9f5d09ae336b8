#include "metric_config.hpp"

#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>

#include <mutex>

#include <bankgate/metrics.hpp>
#include <bankgate/preflight.hpp>

#include "check.hpp"

namespace bankgate::detail {
namespace {

// Host objects are made and dropped one at a time: the collector makes some on threads of its own (the metric
// evaluation's), and CUPTI does not say that its host set-up may run on several threads at once. Only evaluation,
// each thread on its own object, runs in parallel.
std::mutex& host_set_up() {
  static std::mutex mutex;
  return mutex;
}

CUpti_Profiler_Host_Object* make_host(const std::string& chip, const std::uint8_t* availability) {
  CUpti_Profiler_Host_Initialize_Params p{CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE};
  p.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
  p.pChipName = chip.c_str();
  p.pCounterAvailabilityImage = availability;
  BANKGATE_CUPTI(cuptiProfilerHostInitialize(&p));
  return p.pHostObject;
}

void destroy_host(CUpti_Profiler_Host_Object* host) {
  if (host == nullptr) return;
  CUpti_Profiler_Host_Deinitialize_Params p{CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE};
  p.pHostObject = host;
  cuptiProfilerHostDeinitialize(&p);  // nothing useful to do with a failure during teardown
}

bool known_metric(CUpti_Profiler_Host_Object* host, const std::string& name) {
  CUpti_Profiler_Host_GetMetricProperties_Params p{CUpti_Profiler_Host_GetMetricProperties_Params_STRUCT_SIZE};
  p.pHostObject = host;
  p.pMetricName = name.c_str();
  return cuptiProfilerHostGetMetricProperties(&p) == CUPTI_SUCCESS;
}

// cuptiProfilerHostConfigAddMetrics accepts an unknown name and the failure surfaces later as
// CUPTI_ERROR_UNKNOWN, so each name is looked up first and the error can name the bad one.
void require_known_metrics(CUpti_Profiler_Host_Object* host, const std::string& chip,
                           const std::vector<std::string>& metrics) {
  for (const auto& name : metrics) {
    if (!known_metric(host, name))
      throw CollectorError(
          ErrorKind::unknown_metric,
          "unknown metric: '" + name + "' is not a metric of chip " + chip +
              " (check the spelling and the rollup suffix such as .sum; ncu --query-metrics lists them)");
  }
}

}  // namespace

std::vector<std::string> without_absent_units(const std::string& chip_name, const std::vector<std::string>& metrics) {
  const std::lock_guard lock(host_set_up());
  CUpti_Profiler_Host_Object* host = make_host(chip_name, nullptr);
  std::vector<std::string> kept;
  for (const std::string& name : metrics) {
    const MetricTraits* m = find_metric(name);
    const bool optional = m != nullptr && of_hopper_unit(*m);
    if (!optional || known_metric(host, name)) kept.push_back(name);
  }
  destroy_host(host);
  return kept;
}

MetricConfig::MetricConfig(const std::string& chip_name, const std::vector<std::string>& metrics,
                           std::vector<std::uint8_t> counter_availability)
    : metrics_(metrics), availability_(std::move(counter_availability)) {
  if (metrics_.empty())
    throw CollectorError(ErrorKind::unknown_metric, "no metrics requested: the metric list is empty");
  for (const auto& m : metrics_) metric_pointers_.push_back(m.c_str());
  const std::uint8_t* availability = availability_.empty() ? nullptr : availability_.data();
  const std::lock_guard lock(host_set_up());
  host_ = make_host(chip_name, availability);
  try {
    require_known_metrics(host_, chip_name, metrics_);
    CUpti_Profiler_Host_ConfigAddMetrics_Params add{CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE};
    add.pHostObject = host_;
    add.ppMetricNames = metric_pointers_.data();
    add.numMetrics = metric_pointers_.size();
    BANKGATE_CUPTI(cuptiProfilerHostConfigAddMetrics(&add));

    CUpti_Profiler_Host_GetConfigImageSize_Params size{CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE};
    size.pHostObject = host_;
    BANKGATE_CUPTI(cuptiProfilerHostGetConfigImageSize(&size));
    config_image_.resize(size.configImageSize);

    CUpti_Profiler_Host_GetConfigImage_Params image{CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE};
    image.pHostObject = host_;
    image.configImageSize = config_image_.size();
    image.pConfigImage = config_image_.data();
    BANKGATE_CUPTI(cuptiProfilerHostGetConfigImage(&image));

    CUpti_Profiler_Host_GetNumOfPasses_Params passes{CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE};
    passes.configImageSize = config_image_.size();
    passes.pConfigImage = config_image_.data();
    BANKGATE_CUPTI(cuptiProfilerHostGetNumOfPasses(&passes));
    passes_ = passes.numOfPasses;
  } catch (...) {
    destroy_host(host_);
    throw;
  }
}

MetricConfig::~MetricConfig() {
  const std::lock_guard lock(host_set_up());
  destroy_host(host_);
}

}  // namespace bankgate::detail

namespace bankgate {

std::size_t count_passes(const std::string& chip_name, const std::vector<std::string>& metrics) {
  return detail::MetricConfig(chip_name, metrics).passes();
}

}  // namespace bankgate
