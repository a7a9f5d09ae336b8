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

#include <bankgate/order_statistics.hpp>

#include "check.hpp"
#include "lap_timer.hpp"
#include "names.hpp"
#include "occupancy.hpp"

namespace bankgate::detail {
namespace {

struct KernelRecord {
  std::uint32_t correlation_id;
  std::uint64_t start_ns;
  std::uint64_t end_ns;
  std::string name;
  LaunchFigures launch;  // resident blocks left 0: computed once per kernel, not per record
};

// CUPTI delivers activity buffers on its own thread through plain C callbacks; they land here.
std::mutex sink_mutex;
std::vector<KernelRecord> sink;
// Demangling costs microseconds and a timing run yields tens of thousands of records of a few kernels.
std::unordered_map<std::string, std::string> demangled_names;

constexpr std::size_t buffer_bytes = 4u << 20;
constexpr std::size_t buffer_alignment = 8;

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
      const LaunchFigures launch{.registers_per_thread = kernel->registersPerThread,
                                 .static_shared_bytes = kernel->staticSharedMemory,
                                 .dynamic_shared_bytes = kernel->dynamicSharedMemory,
                                 .local_bytes_per_thread = static_cast<int>(kernel->localMemoryPerThread),
                                 .block_threads = kernel->blockX * kernel->blockY * kernel->blockZ};
      sink.push_back({kernel->correlationId, kernel->start, kernel->end, base_name(kernel->name), launch});
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

// The median, or 0 for no values (no clock readings kept): order_statistics.hpp's definition.
double median_of(std::vector<double> values) { return values.empty() ? 0.0 : bankgate::median(std::move(values)); }

// Durations of `calls` consecutive calls of the callable: per_call kernels each, call-major.
struct Batch {
  std::size_t calls = 0;
  std::size_t per_call = 0;
  std::vector<std::string> names;    // per kernel position
  std::vector<double> durations_ns;  // durations_ns[call * per_call + kernel]

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
  require(o.warm_start_samples >= 1, "warm_start_samples must be at least 1");
  require(o.warmup_tolerance >= 0.0, "warmup_tolerance must not be negative");
  require(o.max_warmup_s >= 0.0, "max_warmup_s must not be negative");
  require(o.target_relative_noise >= 0.0, "target_relative_noise must not be negative");
  require(o.min_samples >= 1, "min_samples must be at least 1");
  require(o.max_samples >= o.min_samples, "max_samples must be at least min_samples");
  require(o.chunk_samples >= 1, "chunk_samples must be at least 1");
  require(o.time_budget_s > 0.0, "time_budget_s must be positive");
  require(o.min_clock_ratio >= 0.0 && o.min_clock_ratio <= 1.0, "min_clock_ratio must lie in [0, 1]");
}

// Kernel records for the length of one measurement, from a quiet device: what ran before it is dropped.
// CONCURRENT_KERNEL, not KERNEL: the latter serializes all kernels in the process while enabled.
class KernelRecording {
 public:
  KernelRecording() {
    BANKGATE_CUDA(cudaGetLastError());
    BANKGATE_CUDA(cudaDeviceSynchronize());
    take_records();  // drop anything recorded before this measurement
    BANKGATE_CUPTI(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL));
  }
  ~KernelRecording() { cuptiActivityDisable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL); }
  KernelRecording(const KernelRecording&) = delete;
  KernelRecording& operator=(const KernelRecording&) = delete;
};

// A few single calls tell which kernels a call launches and roughly how long they take.
constexpr std::size_t probe_calls = 5;

// What the probe decides for the rest of the measurement.
struct Plan {
  std::size_t kernels = 0;      // launched by one call
  int launches_per_sample = 1;  // k: a sample is the mean of k consecutive calls
  double resolution_ns = 0.0;   // the timer's tick seen through a mean of k launches
  double sample_gpu_s = 0.0;    // GPU time of one sample, all kernels of its k calls
};

struct Warmup {
  std::size_t calls = 0;  // the probe's included
  bool stable = false;    // false: stopped by the time limit
};

