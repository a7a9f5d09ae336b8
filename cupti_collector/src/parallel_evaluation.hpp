#pragma once
// The metric values of a decoded counter-data image, evaluated on several threads. CUPTI evaluates one range's
// metrics per call, at a few microseconds a metric on an H200's host: the gate's 47 metrics cost 0.13-0.29 ms a
// kernel on one thread (bench/RESULTS-speed.md). The metrics are split into groups; each group is evaluated on a
// thread of its own, with a host object of its own (made on that thread, for the same metric list, so that each
// reads the image exactly as the set's own does), while the calling thread evaluates the first group.

#include <condition_variable>
#include <cstdint>
#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace bankgate::detail {

class MetricConfig;

class ParallelEvaluation {
 public:
  // `own` evaluates the first group on the calling thread; up to `threads` further threads take a group each.
  ParallelEvaluation(const std::string& chip_name, const std::vector<std::string>& metrics,
                     const std::vector<std::uint8_t>& availability, const MetricConfig& own, std::size_t threads);
  ~ParallelEvaluation();
  ParallelEvaluation(const ParallelEvaluation&) = delete;
  ParallelEvaluation& operator=(const ParallelEvaluation&) = delete;

  // values[range][metric], in the order of the metric list.
  std::vector<std::vector<double>> evaluate(const std::vector<std::uint8_t>& image, std::size_t ranges);

  // The further threads a metric list of this length is worth (groups of at least a dozen metrics), at most `most`.
  static std::size_t threads_for(std::size_t metrics, std::size_t most);

 private:
  struct Group {
    std::size_t first = 0, count = 0;
  };
  void work(std::size_t worker);
  void evaluate_group(const MetricConfig& config, const Group& group);

  std::vector<std::string> metrics_;
  std::vector<const char*> names_;
  const MetricConfig& own_;
  std::vector<Group> groups_;  // groups_[0] is the calling thread's, groups_[i + 1] worker i's

  std::mutex mutex_;
  std::condition_variable wake_, done_;
  std::uint64_t generation_ = 0;
  std::size_t pending_ = 0;
  bool stopping_ = false;
  const std::vector<std::uint8_t>* image_ = nullptr;
  std::vector<std::vector<double>>* values_ = nullptr;
  std::vector<std::exception_ptr> errors_;  // by group
  std::vector<bool> without_host_;          // by group: its worker could not make a host object
  std::string chip_;
  std::vector<std::uint8_t> availability_;
  std::vector<std::thread> workers_;
};

}  // namespace bankgate::detail
