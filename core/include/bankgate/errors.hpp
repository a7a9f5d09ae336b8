#pragma once
// Typed errors of the collector and of the result types (KernelCounters::at). Each message says what went wrong
// and what the user can do about it. Plain C++: which CUDA or CUPTI result becomes which kind is decided in
// the collector (cupti_collector/src/check.cpp), so the result types can throw these without CUPTI.

#include <stdexcept>
#include <string>
#include <string_view>

namespace bankgate {

enum class ErrorKind {
  no_gpu,                     // no driver, no device, or the device index does not exist
  insufficient_privileges,    // the driver restricts GPU performance counters to admin users
  profiler_already_attached,  // ncu, nsys or another CUPTI client owns the profiling hooks
  unknown_metric,             // a metric name the chip does not know
  unsupported_device,         // CUPTI cannot profile this device (too old, vGPU without profiling, MIG ...)
  too_many_kernels,           // the callable launched more kernels than the counter image holds
  cuda_failure,               // a CUDA runtime call failed (kernel fault, out of memory ...)
  cupti_failure,              // any other CUPTI failure
  invalid_options,            // TimingOptions or CollectorOptions out of range
};

std::string_view to_string(ErrorKind kind);

// True for the kinds that mean "this machine cannot measure", as opposed to "the measurement broke":
// a test harness skips on these (or fails, when the user asked for a GPU) instead of reporting a bug.
bool means_cannot_measure_here(ErrorKind kind);

class CollectorError : public std::runtime_error {
 public:
  CollectorError(ErrorKind kind, const std::string& message) : std::runtime_error(message), kind_(kind) {}
  ErrorKind kind() const noexcept { return kind_; }

 private:
  ErrorKind kind_;
};

}  // namespace bankgate