// The samples of the measurement as taken, and why it stopped.
struct Samples {
  std::vector<Chunk> chunks;
  std::vector<std::vector<double>> kept;  // per kernel: the samples of chunks at normal clocks
  std::size_t dropped = 0;                // samples of chunks clocked down
  std::string stop_reason;
};

// Warm-up ends when the last three window medians agree for every kernel (a clock ramp or cache warm-up
// shows as a trend across them) and the SM clock has stopped rising.
bool warmed_up(const std::vector<std::vector<double>>& medians, const std::vector<double>& window_clocks,
               double tolerance, double resolution_ns) {
  if (medians[0].size() < 3) return false;
  bool stable = true;
  for (const std::vector<double>& kernel_medians : medians) {
    const auto last = kernel_medians.end() - 3;
    const auto [low, high] = std::minmax_element(last, kernel_medians.end());
    stable = stable && *high - *low <= std::max(tolerance * *low, resolution_ns);
  }
  const double clock_then = window_clocks[window_clocks.size() - 3];
  const bool clock_rising = clock_then > 0.0 && window_clocks.back() > clock_then * 1.01;
  return stable && !clock_rising;
}

// The stopping rule's noise: that of the least settled kernel.
double worst_noise(const std::vector<std::vector<double>>& kept, double resolution_ns) {
  double worst = 0.0;
  for (const auto& samples : kept) worst = std::max(worst, relative_median_noise(samples, resolution_ns));
  return worst;
}

// Too few samples at normal clocks: keep them all, and say so, rather than return almost nothing.
bool restore_clocked_down(Samples& samples, std::size_t min_samples) {
  const bool restored = samples.kept[0].size() < min_samples && samples.dropped > 0;
  if (restored) {
    for (auto& kernel_samples : samples.kept) kernel_samples.clear();
    for (const Chunk& c : samples.chunks)
      for (std::size_t j = 0; j < samples.kept.size(); ++j)
        samples.kept[j].insert(samples.kept[j].end(), c.samples[j].begin(), c.samples[j].end());
  }
  return restored;
}

// The SM clock of the chunks whose samples are kept, where it is known.
std::vector<double> kept_clocks_mhz(const std::vector<Chunk>& chunks, bool restored) {
  std::vector<double> clocks_mhz;
  for (const Chunk& c : chunks)
    if ((restored || !c.clocked_down) && c.sm_clock_mhz > 0.0) clocks_mhz.push_back(c.sm_clock_mhz);
  return clocks_mhz;
}

// One call of ActivityTimer::time, phase by phase: probe, warm-up, sampling until the stopping rule holds,
// then the timings. It holds what the phases share: the callable, the options, the clock readings and the
// kernel names the first calls launched.
class Measurement {
 public:
  Measurement(const std::function<void()>& launch, const TimingOptions& options, L2Flusher& flusher,
              const ClockMonitor& clocks, double& highest_clock_mhz, const cudaDeviceProp& device)
      : launch_(launch),
        options_(options),
        flusher_(flusher),
        clocks_(clocks),
        device_(device),
        highest_clock_mhz_(highest_clock_mhz),
        start_(std::chrono::steady_clock::now()),
        cold_(options.l2 == L2State::cold) {}

  Plan probe();
  Warmup warm_up(const Plan& plan, WarmupStart start);
  Samples sample(const Plan& plan);
  std::vector<KernelTiming> timings(const Plan& plan, const Warmup& warmup, Samples samples) const;

 private:
  Batch run(std::size_t calls);
  Batch batch_of(const std::vector<KernelRecord>& records, std::size_t calls);
  void read_clock();
  bool is_down(const ClockReading& r) const;
  Chunk take_chunk(const Plan& plan, std::size_t chunk_size);
  std::string reason_to_stop(const std::vector<std::vector<double>>& kept, double resolution_ns) const;
  std::size_t bounded(const Plan& plan, int wanted) const;

  const std::function<void()>& launch_;
  const TimingOptions& options_;
  L2Flusher& flusher_;
  const ClockMonitor& clocks_;
  const cudaDeviceProp& device_;
  double& highest_clock_mhz_;  // the timer's, kept over its life
  const std::chrono::steady_clock::time_point start_;
  const bool cold_;
  std::vector<std::string> expected_names_;  // learnt from the first calls
  std::vector<LaunchFigures> launches_;      // likewise
  ClockReading reading_;                     // the latest
  TimingPhases host_;                        // where this measurement's host time went
};

