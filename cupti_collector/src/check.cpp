// CUDA and CUPTI results turned into CollectorErrors (check.hpp): which kind each result is, and what to do.
#include "check.hpp"

#include <cupti.h>

#include <string>

namespace bankgate::detail {
namespace {

struct Classified {
  ErrorKind kind;
  const char* advice;
};

Classified classify(CUptiResult result) {
  switch (result) {
    case CUPTI_ERROR_INSUFFICIENT_PRIVILEGES:
    case CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES:
      return {ErrorKind::insufficient_privileges,
              "the NVIDIA driver lets only admin users read GPU performance counters. Run as root or with "
              "CAP_SYS_ADMIN (or CAP_PERFMON, driver R565 and newer), or allow all users with the driver option "
              "NVreg_RestrictProfilingToAdminUsers=0 (a line 'options nvidia NVreg_RestrictProfilingToAdminUsers=0' "
              "in /etc/modprobe.d/, then reload the driver or reboot); a container takes the host's setting or "
              "needs --cap-add=SYS_ADMIN"};
    case CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED:
    case CUPTI_ERROR_OLD_PROFILER_API_INITIALIZED:
      return {ErrorKind::profiler_already_attached,
              "another profiler (ncu, nsys, or a second CUPTI client) is attached to this process. Run the suite "
              "without it; to profile the suite's kernels with ncu, set BANKGATE_LAUNCH_ONLY=1"};
    case CUPTI_ERROR_INVALID_METRIC_NAME:
      return {ErrorKind::unknown_metric, "a metric name is not known for this chip (ncu --query-metrics lists them)"};
    case CUPTI_ERROR_NOT_SUPPORTED:
    case CUPTI_ERROR_NOT_COMPATIBLE:
    case CUPTI_ERROR_LEGACY_PROFILER_NOT_SUPPORTED:
    case CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_CONFIDENTIAL_COMPUTING_NOT_SUPPORTED:
    case CUPTI_ERROR_CMP_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_MIG_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_SLI_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_WSL_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_INVALID_CHIP_NAME:
      return {ErrorKind::unsupported_device,
              "CUPTI cannot profile this device or configuration (compute capability 7.0 or newer on bare metal "
              "or a profiling-enabled vGPU is needed; MIG slices, SLI and confidential computing are not supported)"};
    case CUPTI_ERROR_INVALID_DEVICE:
      return {ErrorKind::no_gpu, "the device index does not name a GPU CUPTI can see"};
    default:
      return {ErrorKind::cupti_failure, "an unexpected CUPTI failure; rerun, and report it with this message"};
  }
}

}  // namespace

void throw_cupti_error(CUptiResult result, const char* call, const char* file, int line) {
  const char* text = nullptr;
  if (cuptiGetResultString(result, &text) != CUPTI_SUCCESS || text == nullptr) text = "unrecognised CUPTI result";
  const Classified c = classify(result);
  throw CollectorError(c.kind, std::string(to_string(c.kind)) + ": " + c.advice + ". [" + call + " returned " + text +
                                   " (" + std::to_string(static_cast<int>(result)) + ") at " + file + ":" +
                                   std::to_string(line) + "]");
}

void throw_cuda_error(cudaError_t result, const char* call, const char* file, int line) {
  const bool no_gpu = result == cudaErrorNoDevice || result == cudaErrorInsufficientDriver ||
                      result == cudaErrorInvalidDevice || result == cudaErrorStubLibrary;
  const ErrorKind kind = no_gpu ? ErrorKind::no_gpu : ErrorKind::cuda_failure;
  throw CollectorError(kind, std::string(to_string(kind)) + ": " + cudaGetErrorString(result) + " [" + call +
                                 " returned " + cudaGetErrorName(result) + " (" +
                                 std::to_string(static_cast<int>(result)) + ") at " + file + ":" +
                                 std::to_string(line) + "]");
}

}  // namespace bankgate::detail
