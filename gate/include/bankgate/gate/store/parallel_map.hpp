#pragma once
// The same work on many files at once: a run's candidates and records are each a small JSON file, and a gate parses
// some hundreds of them after its suites finish, which on a GPU runner's cores takes a fraction of the time that
// one after the other does.

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <optional>
#include <system_error>
#include <thread>
#include <vector>

namespace bankgate::gate {

// What one call gave: its result, or what it threw, thrown again by get().
template <typename Result>
class Computed {
 public:
  Result& get() {
    if (error_) std::rethrow_exception(error_);
    return *value_;
  }
  void set(Result value) { value_.emplace(std::move(value)); }
  void fail(std::exception_ptr error) { error_ = std::move(error); }

 private:
  std::optional<Result> value_;
  std::exception_ptr error_;
};

// fn(0) .. fn(n - 1) on up to as many threads as the machine has cores, their outcomes in index order: a caller that
// takes them in order with get() meets results and errors exactly as a loop calling fn in order would.
template <typename Result, typename Fn>
std::vector<Computed<Result>> map_in_parallel(std::size_t n, Fn fn) {
  std::vector<Computed<Result>> outcomes(n);
  std::atomic<std::size_t> next{0};
  const auto work = [&] {
    for (std::size_t i = next++; i < n; i = next++) try {
        outcomes[i].set(fn(i));
      } catch (...) {
        outcomes[i].fail(std::current_exception());
      }
  };
  // At most 16: the files are small, and a container's CPU quota may be far below the cores the machine reports.
  const std::size_t threads = std::min<std::size_t>({std::max(1u, std::thread::hardware_concurrency()), 16, n});
  std::vector<std::thread> helpers;
  try {
    for (std::size_t t = 1; t < threads; ++t) helpers.emplace_back(work);
  } catch (const std::system_error&) {  // no more threads to be had: those started and this one do the rest
  }
  work();
  for (std::thread& helper : helpers) helper.join();
  return outcomes;
}

}  // namespace bankgate::gate