// `calls` calls of the callable (each after an L2 flush when cold), and the durations of their kernels.
Batch Measurement::run(std::size_t calls) {
  LapTimer laps;
  for (std::size_t i = 0; i < calls; ++i) {
    if (cold_) flusher_.enqueue();
    launch_();
  }
  host_.calls += calls;
  laps.add_lap(host_.launch_ms);
  BANKGATE_CUDA(cudaGetLastError());
  BANKGATE_CUDA(cudaDeviceSynchronize());
  laps.add_lap(host_.wait_ms);
  std::vector<KernelRecord> records = take_records();
  laps.add_lap(host_.records_ms);
  std::sort(records.begin(), records.end(),
            [](const KernelRecord& a, const KernelRecord& b) { return a.correlation_id < b.correlation_id; });
  return batch_of(records, calls);
}

// The records of `calls` calls, in launch order, as a batch; every call must launch the kernels the first did.
Batch Measurement::batch_of(const std::vector<KernelRecord>& records, std::size_t calls) {
  Batch batch;
  batch.calls = calls;
  if (records.empty() || records.size() % calls != 0)
    throw CollectorError(ErrorKind::cupti_failure, "the Activity API returned " + std::to_string(records.size()) +
                                                       " kernel records for " + std::to_string(calls) +
                                                       " calls; each call must launch the same number of kernels");
  batch.per_call = records.size() / calls;
  for (std::size_t i = 0; i < batch.per_call; ++i) batch.names.push_back(records[i].name);
  if (expected_names_.empty()) {
    expected_names_ = batch.names;
    for (std::size_t i = 0; i < batch.per_call; ++i) launches_.push_back(records[i].launch);
  }
  for (std::size_t i = 0; i < records.size(); ++i) {
    const std::size_t position = i % batch.per_call;
    if (batch.per_call != expected_names_.size() || records[i].name != expected_names_[position])
      throw CollectorError(ErrorKind::cupti_failure,
                           "a timed call launched '" + records[i].name + "' where earlier calls launched " +
                               (position < expected_names_.size() ? "'" + expected_names_[position] + "'" : "nothing") +
                               "; each call of the callable must launch the same kernels in the same order");
    batch.durations_ns.push_back(static_cast<double>(records[i].end_ns - records[i].start_ns));
  }
  return batch;
}

// Reads the SM clock, and notes the highest seen: the clock an unthrottled GPU reaches.
void Measurement::read_clock() {
  LapTimer laps;
  reading_ = clocks_.read();
  laps.add_lap(host_.clock_ms);
  if (reading_.known) highest_clock_mhz_ = std::max(highest_clock_mhz_, reading_.sm_mhz);
}

// Held down by the driver, or well below the highest clock seen.
bool clocked_down(const ClockReading& r, double min_clock_ratio, double highest_clock_mhz) {
  return ClockMonitor::slowed_down(r.reasons) || r.sm_mhz < min_clock_ratio * highest_clock_mhz;
}

bool Measurement::is_down(const ClockReading& r) const {
  return r.known && clocked_down(r, options_.min_clock_ratio, highest_clock_mhz_);
}

// `wanted` samples, but no more than fit a twentieth of the budget, so a long kernel cannot overrun it by
// much. Host launch cost (a few microseconds per call) is not counted here; it only makes chunks shorter in
// GPU time than this bound.
std::size_t Measurement::bounded(const Plan& plan, int wanted) const {
  const double fit = std::floor(0.05 * options_.time_budget_s / plan.sample_gpu_s);
  return static_cast<std::size_t>(std::max(1.0, std::min(static_cast<double>(wanted), fit)));
}

