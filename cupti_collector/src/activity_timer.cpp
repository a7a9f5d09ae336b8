#include "activity_timer.hpp"

#include <cupti_activity.h>
#include <cxxabi.h>

#include <algorithm>
#include <cstdlib>
#include <mutex>
#include <utility>

#include "check.hpp"

namespace bankgate::detail {
namespace {

struct KernelRecord {
  std::uint32_t correlation_id;
  std::uint64_t start_ns;
  std::uint64_t end_ns;
  std::string name;
};

// CUPTI delivers activity buffers on its own thread through plain C callbacks; they land here.
std::mutex sink_mutex;
std::vector<KernelRecord> sink;

constexpr std::size_t buffer_bytes = 4u << 20;
constexpr std::size_t buffer_alignment = 8;

void CUPTIAPI buffer_requested(uint8_t** buffer, size_t* size, size_t* max_records) {
  *buffer = static_cast<uint8_t*>(std::aligned_alloc(buffer_alignment, buffer_bytes));
  *size = *buffer == nullptr ? 0 : buffer_bytes;
  *max_records = 0;  // as many as fit
}

std::string demangle(const char* mangled) {
  if (mangled == nullptr) return "<unnamed kernel>";
  int status = 0;
  char* text = abi::__cxa_demangle(mangled, nullptr, nullptr, &status);
  std::string result = status == 0 && text != nullptr ? text : mangled;
  std::free(text);
  return result;
}

void CUPTIAPI buffer_completed(CUcontext, uint32_t, uint8_t* buffer, size_t, size_t valid_size) {
  std::vector<KernelRecord> records;
  CUpti_Activity* record = nullptr;
  while (cuptiActivityGetNextRecord(buffer, valid_size, &record) == CUPTI_SUCCESS) {
    if (record->kind != CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL && record->kind != CUPTI_ACTIVITY_KIND_KERNEL) continue;
    const auto* kernel = reinterpret_cast<const CUpti_ActivityKernel10*>(record);
    records.push_back({kernel->correlationId, kernel->start, kernel->end, kernel_base_name(demangle(kernel->name))});
  }
  std::free(buffer);
  const std::lock_guard lock(sink_mutex);
  sink.insert(sink.end(), records.begin(), records.end());
}

std::vector<KernelRecord> take_records() {
  BANKGATE_CUPTI(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED));
  const std::lock_guard lock(sink_mutex);
  return std::exchange(sink, {});
}

}  // namespace

ActivityTimer::ActivityTimer() {
  static std::once_flag registered;
  std::call_once(registered, [] { BANKGATE_CUPTI(cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed)); });
}

std::vector<KernelTiming> ActivityTimer::time(const std::function<void()>& launch, const TimingOptions& options) {
  if (options.timed_launches <= 0 || options.warmup_launches < 0)
    throw CollectorError(ErrorKind::cuda_failure, "TimingOptions: timed_launches must be positive and warmup_launches not negative");
  for (int i = 0; i < options.warmup_launches; ++i) launch();
  BANKGATE_CUDA(cudaGetLastError());
  BANKGATE_CUDA(cudaDeviceSynchronize());
  take_records();  // drop anything recorded before this measurement

  // CONCURRENT_KERNEL, not KERNEL: the latter serializes all kernels in the process while enabled.
  BANKGATE_CUPTI(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL));
  struct DisableOnExit {
    ~DisableOnExit() { cuptiActivityDisable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL); }
  } disable_on_exit;
  for (int i = 0; i < options.timed_launches; ++i) launch();
  BANKGATE_CUDA(cudaGetLastError());
  BANKGATE_CUDA(cudaDeviceSynchronize());
  std::vector<KernelRecord> records = take_records();

  const auto calls = static_cast<std::size_t>(options.timed_launches);
  if (records.empty() || records.size() % calls != 0)
    throw CollectorError(ErrorKind::cupti_failure,
                         "the Activity API returned " + std::to_string(records.size()) + " kernel records for " +
                             std::to_string(calls) + " calls; each call must launch the same number of kernels");
  std::sort(records.begin(), records.end(),
            [](const KernelRecord& a, const KernelRecord& b) { return a.correlation_id < b.correlation_id; });

  const std::size_t per_call = records.size() / calls;
  std::vector<KernelTiming> timings(per_call);
  for (std::size_t i = 0; i < records.size(); ++i) {
    KernelTiming& t = timings[i % per_call];
    if (t.kernel_name.empty()) t.kernel_name = records[i].name;
    t.durations_ns.push_back(static_cast<double>(records[i].end_ns - records[i].start_ns));
  }
  return timings;
}

}  // namespace bankgate::detail
