#include "activity_timer.hpp"

#include <cupti_activity.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <mutex>
#include <unordered_map>
#include <utility>

#include "check.hpp"
#include "names.hpp"

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
// Demangling costs microseconds and a timing run yields tens of thousands of records of a few kernels.
std::unordered_map<std::string, std::string> demangled_names;

constexpr std::size_t buffer_bytes = 4u << 20;
constexpr std::size_t buffer_alignment = 8;

// The GPU timer's tick on Hopper (and the Activity API's timestamps with it): durations are multiples of it.
constexpr double timer_tick_ns = 32.0;

void CUPTIAPI buffer_requested(uint8_t** buffer, size_t* size, size_t* max_records) {
  *buffer = static_cast<uint8_t*>(std::aligned_alloc(buffer_alignment, buffer_bytes));
  *size = *buffer == nullptr ? 0 : buffer_bytes;
  *max_records = 0;  // as many as fit
}

// Called with sink_mutex held.
const std::string& base_name(const char* mangled) {
  const std::string key = mangled == nullptr ? std::string() : std::string(mangled);
  auto it = demangled_names.find(key);
  if (it == demangled_names.end()) it = demangled_names.emplace(key, kernel_base_name(demangle(mangled))).first;
  return it->second;
}

void CUPTIAPI buffer_completed(CUcontext, uint32_t, uint8_t* buffer, size_t, size_t valid_size) {
  {
    const std::lock_guard lock(sink_mutex);
    CUpti_Activity* record = nullptr;
    while (cuptiActivityGetNextRecord(buffer, valid_size, &record) == CUPTI_SUCCESS) {
      if (record->kind != CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL && record->kind != CUPTI_ACTIVITY_KIND_KERNEL) continue;
      const auto* kernel = reinterpret_cast<const CUpti_ActivityKernel10*>(record);
      sink.push_back({kernel->correlationId, kernel->start, kernel->end, base_name(kernel->name)});
    }
  }
  std::free(buffer);
}

std::vector<KernelRecord> take_records() {
  BANKGATE_CUPTI(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED));
  const std::lock_guard lock(sink_mutex);
  return std::exchange(sink, {});
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

double median_of(std::vector<double> values) {
  if (values.empty()) return 0.0;
  const std::size_t mid = values.size() / 2;
  std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(mid), values.end());
  const double upper = values[mid];
  if (values.size() % 2 == 1) return upper;
  return (upper + *std::max_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(mid))) / 2.0;
}

// Durations of `calls` consecutive calls of the callable: per_call kernels each, call-major.
struct Batch {
  std::size_t calls = 0;
  std::size_t per_call = 0;
  std::vector<std::string> names;     // per kernel position
  std::vector<double> durations_ns;   // durations_ns[call * per_call + kernel]

  // Sample s of kernel j: the mean of its durations over calls [s*k, s*k+k).
  std::vector<double> samples(std::size_t kernel, int k) const {
    std::vector<double> out;
    const auto per_sample = static_cast<std::size_t>(k);
    for (std::size_t first = 0; first + per_sample <= calls; first += per_sample) {
      double sum = 0.0;
      for (std::size_t c = first; c < first + per_sample; ++c) sum += durations_ns[c * per_call + kernel];
      out.push_back(sum / static_cast<double>(per_sample));
    }
    return out;
  }
};

// A chunk of samples as taken, kept in order so that dropped chunks can be restored (see KernelTiming).
struct Chunk {
  std::vector<std::vector<double>> samples;  // per kernel
  bool clocked_down = false;
  double sm_clock_mhz = 0.0;  // 0: unknown
};

std::string invalid(const std::string& what) { return "TimingOptions: " + what; }

void validate(const TimingOptions& o) {
  const auto require = [](bool ok, const char* what) {
    if (!ok) throw CollectorError(ErrorKind::invalid_options, invalid(what));
  };
  require(o.launches_per_sample >= 0, "launches_per_sample must be 0 (automatic) or positive");
  require(o.batch_target_ns > 0.0, "batch_target_ns must be positive");
  require(o.max_auto_launches_per_sample >= 1, "max_auto_launches_per_sample must be at least 1");
  require(o.warmup_window_samples >= 1, "warmup_window_samples must be at least 1");
  require(o.warmup_tolerance >= 0.0, "warmup_tolerance must not be negative");
  require(o.max_warmup_s >= 0.0, "max_warmup_s must not be negative");
  require(o.target_relative_noise >= 0.0, "target_relative_noise must not be negative");
  require(o.min_samples >= 1, "min_samples must be at least 1");
  require(o.max_samples >= o.min_samples, "max_samples must be at least min_samples");
  require(o.chunk_samples >= 1, "chunk_samples must be at least 1");
  require(o.time_budget_s > 0.0, "time_budget_s must be positive");
  require(o.min_clock_ratio >= 0.0 && o.min_clock_ratio <= 1.0, "min_clock_ratio must lie in [0, 1]");
}

}  // namespace

