#pragma once
// The CUPTI profiler host object for one chip and one metric list: validates the names and builds the config
// image that tells the hardware what to count. Needs no GPU, so metric lists can be checked in CI.

#include <cstdint>
#include <string>
#include <vector>

struct CUpti_Profiler_Host_Object;

namespace bankgate::detail {

class MetricConfig {
 public:
  // `counter_availability` may be empty (no device to ask); CUPTI then assumes every counter is available.
  MetricConfig(const std::string& chip_name, const std::vector<std::string>& metrics,
               std::vector<std::uint8_t> counter_availability = {});
  ~MetricConfig();
  MetricConfig(const MetricConfig&) = delete;
  MetricConfig& operator=(const MetricConfig&) = delete;

  CUpti_Profiler_Host_Object* host() const { return host_; }
  const std::vector<std::uint8_t>& config_image() const { return config_image_; }
  std::size_t passes() const { return passes_; }
  // Metric names as C strings for CUPTI calls; they point into the stored names.
  const std::vector<const char*>& metric_pointers() const { return metric_pointers_; }

 private:
  std::vector<std::string> metrics_;
  std::vector<const char*> metric_pointers_;
  std::vector<std::uint8_t> availability_;
  CUpti_Profiler_Host_Object* host_ = nullptr;
  std::vector<std::uint8_t> config_image_;
  std::size_t passes_ = 0;
};

// `metrics` without the rows of Hopper's units (TMA, wgmma, cluster groups) that `chip_name` does not know: a
// chip without those units has nothing to count there, and the rest of the list still applies to it.
std::vector<std::string> without_absent_units(const std::string& chip_name, const std::vector<std::string>& metrics);

}  // namespace bankgate::detail
