#include "range_profiler.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cmath>
#include <thread>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_target.h>

#include "check.hpp"
#include "cupti_callbacks.hpp"
#include "lap_timer.hpp"

namespace bankgate::detail {
namespace {

std::vector<std::uint8_t> counter_availability(CUcontext context) {
  CUpti_Profiler_GetCounterAvailability_Params p{CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE};
  p.ctx = context;
  BANKGATE_CUPTI(cuptiProfilerGetCounterAvailability(&p));
  std::vector<std::uint8_t> image(p.counterAvailabilityImageSize);
  p.pCounterAvailabilityImage = image.data();
  BANKGATE_CUPTI(cuptiProfilerGetCounterAvailability(&p));
  return image;
}

// Whether CUPTI's host library was released knowing `chip`. The counter-availability image only matters for a
// chip it does not know (CUPTI's documentation: "required for future chip support"). Reading it takes about
// 120 ms of driver time, which the driver serialises across the processes of a host; skipping it saves about
// 100 ms of a process's start-up, the rest moving to the first profiled kernel (bench/RESULTS-start-up.md).
bool host_library_knows(const std::string& chip) {
  CUpti_Profiler_Host_GetSupportedChips_Params p{CUpti_Profiler_Host_GetSupportedChips_Params_STRUCT_SIZE};
  BANKGATE_CUPTI(cuptiProfilerHostGetSupportedChips(&p));
  for (std::size_t i = 0; i < p.numChips; ++i)
    if (p.ppChipNames[i] != nullptr && chip == p.ppChipNames[i]) return true;
  return false;
}

bool any_unread(const std::vector<KernelCounters>& kernels) {
  return std::any_of(kernels.begin(), kernels.end(), [](const KernelCounters& k) {
    return std::any_of(k.values.begin(), k.values.end(), [](const auto& value) { return std::isnan(value.second); });
  });
}

// Counts a call's launches for as long as it lives, and no longer where the call throws: while counting, the driver
// calls back on every launch.
class LaunchCounting {
 public:
  LaunchCounting(CuptiCallbacks* callbacks, CUcontext context) : callbacks_(callbacks) {
    if (callbacks_ != nullptr) callbacks_->start_counting_launches(context);
  }
  ~LaunchCounting() { finish(); }
  LaunchCounting(const LaunchCounting&) = delete;
  LaunchCounting& operator=(const LaunchCounting&) = delete;
  LaunchCount finish() {
    if (callbacks_ == nullptr) return {0, false};
    const LaunchCount count = callbacks_->stop_counting_launches();
    callbacks_ = nullptr;
    return count;
  }

