#pragma once
// What a kernel's shared-memory accesses should cost on a GPU with 32 banks of 4 bytes, and why. Written next
// to each kernel; the measured values in the baselines are checked against it only by a reader, never
// silently replaced by it. Here, not in the gate, so that kernel code (CUDA, built by nvcc) states it without
// linking the rules.

#include <string_view>

namespace bankgate {

struct SharedAccessExpectation {
  double load_transactions_per_request;
  double store_transactions_per_request;
  std::string_view why;
};

}  // namespace bankgate
