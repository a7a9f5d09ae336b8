#pragma once
// Plain data: what the collector returns and the gate reads. No CUDA or CUPTI types, so that programs that
// only read results (the gate, the `bankgate` command) build and run without either.

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace bankgate {

// Counter values of one kernel launch, by CUPTI metric name (sums over the whole grid).
struct KernelCounters {
  std::map<std::string, double> values;

  // The value of `metric`; throws CollectorError(unknown_metric) when it was not collected.
  double at(const std::string& metric) const;
};

// Whether a kernel's inputs are left in L2 between timed launches (warm) or L2 is flushed before each (cold).
enum class L2State { warm, cold };
const char* to_string(L2State state);  // "warm", "cold"

// GPU durations of one kernel across repeated launches, in nanoseconds, from the Activity API's
// start/end timestamps (the GPU timer ticks every 32 ns on Hopper), and how they were taken.
// What the driver says of a launch, no counter needed: the compiled function's resources and how many of its
// blocks fit on one multiprocessor at the launch's block size (the occupancy calculator's answer).
struct LaunchFigures {
  int registers_per_thread = 0;
  int static_shared_bytes = 0;
  int dynamic_shared_bytes = 0;
  int local_bytes_per_thread = 0;  // spills and stack arrays
  int block_threads = 0;
  int resident_blocks_per_sm = 0;
};

// Where the host time of one timing measurement went, in milliseconds (for benchmarks: bench/). A call of the
// callable is counted once however many kernels it launches. The parts sum to a little less than the measurement's
// whole: the warm check and enabling and flushing the activity recording are none of them.
struct TimingPhases {
  std::size_t calls = 0;    // calls of the callable: probe, warm-up and samples
  double launch_ms = 0.0;   // the callable's calls (and the L2 flushes before them, when cold)
  double wait_ms = 0.0;     // the device synchronisations after each batch of calls
  double records_ms = 0.0;  // activity records flushed and read
  double clock_ms = 0.0;    // SM clock and slowdown reasons read through NVML
  double total_ms() const { return launch_ms + wait_ms + records_ms + clock_ms; }
};

struct KernelTiming {
  std::string kernel_name;  // demangled function name without parameters, e.g. "setRowReadRow"
  // One per sample, in launch order. A sample is the mean duration of `launches_per_sample` consecutive
  // launches of this kernel (each timed on its own, so the gaps between launches never count).
  std::vector<double> durations_ns;
  int launches_per_sample = 1;
  L2State l2 = L2State::warm;
  std::size_t warmup_launches = 0;  // calls of the callable before sampling (probe and warm-up)
  // false: the warm-up hit its limit before durations settled. true: they settled, or the device was warm and its
  // short warm-up sufficed (TimingOptions::short_warmup_when_warm), which is not a check that they settled.
  bool warmup_stable = false;
  // Samples discarded because the GPU was clocked down while they ran (a slowdown or power/thermal reason
  // reported by the driver, or an SM clock well below the highest seen). If too few samples remained, the
  // discarded ones are kept after all and `clocked_down` says so: the result is then suspect.
  std::size_t dropped_samples = 0;
  bool clocked_down = false;
  double sm_clock_mhz = 0.0;    // median SM clock read between chunks of samples; 0 where NVML is unavailable
  double relative_noise = 0.0;  // estimated standard error of the median over the median, at the end
  bool converged = false;       // the noise reached TimingOptions::target_relative_noise
  std::string stop_reason;      // "noise target reached", "time budget spent" or "sample limit reached"
  LaunchFigures launch;         // from the kernel's activity records
  TimingPhases host;            // the measurement's host time; the same for every kernel of one call
};

// What one instruction of a kernel did in one launch, from the SASS Metrics API: CUPTI patches the
// instruction to count its executions, the shared-memory wavefronts and global or local sectors it cost, and
// what those would have cost at best (no bank conflicts; fully coalesced for the access width). Its excess
// over the ideal is the instruction's bank conflicts or uncoalesced sectors.
struct SourceLocation {
  std::string file;
  std::uint32_t line = 0;
};

struct InstructionFigures {
  std::string file;        // source file from the line table (directory + name); empty without -lineinfo
  std::uint32_t line = 0;  // 0: unknown
  // Where the instruction comes from an inlined function (__pipeline_memcpy_async, a CuTe copy, a __device__
  // helper): the lines that called it, innermost first, the kernel's own last. Empty where it is not inlined
  // or where nvdisasm is absent; `file` and `line` hold the innermost (the helper's) location either way.
  std::vector<SourceLocation> inlined_at;
  std::uint32_t pc_offset = 0;   // byte offset of the instruction in its function
  std::string opcode;            // SASS opcode with modifiers, e.g. "LDS.128"; empty where nvdisasm is absent
  std::string kind;              // an InstructionKindTraits::kind (metrics.hpp): "global_store", ...; empty: none
  std::uint64_t executions = 0;  // warp-level executions (requests)
  std::uint64_t wavefronts = 0;  // shared memory
  std::uint64_t ideal_wavefronts = 0;
  std::uint64_t sectors = 0;  // global or local memory, 32 bytes each
  std::uint64_t ideal_sectors = 0;
};

struct KernelInstructions {
  std::string kernel_name;                       // as KernelTiming::kernel_name
  std::vector<InstructionFigures> instructions;  // in order of pc_offset; every executed instruction
};

// Where the host time of one collect_counters call went, in milliseconds (for benchmarks: bench/).
struct CounterPhases {
  std::size_t kernels = 0;     // ranges (kernel launches) profiled in the call
  std::size_t room = 0;        // the room for kernels the call was profiled in at last
  double flush_ms = 0.0;       // L2 flush before counting (CounterOptions::l2 cold)
  double switch_ms = 0.0;      // the profiler object made anew for another metric set or room
  double image_ms = 0.0;       // counter-data image initialised
  double set_config_ms = 0.0;  // configuration set for the call
  double start_ms = 0.0;
  double launch_ms = 0.0;  // the callable's launches and the device synchronisation (replay included)
  double stop_ms = 0.0;
  double decode_ms = 0.0;
  double evaluate_ms = 0.0;     // metric values of every range
  double tma_traffic_ms = 0.0;  // the second run for the TMA traffic (kernels with TMA instructions only)
  double total_ms() const {
    return flush_ms + switch_ms + image_ms + set_config_ms + start_ms + launch_ms + stop_ms + decode_ms + evaluate_ms +
           tma_traffic_ms;
  }
};

// Where the host time of making a Collector went, in milliseconds: the start-up a suite process pays once.
struct SetupPhases {
  double probe_ms = 0.0;     // the device found and its properties read (CUDA driver initialisation)
  double context_ms = 0.0;   // module capture subscribed, primary context created
  double profiler_ms = 0.0;  // CUPTI's profiler: chip, metric configuration, counter-data image, session
  // profiler_ms in parts: CUPTI's profiler initialised and the chip named; the counters the device offers
  // read; the metric configuration (configuration image: host work); the range profiler enabled on the context.
  double profiler_initialize_ms = 0.0;
  double counter_availability_ms = 0.0;
  double metric_config_ms = 0.0;
  double profiler_enable_ms = 0.0;
  double flusher_ms = 0.0;  // the L2 flush buffer allocated
  double timer_ms = 0.0;    // CUPTI activity tracing for kernel durations
  double total_ms() const { return probe_ms + context_ms + profiler_ms + flusher_ms + timer_ms; }
};

// The name a kernel is known by in results: "void ns::(anonymous namespace)::kern<32>(int*, float)" becomes
// "kern<32>" (no return type, namespaces or parameters).
std::string kernel_base_name(const std::string& demangled);

// Whether a case's `wanted` kernel name names the kernel results call `base_name`: the same name, or the name without
// its template arguments ("DeviceReduceKernel" for "DeviceReduceKernel<cub::...>", whose arguments no one writes).
bool kernel_name_matches(const std::string& wanted, const std::string& base_name);

struct DeviceInfo {
  int index = 0;
  std::string name;       // e.g. "NVIDIA H200"
  std::string chip_name;  // CUPTI's chip name, e.g. "GH100"; empty until a Collector is made
  int compute_capability_major = 0;
  int compute_capability_minor = 0;
  int multiprocessor_count = 0;
  int driver_version = 0;      // as cudaDriverGetVersion: 13000 for 13.0 (the CUDA API level the driver offers)
  std::string driver_release;  // the kernel module's release, e.g. "580.159.04"; empty where unknown
  int runtime_version = 0;     // as cudaRuntimeGetVersion
  std::uint32_t cupti_version = 0;
  std::string pci_bus_id;
};

}  // namespace bankgate