 private:
  CuptiCallbacks* callbacks_;
};

}  // namespace

CUcontext current_context() {
  using GetCurrent = CUresult (*)(CUcontext*);
  void* fn = nullptr;
  cudaDriverEntryPointQueryResult found{};
  BANKGATE_CUDA(cudaGetDriverEntryPointByVersion("cuCtxGetCurrent", &fn, 12000, cudaEnableDefault, &found));
  if (found != cudaDriverEntryPointSuccess || fn == nullptr)
    throw CollectorError(ErrorKind::no_gpu, "the CUDA driver does not provide cuCtxGetCurrent; update the driver");
  CUcontext context = nullptr;
  if (reinterpret_cast<GetCurrent>(fn)(&context) != CUDA_SUCCESS || context == nullptr)
    throw CollectorError(ErrorKind::cuda_failure, "no current CUDA context after cudaSetDevice/cudaFree(0)");
  return context;
}

RangeProfiler::RangeProfiler(CUcontext context, int device_index, const std::vector<std::string>& metrics,
                             std::size_t max_kernels_per_call, std::size_t first_room)
    : context_(context), max_kernels_(max_kernels_per_call), room_(std::max<std::size_t>(first_room, 1)) {
  LapTimer laps;
  CUpti_Profiler_Initialize_Params init{CUpti_Profiler_Initialize_Params_STRUCT_SIZE};
  BANKGATE_CUPTI(cuptiProfilerInitialize(&init));

  CUpti_Device_GetChipName_Params chip{CUpti_Device_GetChipName_Params_STRUCT_SIZE};
  chip.deviceIndex = static_cast<std::size_t>(device_index);
  BANKGATE_CUPTI(cuptiDeviceGetChipName(&chip));
  chip_name_ = chip.pChipName;
  laps.add_lap(initialize_ms_);

  if (!host_library_knows(chip_name_)) availability_ = counter_availability(context_);
  laps.add_lap(availability_ms_);
  const std::vector<std::string> measurable = without_absent_units(chip_name_, metrics);
  MetricSet first{std::make_unique<MetricConfig>(chip_name_, measurable, availability_), measurable, {}, false};
  first.replayed_by_caller = first.config->passes() == 1;
  laps.add_lap(metric_config_ms_);

  // Enabled once here, not per collect(): only kernels launched between Start and Stop are profiled, launches
  // outside (the timing phase) run as usual.
  enable();
  try {
    first.counter_data = counter_data_for(*first.config);
    sets_.push_back(std::move(first));
    make_evaluation(sets_.front());
  } catch (...) {
    disable();  // one profiler object per context: an enabled one left behind would fail the next collector
    throw;
  }
  laps.add_lap(enable_ms_);
}

// Also tells the profiler object which metrics the next counter-data image it initialises is for: the
// initialisation takes no metric list of its own, so each set is sized again before its image is initialised.
std::vector<std::uint8_t> RangeProfiler::counter_data_for(const MetricConfig& config) {
  CUpti_RangeProfiler_GetCounterDataSize_Params size{CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE};
  size.pRangeProfilerObject = profiler_;
  size.pMetricNames = const_cast<const char**>(config.metric_pointers().data());
  size.numMetrics = config.metric_pointers().size();
  size.maxNumOfRanges = room_;
  size.maxNumRangeTreeNodes = static_cast<std::uint32_t>(room_);
  BANKGATE_CUPTI(cuptiRangeProfilerGetCounterDataSize(&size));
  return std::vector<std::uint8_t>(size.counterDataSize);
}

void RangeProfiler::enable() {
  CUpti_RangeProfiler_Enable_Params enable{CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE};
  enable.ctx = context_;
  BANKGATE_CUPTI(cuptiRangeProfilerEnable(&enable));
  profiler_ = enable.pRangeProfilerObject;
}

void RangeProfiler::disable() {
  if (profiler_ == nullptr) return;
  CUpti_RangeProfiler_Disable_Params disable{CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE};
  disable.pRangeProfilerObject = profiler_;
  cuptiRangeProfilerDisable(&disable);
  profiler_ = nullptr;
}

std::size_t RangeProfiler::add_metric_set(const std::vector<std::string>& metrics, std::size_t most_passes,
                                          bool replayed_by_caller) {
  MetricSet set{std::make_unique<MetricConfig>(chip_name_, metrics, availability_), metrics, {}, replayed_by_caller};
  if (set.config->passes() > most_passes)
    throw CollectorError(ErrorKind::unknown_metric, "an added metric set may need " + std::to_string(most_passes) +
                                                        " replay pass(es); it needs " +
                                                        std::to_string(set.config->passes()));
  set.counter_data = counter_data_for(*set.config);
  sets_.push_back(std::move(set));
  sized_set_ = sets_.size() - 1;
  return sized_set_;
}

void RangeProfiler::add_setup_parts(SetupPhases& setup) const {
  setup.profiler_initialize_ms = initialize_ms_;
  setup.counter_availability_ms = availability_ms_;
  setup.metric_config_ms = metric_config_ms_;
  setup.profiler_enable_ms = enable_ms_;
}

RangeProfiler::~RangeProfiler() {
  disable();
  sets_.clear();
  CUpti_Profiler_DeInitialize_Params p{CUpti_Profiler_DeInitialize_Params_STRUCT_SIZE};
  cuptiProfilerDeInitialize(&p);
}

// One profiled call of the callable, phase by phase; each phase's host time goes to last_phases(). A call whose
// kernels filled the room may have launched more than it held (CUPTI keeps the first ones and need not say that it
// dropped any): unless the launches counted say that it held them all, it is profiled again in a larger room.
std::vector<KernelCounters> RangeProfiler::collect(const std::function<void()>& launch, std::size_t set_index,
                                                   Passes passes) {
  MetricSet& set = sets_.at(set_index);
  phases_ = {};
  LapTimer laps;
  if (sized_set_ != set_index) switch_object(set, set_index);
  laps.add_lap(phases_.switch_ms);
  for (;;) {
    initialize_counter_data(set);
    laps.add_lap(phases_.image_ms);
    set_config(set, passes.first);
    laps.add_lap(phases_.set_config_ms);
    const LaunchCount launched = profile(launch, set, passes, laps);
    const std::size_t dropped = decode(laps);
    const std::size_t kept = ranges(set);
    if (launched.graph && any_unread(evaluate(set)))
      throw CollectorError(
          ErrorKind::cupti_failure,
          "the profiled call launched a CUDA graph, and the range profiler read no counters for it (NaN): "
          "launch the graph's kernels themselves in the call you profile");
    if (kept + dropped > max_kernels_ || (launched.complete && launched.kernels > max_kernels_) ||
        (!holds_every_kernel(launched, kept, dropped) && room_ > max_kernels_))
      throw CollectorError(ErrorKind::too_many_kernels,
                           "the profiled call launched more than " + std::to_string(max_kernels_) +
                               " kernels; raise CollectorOptions::max_kernels_per_call or profile fewer launches at "
                               "once");
    if (holds_every_kernel(launched, kept, dropped)) break;
    if (launched.complete && launched.kernels > kept && kept < room_)
      throw CollectorError(ErrorKind::cupti_failure,
                           "the range profiler kept " + std::to_string(kept) + " of the " +
                               std::to_string(launched.kernels) + " kernels the call launched, in a room for " +
                               std::to_string(room_) + "; report this with the call you profile");
    // On a fresh object: the object it has, sized again for the larger room, still kept 4 kernels of 12 in a room
    // of 8 (bench/RESULTS-collector-speed.md). A process pays this once per size of call.
    room_ = launched.complete && launched.kernels > room_ ? launched.kernels : room_ * 2;
    disable();
    enable();
    size_for(set);
    laps.add_lap(phases_.switch_ms);
  }
  std::vector<KernelCounters> kernels = evaluate(set);
  laps.add_lap(phases_.evaluate_ms);
  phases_.kernels = kernels.size();
  phases_.room = room_;
  return kernels;
}

// Every kernel the call launched has its range: the launches were counted and each has its range, or, where they
// were not counted (or counted fewer than the ranges, so the count missed some), the room kept a place free: a full
// room may have dropped kernels without saying so.
bool RangeProfiler::holds_every_kernel(const LaunchCount& launched, std::size_t kept, std::size_t dropped) const {
  if (dropped != 0) return false;
  if (launched.complete && launched.kernels >= kept) return launched.kernels == kept;
  return kept < room_;
}

void RangeProfiler::switch_object(MetricSet& set, std::size_t set_index) {
  if (profiler_ == nullptr || switch_ == SetSwitch::reenable) {
    disable();
    enable();
  }
  size_for(set);
  sized_set_ = set_index;
}

void RangeProfiler::prepare(std::size_t set_index) {
  size_for(sets_.at(set_index));
  sized_set_ = set_index;
}

void RangeProfiler::size_for(MetricSet& set) {
  set.counter_data = counter_data_for(*set.config);
  set.pristine.clear();
}

void RangeProfiler::initialize_counter_data(MetricSet& set) {
  if (!set.pristine.empty() && copy_pristine_) {
    std::copy(set.pristine.begin(), set.pristine.end(), set.counter_data.begin());
    return;
  }
  CUpti_RangeProfiler_CounterDataImage_Initialize_Params init{
      CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE};
  init.pRangeProfilerObject = profiler_;
  init.counterDataSize = set.counter_data.size();
  init.pCounterData = set.counter_data.data();
  BANKGATE_CUPTI(cuptiRangeProfilerCounterDataImageInitialize(&init));
  set.pristine = set.counter_data;
}

void RangeProfiler::set_config(MetricSet& set, std::size_t first_pass) {
  CUpti_RangeProfiler_SetConfig_Params config{CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE};
  config.pRangeProfilerObject = profiler_;
  config.configSize = set.config->config_image().size();
  config.pConfig = set.config->config_image().data();
  config.counterDataImageSize = set.counter_data.size();
  config.pCounterDataImage = set.counter_data.data();
  config.range = CUPTI_AutoRange;
  // One pass (the default metric sets): the kernels' own run is the pass, with nothing saved or restored. Kernel
  // replay costs about 3.5 ms of host time per kernel on an H200 even then (bench/RESULTS-counters.md) and is
  // kept for a user's metric lists that need several passes, where each kernel must be run again on restored
  // memory. The collector's own further sets are replayed by calling the launch again.
  config.replayMode = set.replayed_by_caller ? CUPTI_UserReplay : CUPTI_KernelReplay;
  config.maxRangesPerPass = room_;
  config.numNestingLevels = 1;
  config.minNestingLevel = 1;
  config.passIndex = first_pass;
  config.targetNestingLevel = 1;
  BANKGATE_CUPTI(cuptiRangeProfilerSetConfig(&config));
}

// The call between Start and Stop. Its CUDA errors are only checked after Stop, so that a failed launch does
// not leave the profiler started.
// With user replay, one call of the launch per pass the set needs; the launches counted are the first pass's, and a
// later pass that launched another number makes the count incomplete.
LaunchCount RangeProfiler::profile(const std::function<void()>& launch, const MetricSet& set, Passes wanted,
                                   LapTimer& laps) {
  const std::size_t passes = set.replayed_by_caller ? set.config->passes() : 1;
  LaunchCount first_pass{0, false};
  for (std::size_t pass = wanted.first;; ++pass) {
    CUpti_RangeProfiler_Start_Params start{CUpti_RangeProfiler_Start_Params_STRUCT_SIZE};
    start.pRangeProfilerObject = profiler_;
    BANKGATE_CUPTI(cuptiRangeProfilerStart(&start));
    laps.add_lap(phases_.start_ms);
    // Kernel replay's own runs of a kernel are CUPTI's: only the caller's launches are counted, and only then.
    LaunchCounting counting(set.replayed_by_caller ? callbacks_ : nullptr, context_);
    try {
      launch();
    } catch (...) {
      counting.finish();
      CUpti_RangeProfiler_Stop_Params stop{CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE};
      stop.pRangeProfilerObject = profiler_;
      cuptiRangeProfilerStop(&stop);  // the launch's own error is the one to report
      throw;
    }
    const cudaError_t launched = cudaGetLastError();
    const cudaError_t finished = cudaDeviceSynchronize();
    const LaunchCount count = counting.finish();
    laps.add_lap(phases_.launch_ms);
    CUpti_RangeProfiler_Stop_Params stop{CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE};
    stop.pRangeProfilerObject = profiler_;
    BANKGATE_CUPTI(cuptiRangeProfilerStop(&stop));
    laps.add_lap(phases_.stop_ms);
    BANKGATE_CUDA(launched);
    BANKGATE_CUDA(finished);
    if (pass == wanted.first)
      first_pass = count;
    else if (count.kernels != first_pass.kernels || !count.complete)
      first_pass.complete = false;
    if (stop.isAllPassSubmitted || pass + 1 - wanted.first >= wanted.count) return first_pass;
    if (pass + 1 >= passes)
      throw CollectorError(ErrorKind::cupti_failure, "the range profiler wants pass " + std::to_string(pass + 2) +
                                                         " of a metric set configured for " + std::to_string(passes) +
                                                         "; report this with the metric list");
  }
}

std::size_t RangeProfiler::decode(LapTimer& laps) {
  CUpti_RangeProfiler_DecodeData_Params decoded{CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE};
  decoded.pRangeProfilerObject = profiler_;
  BANKGATE_CUPTI(cuptiRangeProfilerDecodeData(&decoded));
  laps.add_lap(phases_.decode_ms);
  return decoded.numOfRangeDropped;
}

std::size_t RangeProfiler::ranges(MetricSet& set) {
  CUpti_RangeProfiler_GetCounterDataInfo_Params info{CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE};
  info.pCounterDataImage = set.counter_data.data();
  info.counterDataImageSize = set.counter_data.size();
  BANKGATE_CUPTI(cuptiRangeProfilerGetCounterDataInfo(&info));
  return info.numTotalRanges;
}

// Its threads make their host objects while the caller goes on.
void RangeProfiler::make_evaluation(MetricSet& set) {
  const std::size_t cores = std::max(1u, std::thread::hardware_concurrency());
  const std::size_t threads = ParallelEvaluation::threads_for(set.metrics.size(), std::min<std::size_t>(cores - 1, 3));
  set.evaluation = std::make_unique<ParallelEvaluation>(chip_name_, set.metrics, availability_, *set.config, threads);
}

// The metrics' values of each range (one a kernel launch) of the decoded counter data, on as many threads as the
// metric list is worth (at most three more than the caller's).
std::vector<KernelCounters> RangeProfiler::evaluate(MetricSet& set) {
  if (!set.evaluation) make_evaluation(set);
  const std::vector<std::vector<double>> values = set.evaluation->evaluate(set.counter_data, ranges(set));
  std::vector<KernelCounters> kernels(values.size());
  for (std::size_t range = 0; range < values.size(); ++range)
    for (std::size_t m = 0; m < set.metrics.size(); ++m) kernels[range].values[set.metrics[m]] = values[range][m];
  return kernels;
}

}  // namespace bankgate::detail