// Probe: which kernels a call launches, and from the shortest of them how many calls make a sample.
Plan Measurement::probe() {
  const Batch batch = run(probe_calls);
  Plan plan;
  plan.kernels = batch.per_call;
  double shortest_ns = std::numeric_limits<double>::infinity();
  double call_gpu_ns = 0.0;  // GPU time of one call, all its kernels
  for (std::size_t j = 0; j < plan.kernels; ++j) {
    const double m = median_of(batch.samples(j, 1));
    shortest_ns = std::min(shortest_ns, m);
    call_gpu_ns += m;
  }
  const int k = options_.launches_per_sample > 0 ? options_.launches_per_sample
                                                 : automatic_launches_per_sample(shortest_ns, options_.batch_target_ns,
                                                                                 options_.max_auto_launches_per_sample);
  plan.launches_per_sample = k;
  plan.resolution_ns = timer_tick_ns / k;
  plan.sample_gpu_s = std::max(call_gpu_ns * k * 1e-9, 1e-9);
  return plan;
}

// Warm-up: window after window until warmed_up() holds, bounded in time; on a warm device one short window.
Warmup Measurement::warm_up(const Plan& plan, WarmupStart start) {
  Warmup warmup;
  warmup.calls = probe_calls;
  read_clock();
  const int k = plan.launches_per_sample;
  const bool warm = start == WarmupStart::warm_device;
  const std::size_t window = bounded(plan, warm ? options_.warm_start_samples : options_.warmup_window_samples);
  std::vector<std::vector<double>> medians(plan.kernels);
  std::vector<double> window_clocks;
  const double warmup_limit_s = std::min(options_.max_warmup_s, options_.time_budget_s);
  while (true) {
    const Batch batch = run(window * static_cast<std::size_t>(k));
    warmup.calls += batch.calls;
    read_clock();
    window_clocks.push_back(reading_.known ? reading_.sm_mhz : 0.0);
    for (std::size_t j = 0; j < plan.kernels; ++j) medians[j].push_back(median_of(batch.samples(j, k)));
    if (warm || warmed_up(medians, window_clocks, options_.warmup_tolerance, plan.resolution_ns)) {
      warmup.stable = true;
      break;
    }
    if (seconds_since(start_) >= warmup_limit_s) break;
  }
  return warmup;
}

// One chunk of samples, marked clocked down when the clock was held down before or after it.
Chunk Measurement::take_chunk(const Plan& plan, std::size_t chunk_size) {
  const int k = plan.launches_per_sample;
  const ClockReading before = reading_;
  const Batch batch = run(chunk_size * static_cast<std::size_t>(k));
  read_clock();
  Chunk chunk;
  for (std::size_t j = 0; j < plan.kernels; ++j) chunk.samples.push_back(batch.samples(j, k));
  chunk.sm_clock_mhz = reading_.known ? reading_.sm_mhz : 0.0;
  chunk.clocked_down = options_.drop_clocked_down && (is_down(before) || is_down(reading_));
  return chunk;
}

// The stopping rule, after each chunk: the median known well enough, enough samples, or the budget spent.
// Empty while sampling goes on.
std::string Measurement::reason_to_stop(const std::vector<std::vector<double>>& kept, double resolution_ns) const {
  const std::size_t n = kept[0].size();
  if (n >= static_cast<std::size_t>(options_.min_samples) &&
      worst_noise(kept, resolution_ns) <= options_.target_relative_noise)
    return "noise target reached";
  if (n >= static_cast<std::size_t>(options_.max_samples)) return "sample limit reached";
  if (options_.time_budget_s - seconds_since(start_) <= 0.0) return "time budget spent";
  return "";
}

// Sampling, chunk by chunk, until the stopping rule holds; chunks clocked down are kept aside.
Samples Measurement::sample(const Plan& plan) {
  Samples samples;
  samples.kept.resize(plan.kernels);
  const std::size_t chunk_size = bounded(plan, options_.chunk_samples);
  while (samples.stop_reason.empty()) {
    Chunk chunk = take_chunk(plan, chunk_size);
    if (chunk.clocked_down) {
      samples.dropped += chunk_size;
    } else {
      for (std::size_t j = 0; j < plan.kernels; ++j)
        samples.kept[j].insert(samples.kept[j].end(), chunk.samples[j].begin(), chunk.samples[j].end());
    }
    samples.chunks.push_back(std::move(chunk));
    samples.stop_reason = reason_to_stop(samples.kept, plan.resolution_ns);
  }
  return samples;
}

