#pragma once
// The metric table: every counter bankgate gates, with its Nsight Compute and nvprof-era names, its default
// tolerance and the per-instruction kind that explains it; the ratios derived from them; the per-line kinds of
// the attribution. Names and arithmetic only: what a metric list costs on a chip is CUPTI's to say
// (count_passes, preflight.hpp, in the collector). Adding a SASS metric is one row in `counter_table`:
// recording, comparison, reports, JSON and the documentation's table follow from it.

#if __cplusplus < 202002L
#error \
    "bankgate's headers need C++20: give a CUDA source that includes them CUDA_STANDARD 20, or none (bankgate's targets ask for C++20); with CMake before 3.26, bring bankgate in (find_package, add_subdirectory) in the target's folder or one above, which gives CMake nvcc's C++20 flag"
#endif

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <bankgate/ratio_keys.hpp>
#include <bankgate/results.hpp>

namespace bankgate {

// Where a counter comes from: the range profiler (SASS-instrumented: CUPTI patches each instruction to count
// what it does, so the sums depend only on the code and its inputs), the launch itself (the driver's figures
// for the compiled function and its launch configuration: no counter needed), or the bulk copy engine's own
// traffic counters (hardware counters of the L1's crossbar ports, which no instruction-level metric has):
// they need a second replay pass, so they are read only for kernels that executed TMA instructions, and are 0
// by definition for the others.
enum class CounterSource { sass, launch, tma_traffic };

enum class CounterGroup { shared, global, local, tma, wgmma, cluster, instructions, launch };
std::string_view to_string(CounterGroup group);  // "shared memory", "global memory", ...

// How a counter is gated unless a test says otherwise (KernelCase::counter_tolerances).
struct DefaultTolerance {
  double relative = 0.0;  // 0: exact
  std::string_view reason;
};

struct MetricTraits {
  std::string_view name;     // the Nsight Compute metric name (or a launch__ name of our own, see below)
  std::string_view display;  // short label for tables and failure messages
  std::string_view nvprof;   // what nvprof called it; empty where nvprof had no equivalent
  CounterGroup group;
  std::string_view kind;  // the per-line instruction kind that explains a change (InstructionKindTraits)
  CounterSource source = CounterSource::sass;
  DefaultTolerance tolerance{};
};

namespace metric {
inline constexpr std::string_view shared_load_wavefronts =
    "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum";
inline constexpr std::string_view shared_store_wavefronts =
    "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum";
inline constexpr std::string_view shared_load_requests = "smsp__sass_inst_executed_op_shared_ld.sum";
inline constexpr std::string_view shared_store_requests = "smsp__sass_inst_executed_op_shared_st.sum";
inline constexpr std::string_view instructions = "smsp__sass_inst_executed.sum";
inline constexpr std::string_view thread_instructions = "smsp__sass_thread_inst_executed.sum";
inline constexpr std::string_view registers_per_thread = "launch__registers_per_thread";
inline constexpr std::string_view local_memory_per_thread = "launch__local_memory_per_thread";
inline constexpr std::string_view resident_blocks_per_sm = "launch__resident_blocks_per_sm";
// TMA instructions of every kind (loads, stores, reductions, prefetches): a kernel with any gets the
// tma_traffic pass.
inline constexpr std::string_view tma_instructions = "smsp__sass_inst_executed_op_tma.sum";

// The hardware set: the L1's own counters. They also count wavefronts that L1 fills of global data cause when
// they meet shared accesses in the data banks, so in kernels with many blocks they vary from run to run
// (docs/measurement.md, "The L1's hardware counters").
namespace hardware {
inline constexpr std::string_view shared_load_wavefronts = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum";
inline constexpr std::string_view shared_store_wavefronts = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum";
inline constexpr std::string_view shared_load_requests = "smsp__inst_executed_op_shared_ld.sum";
inline constexpr std::string_view shared_store_requests = "smsp__inst_executed_op_shared_st.sum";
inline constexpr std::string_view shared_load_bank_conflicts =
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum";
inline constexpr std::string_view shared_store_bank_conflicts =
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum";
}  // namespace hardware
}  // namespace metric

// Which counters collect_counters reads, each set one replay pass on GH100: the instrumented set of every
// kernel (Hopper's units included, on chips that have them), the hardware set of the L1 (opt-in), and the
// TMA traffic (a second run, for kernels that executed TMA instructions only).
enum class CounterSet { sass_instrumented, hardware, tma_traffic };

// Whether a metric counts a unit that chips before Hopper lack (the TMA, wgmma and cluster groups).
bool of_hopper_unit(const MetricTraits& metric);

// Every counter of the default set, in the order tables show them. Memory traffic is a property of the access
// pattern: exact. Instruction counts move with any edit or compiler change, so they carry a default tolerance.
std::span<const MetricTraits> counter_table();
std::span<const MetricTraits> hardware_counter_table();

// The metric table's row for `name`, if it has one.
const MetricTraits* find_metric(std::string_view name);

// Names of the range-profiler metrics of a set (launch figures excluded: they are no CUPTI metric).
std::vector<std::string> metric_names(CounterSet set);
std::vector<std::string> default_metric_names();  // metric_names(CounterSet::sass_instrumented)
// Every counter name a gated record may hold: the default metrics and the launch figures.
std::vector<std::string> gated_counter_names();

// The display label of a metric from the table, or the metric name itself for metrics outside it.
std::string_view display_name(std::string_view metric_name);

// A ratio of two counters that the seed documents and Nsight Compute reason in, e.g. transactions per request.
// A kernel that issues no request of that kind gets 0, the value Nsight Compute prints for it.
struct RatioTraits {
  std::string_view key;  // e.g. "global_store_sectors_per_request"
  std::string_view display;
  std::string_view numerator;  // metric names
  std::string_view denominator;
  std::string_view nvprof;
};
std::span<const RatioTraits> ratio_table();
const RatioTraits* find_ratio(std::string_view key);

// Every ratio of the table whose two counters `counters` holds.
std::vector<std::pair<std::string, double>> derived_ratios(const KernelCounters& counters);

enum class SharedOp { load, store };

// Transactions per request, nvprof's shared_{load,store}_transactions_per_request, from whichever counter set
// `counters` holds (the SASS-instrumented one when both).
double transactions_per_request(const KernelCounters& counters, SharedOp op);

// What a kind of instruction is called in per-line figures, which per-instruction SASS metric counts its
// executions, and which traffic it has. `instructions` holds every executed instruction of a line, so that a
// change in instruction counts can be placed too.
struct InstructionKindTraits {
  std::string_view kind;           // "global_store", ...
  std::string_view display;        // "global store"
  std::string_view executions;     // per-instruction SASS metric (no rollup suffix)
  bool shared_wavefronts = false;  // the kind costs shared-memory wavefronts (and has an ideal)
  bool global_sectors = false;     // the kind costs global sectors (and has an ideal)
  bool local_sectors = false;
};
std::span<const InstructionKindTraits> instruction_kind_table();
const InstructionKindTraits* find_instruction_kind(std::string_view kind);
inline constexpr std::string_view all_instructions_kind = "instructions";

}  // namespace bankgate
