// The error kinds' words and which of them mean "cannot measure here" (errors.hpp). The classification of
// CUDA and CUPTI results into kinds is the collector's (cupti_collector/src/check.cpp).
#include <bankgate/errors.hpp>

namespace bankgate {

std::string_view to_string(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::no_gpu:
      return "no GPU";
    case ErrorKind::insufficient_privileges:
      return "no permission to read GPU performance counters";
    case ErrorKind::profiler_already_attached:
      return "another profiler is attached";
    case ErrorKind::unknown_metric:
      return "unknown metric";
    case ErrorKind::unsupported_device:
      return "device cannot be profiled";
    case ErrorKind::too_many_kernels:
      return "too many kernels in one profiled call";
    case ErrorKind::cuda_failure:
      return "CUDA error";
    case ErrorKind::cupti_failure:
      return "CUPTI error";
    case ErrorKind::invalid_options:
      return "invalid options";
  }
  return "unknown error";
}

bool means_cannot_measure_here(ErrorKind kind) {
  return kind == ErrorKind::no_gpu || kind == ErrorKind::insufficient_privileges ||
         kind == ErrorKind::profiler_already_attached || kind == ErrorKind::unsupported_device;
}

}  // namespace bankgate