// The timing of each kernel, from the kept samples (or all of them, see restore_clocked_down).
std::vector<KernelTiming> Measurement::timings(const Plan& plan, const Warmup& warmup, Samples samples) const {
  const auto min_samples = static_cast<std::size_t>(options_.min_samples);
  const bool restored = restore_clocked_down(samples, min_samples);
  const double sm_clock_mhz = median_of(kept_clocks_mhz(samples.chunks, restored));
  std::vector<KernelTiming> result(plan.kernels);
  for (std::size_t j = 0; j < plan.kernels; ++j) {
    KernelTiming& t = result[j];
    t.kernel_name = expected_names_[j];
    t.durations_ns = std::move(samples.kept[j]);
    t.launches_per_sample = plan.launches_per_sample;
    t.l2 = options_.l2;
    t.warmup_launches = warmup.calls;
    t.warmup_stable = warmup.stable;
    t.dropped_samples = restored ? 0 : samples.dropped;
    t.clocked_down = restored;
    t.sm_clock_mhz = sm_clock_mhz;
    t.relative_noise = relative_median_noise(t.durations_ns, plan.resolution_ns);
    t.converged = t.durations_ns.size() >= min_samples && t.relative_noise <= options_.target_relative_noise;
    t.stop_reason = samples.stop_reason;
    t.launch = launches_[j];
    t.launch.resident_blocks_per_sm = resident_blocks_per_sm(t.launch, device_);
    t.host = host_;
  }
  return result;
}

}  // namespace

double relative_median_noise(const std::vector<double>& samples, double resolution_ns) {
  if (samples.size() < 2) return std::numeric_limits<double>::infinity();
  const double center = median_of(samples);
  if (!(center > 0.0)) return std::numeric_limits<double>::infinity();
  const double sigma = std::max(1.4826 * bankgate::median_absolute_deviation(samples), resolution_ns / std::sqrt(12.0));
  return 1.2533 * sigma / std::sqrt(static_cast<double>(samples.size())) / center;
}

int automatic_launches_per_sample(double duration_ns, double target_ns, int max_launches) {
  int k = 1;
  while (k < max_launches && static_cast<double>(k) * duration_ns < target_ns) k *= 2;
  return std::min(k, max_launches);
}

ActivityTimer::ActivityTimer(const std::string& pci_bus_id, L2Flusher& flusher)
    : clocks_(pci_bus_id), flusher_(flusher) {
  int device = 0;
  BANKGATE_CUDA(cudaGetDevice(&device));
  BANKGATE_CUDA(cudaGetDeviceProperties(&device_, device));
  static std::once_flag registered;
  std::call_once(registered,
                 [] { BANKGATE_CUPTI(cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed)); });
}

// Warm where the last measurement ended moments ago and the clock reads at least min_clock_ratio of the highest
// seen, with no slowdown: an unknown clock (no NVML) never counts as warm.
bool ActivityTimer::still_warm(const TimingOptions& options) const {
  if (!last_end_ || std::chrono::steady_clock::now() - *last_end_ > warm_device_gap || highest_clock_mhz_ <= 0.0)
    return false;
  const ClockReading now = clocks_.read();
  return now.known && !clocked_down(now, options.min_clock_ratio, highest_clock_mhz_);
}

std::vector<KernelTiming> ActivityTimer::time(const std::function<void()>& launch, const TimingOptions& options,
                                              WarmupStart start) {
  validate(options);
  if (!options.short_warmup_when_warm)
    start = WarmupStart::cold_device;
  else if (start == WarmupStart::cold_device && still_warm(options))
    start = WarmupStart::warm_device;
  Measurement measurement(launch, options, flusher_, clocks_, highest_clock_mhz_, device_);
  std::vector<KernelTiming> timings;
  {
    const KernelRecording recording;
    const Plan plan = measurement.probe();
    const Warmup warmup = measurement.warm_up(plan, start);
    timings = measurement.timings(plan, warmup, measurement.sample(plan));
  }
  last_end_ = std::chrono::steady_clock::now();
  return timings;
}

}  // namespace bankgate::detail