double relative_median_noise(const std::vector<double>& samples, double resolution_ns) {
  if (samples.size() < 2) return std::numeric_limits<double>::infinity();
  const double center = median_of(samples);
  if (!(center > 0.0)) return std::numeric_limits<double>::infinity();
  std::vector<double> deviations;
  deviations.reserve(samples.size());
  for (double v : samples) deviations.push_back(std::abs(v - center));
  const double sigma = std::max(1.4826 * median_of(std::move(deviations)), resolution_ns / std::sqrt(12.0));
  return 1.2533 * sigma / std::sqrt(static_cast<double>(samples.size())) / center;
}

int automatic_launches_per_sample(double duration_ns, double target_ns, int max_launches) {
  int k = 1;
  while (k < max_launches && static_cast<double>(k) * duration_ns < target_ns) k *= 2;
  return std::min(k, max_launches);
}

ActivityTimer::ActivityTimer(const std::string& pci_bus_id, L2Flusher& flusher) : clocks_(pci_bus_id), flusher_(flusher) {
  static std::once_flag registered;
  std::call_once(registered, [] { BANKGATE_CUPTI(cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed)); });
}

std::vector<KernelTiming> ActivityTimer::time(const std::function<void()>& launch, const TimingOptions& options) {
  validate(options);
  const auto start = std::chrono::steady_clock::now();
  const bool cold = options.l2 == L2State::cold;

  BANKGATE_CUDA(cudaGetLastError());
  BANKGATE_CUDA(cudaDeviceSynchronize());
  take_records();  // drop anything recorded before this measurement
  // CONCURRENT_KERNEL, not KERNEL: the latter serializes all kernels in the process while enabled.
  BANKGATE_CUPTI(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL));
  struct DisableOnExit {
    ~DisableOnExit() { cuptiActivityDisable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL); }
  } disable_on_exit;

  std::vector<std::string> expected_names;  // learnt from the first calls
  const auto run = [&](std::size_t calls) {
    for (std::size_t i = 0; i < calls; ++i) {
      if (cold) flusher_.enqueue();
      launch();
    }
    BANKGATE_CUDA(cudaGetLastError());
    BANKGATE_CUDA(cudaDeviceSynchronize());
    std::vector<KernelRecord> records = take_records();
    std::sort(records.begin(), records.end(),
              [](const KernelRecord& a, const KernelRecord& b) { return a.correlation_id < b.correlation_id; });
    Batch batch;
    batch.calls = calls;
    if (records.empty() || records.size() % calls != 0)
      throw CollectorError(ErrorKind::cupti_failure,
                           "the Activity API returned " + std::to_string(records.size()) + " kernel records for " +
                               std::to_string(calls) + " calls; each call must launch the same number of kernels");
    batch.per_call = records.size() / calls;
    for (std::size_t i = 0; i < batch.per_call; ++i) batch.names.push_back(records[i].name);
    if (expected_names.empty()) expected_names = batch.names;
    for (std::size_t i = 0; i < records.size(); ++i) {
      const std::size_t position = i % batch.per_call;
      if (batch.per_call != expected_names.size() || records[i].name != expected_names[position])
        throw CollectorError(ErrorKind::cupti_failure,
                             "a timed call launched '" + records[i].name + "' where earlier calls launched " +
                                 (position < expected_names.size() ? "'" + expected_names[position] + "'" : "nothing") +
                                 "; each call of the callable must launch the same kernels in the same order");
      batch.durations_ns.push_back(static_cast<double>(records[i].end_ns - records[i].start_ns));
    }
    return batch;
  };
  const auto budget_left = [&] { return options.time_budget_s - seconds_since(start); };

  // Probe: a few single calls tell which kernels a call launches and roughly how long they take.
  constexpr std::size_t probe_calls = 5;
  const Batch probe = run(probe_calls);
  const std::size_t kernels = probe.per_call;
  double shortest_ns = std::numeric_limits<double>::infinity();
  double call_gpu_ns = 0.0;  // GPU time of one call, all its kernels
  for (std::size_t j = 0; j < kernels; ++j) {
    const double m = median_of(probe.samples(j, 1));
    shortest_ns = std::min(shortest_ns, m);
    call_gpu_ns += m;
  }
  const int k = options.launches_per_sample > 0
                    ? options.launches_per_sample
                    : automatic_launches_per_sample(shortest_ns, options.batch_target_ns, options.max_auto_launches_per_sample);
  const double resolution_ns = timer_tick_ns / k;
  // No chunk may take more than a twentieth of the budget, so a long kernel cannot overrun it by much.
  // Host launch cost (a few microseconds per call) is not counted here; it only makes chunks shorter in
  // GPU time than this bound.
  const double sample_gpu_s = std::max(call_gpu_ns * k * 1e-9, 1e-9);
  const auto bounded = [&](int wanted) {
    const double fit = std::floor(0.05 * options.time_budget_s / sample_gpu_s);
    return static_cast<std::size_t>(std::max(1.0, std::min(static_cast<double>(wanted), fit)));
  };

  std::size_t warmup_calls = probe_calls;
  ClockReading reading = clocks_.read();
  const auto note_clock = [&](const ClockReading& r) {
    if (r.known) highest_clock_mhz_ = std::max(highest_clock_mhz_, r.sm_mhz);
  };
  note_clock(reading);

  // Warm-up: until the last three window medians agree (a clock ramp or cache warm-up shows as a trend
  // across them) and the SM clock has stopped rising; bounded in time.
  bool warmup_stable = false;
  {
    const std::size_t window = bounded(options.warmup_window_samples);
    std::vector<std::vector<double>> medians(kernels);
    std::vector<double> window_clocks;
    const double warmup_limit_s = std::min(options.max_warmup_s, options.time_budget_s);
    while (true) {
      const Batch batch = run(window * static_cast<std::size_t>(k));
      warmup_calls += batch.calls;
      reading = clocks_.read();
      note_clock(reading);
      window_clocks.push_back(reading.known ? reading.sm_mhz : 0.0);
      for (std::size_t j = 0; j < kernels; ++j) medians[j].push_back(median_of(batch.samples(j, k)));
      if (medians[0].size() >= 3) {
        bool stable = true;
        for (std::size_t j = 0; j < kernels; ++j) {
          const auto last = medians[j].end() - 3;
          const auto [low, high] = std::minmax_element(last, medians[j].end());
          stable = stable && *high - *low <= std::max(options.warmup_tolerance * *low, resolution_ns);
        }
        const double clock_then = window_clocks[window_clocks.size() - 3];
        const bool clock_rising = clock_then > 0.0 && window_clocks.back() > clock_then * 1.01;
        if (stable && !clock_rising) {
          warmup_stable = true;
          break;
        }
      }
      if (seconds_since(start) >= warmup_limit_s) break;
    }
  }

  // Sampling, chunk by chunk, until the median is known well enough or the budget is spent.
  std::vector<Chunk> chunks;
  std::vector<std::vector<double>> kept(kernels);
  std::size_t dropped = 0;
  std::string stop_reason;
  const std::size_t chunk_size = bounded(options.chunk_samples);
  const auto max_samples = static_cast<std::size_t>(options.max_samples);
  const auto min_samples = static_cast<std::size_t>(options.min_samples);
  const auto is_down = [&](const ClockReading& r) {
    return r.known && (ClockMonitor::slowed_down(r.reasons) || r.sm_mhz < options.min_clock_ratio * highest_clock_mhz_);
  };
  const auto noise = [&] {
    double worst = 0.0;
    for (const auto& samples : kept) worst = std::max(worst, relative_median_noise(samples, resolution_ns));
    return worst;
  };
  while (true) {
    const ClockReading before = reading;
    const Batch batch = run(chunk_size * static_cast<std::size_t>(k));
    reading = clocks_.read();
    note_clock(reading);
    Chunk chunk;
    for (std::size_t j = 0; j < kernels; ++j) chunk.samples.push_back(batch.samples(j, k));
    chunk.sm_clock_mhz = reading.known ? reading.sm_mhz : 0.0;
    chunk.clocked_down = options.drop_clocked_down && (is_down(before) || is_down(reading));
    if (chunk.clocked_down) {
      dropped += chunk_size;
    } else {
      for (std::size_t j = 0; j < kernels; ++j) kept[j].insert(kept[j].end(), chunk.samples[j].begin(), chunk.samples[j].end());
    }
    chunks.push_back(std::move(chunk));
    const std::size_t n = kept[0].size();
    if (n >= min_samples && noise() <= options.target_relative_noise) {
      stop_reason = "noise target reached";
      break;
    }
    if (n >= max_samples) {
      stop_reason = "sample limit reached";
      break;
    }
    if (budget_left() <= 0.0) {
      stop_reason = "time budget spent";
      break;
    }
  }

  // Too few samples at normal clocks: keep them all, and say so, rather than return almost nothing.
  const bool restored = kept[0].size() < min_samples && dropped > 0;
  std::vector<double> clocks_mhz;
  for (const Chunk& c : chunks)
    if ((restored || !c.clocked_down) && c.sm_clock_mhz > 0.0) clocks_mhz.push_back(c.sm_clock_mhz);
  if (restored) {
    for (auto& samples : kept) samples.clear();
    for (const Chunk& c : chunks)
      for (std::size_t j = 0; j < kernels; ++j) kept[j].insert(kept[j].end(), c.samples[j].begin(), c.samples[j].end());
  }

  std::vector<KernelTiming> timings(kernels);
  for (std::size_t j = 0; j < kernels; ++j) {
    KernelTiming& t = timings[j];
    t.kernel_name = expected_names[j];
    t.durations_ns = std::move(kept[j]);
    t.launches_per_sample = k;
    t.l2 = options.l2;
    t.warmup_launches = warmup_calls;
    t.warmup_stable = warmup_stable;
    t.dropped_samples = restored ? 0 : dropped;
    t.clocked_down = restored;
    t.sm_clock_mhz = median_of(clocks_mhz);
    t.relative_noise = relative_median_noise(t.durations_ns, resolution_ns);
    t.converged = t.durations_ns.size() >= min_samples && t.relative_noise <= options.target_relative_noise;
    t.stop_reason = stop_reason;
  }
  return timings;
}

}  // namespace bankgate::detail
