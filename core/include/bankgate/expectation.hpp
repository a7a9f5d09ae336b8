#pragma once
// What a kernel's memory accesses should cost, and why: ratios of the metric table (metrics.hpp, e.g.
// "shared_load_transactions_per_request", "global_store_sectors_per_request") derived in the kernel's comment.
// Written next to each kernel; the measured values are checked against it exactly, and never silently
// replaced by it. Here, not in the gate, so that kernel code (CUDA, built by nvcc) states it without linking
// the rules.

#include <string_view>
#include <vector>

#include <bankgate/ratio_keys.hpp>

namespace bankgate {

struct ExpectedRatio {
  std::string_view ratio;  // a RatioTraits::key (ratio_keys.hpp)
  double value = 0.0;
};

struct AccessExpectation {
  std::vector<ExpectedRatio> ratios;
  std::string_view why;
};

// The shared-memory load and store transactions per request, the figures every catalogue kernel states, and
// `more` ratios after them.
inline AccessExpectation shared_access_expectation(double load, double store, std::string_view why,
                                                   std::vector<ExpectedRatio> more = {}) {
  AccessExpectation e{{{ratio::shared_load, load}, {ratio::shared_store, store}}, why};
  e.ratios.insert(e.ratios.end(), more.begin(), more.end());
  return e;
}

}  // namespace bankgate
