#include "parallel_evaluation.hpp"

#include <cupti_profiler_host.h>

#include <algorithm>
#include <system_error>

#include "check.hpp"
#include "metric_config.hpp"

namespace bankgate::detail {

namespace {
constexpr std::size_t least_metrics_a_group = 12;
}

std::size_t ParallelEvaluation::threads_for(std::size_t metrics, std::size_t most) {
  const std::size_t groups = metrics / least_metrics_a_group;
  return groups <= 1 ? 0 : std::min(groups - 1, most);
}

// The groups are drawn once the threads are running: a thread the system refuses leaves its share to the others.
ParallelEvaluation::ParallelEvaluation(const std::string& chip_name, const std::vector<std::string>& metrics,
                                       const std::vector<std::uint8_t>& availability, const MetricConfig& own,
                                       std::size_t threads)
    : metrics_(metrics), own_(own), chip_(chip_name), availability_(availability) {
  for (const std::string& m : metrics_) names_.push_back(m.c_str());
  try {
    for (std::size_t w = 0; w < threads; ++w) workers_.emplace_back([this, w] { work(w); });
  } catch (const std::system_error&) {
  }
  const std::size_t groups = workers_.size() + 1;
  for (std::size_t g = 0, first = 0; g < groups; ++g) {
    const std::size_t count = metrics_.size() / groups + (g < metrics_.size() % groups ? 1 : 0);
    groups_.push_back({first, count});
    first += count;
  }
  errors_.resize(groups);
  without_host_.resize(groups, false);
}

ParallelEvaluation::~ParallelEvaluation() {
  {
    const std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (std::thread& t : workers_) t.join();
}

void ParallelEvaluation::evaluate_group(const MetricConfig& config, const Group& group) {
  for (std::size_t range = 0; range < values_->size(); ++range) {
    CUpti_Profiler_Host_EvaluateToGpuValues_Params eval{CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE};
    eval.pHostObject = config.host();
    eval.pCounterDataImage = image_->data();
    eval.counterDataImageSize = image_->size();
    eval.rangeIndex = range;
    eval.ppMetricNames = const_cast<const char**>(names_.data() + group.first);
    eval.numMetrics = group.count;
    eval.pMetricValues = (*values_)[range].data() + group.first;
    BANKGATE_CUPTI(cuptiProfilerHostEvaluateToGpuValues(&eval));
  }
}

// A worker makes its host object first (a few milliseconds, beside the collector's other work), then evaluates its
// group of each image it is woken for. One that could not make its host object leaves its group to the caller.
void ParallelEvaluation::work(std::size_t worker) {
  std::unique_ptr<MetricConfig> config;
  try {
    config = std::make_unique<MetricConfig>(chip_, metrics_, availability_);
  } catch (...) {
  }
  std::uint64_t seen = 0;
  for (;;) {
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [&] { return stopping_ || generation_ != seen; });
      if (stopping_) return;
      seen = generation_;
    }
    std::exception_ptr error;
    if (config) {
      try {
        evaluate_group(*config, groups_[worker + 1]);
      } catch (...) {
        error = std::current_exception();
      }
    }
    {
      const std::lock_guard lock(mutex_);
      errors_[worker + 1] = error;
      without_host_[worker + 1] = !config;
      --pending_;
    }
    done_.notify_one();
  }
}

std::vector<std::vector<double>> ParallelEvaluation::evaluate(const std::vector<std::uint8_t>& image,
                                                              std::size_t ranges) {
  std::vector<std::vector<double>> values(ranges, std::vector<double>(metrics_.size()));
  {
    const std::lock_guard lock(mutex_);
    image_ = &image;
    values_ = &values;
    pending_ = workers_.size();
    std::fill(errors_.begin(), errors_.end(), nullptr);
    ++generation_;
  }
  wake_.notify_all();
  std::exception_ptr own_error;
  try {
    evaluate_group(own_, groups_[0]);
  } catch (...) {
    own_error = std::current_exception();
  }
  {
    std::unique_lock lock(mutex_);
    done_.wait(lock, [&] { return pending_ == 0; });
  }
  if (own_error) std::rethrow_exception(own_error);
  for (std::size_t g = 1; g < groups_.size(); ++g) {
    if (errors_[g]) std::rethrow_exception(errors_[g]);
    if (without_host_[g]) evaluate_group(own_, groups_[g]);
  }
  return values;
}

}  // namespace bankgate::detail
