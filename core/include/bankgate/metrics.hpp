#pragma once
// The metric table: which CUPTI metrics the collector reads by default, how to show them, and the derived
// ratios (transactions per request) that the seed documents reason in. Names and arithmetic only: what a
// metric list costs on a chip is CUPTI's to say (count_passes, preflight.hpp, in the collector).

#include <array>
#include <string>
#include <string_view>
#include <vector>

#include <bankgate/results.hpp>

namespace bankgate {

struct MetricTraits {
  std::string_view name;     // CUPTI / Nsight Compute metric name
  std::string_view display;  // short label for tables and failure messages
};

namespace metric {
// The default set, SASS-instrumented: CUPTI patches each shared-memory instruction to count what it does, so the
// sums depend only on the code and its inputs. Transactions are the wavefronts the L1 data stage spends on
// shared loads (stores), requests the warp-level LDS/LD (STS/ST) instructions executed.
inline constexpr std::string_view shared_load_wavefronts = "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum";
inline constexpr std::string_view shared_store_wavefronts = "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum";
inline constexpr std::string_view shared_load_requests = "smsp__sass_inst_executed_op_shared_ld.sum";
inline constexpr std::string_view shared_store_requests = "smsp__sass_inst_executed_op_shared_st.sum";

// The hardware set: the L1's own counters. They also count wavefronts that L1 fills of global data cause when
// they meet shared accesses in the data banks, so in kernels with many blocks they vary from run to run (up to
// about 1% for wavefronts and 35% for conflicts in three Nsight Compute runs on an H100).
namespace hardware {
inline constexpr std::string_view shared_load_wavefronts = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum";
inline constexpr std::string_view shared_store_wavefronts = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum";
inline constexpr std::string_view shared_load_requests = "smsp__inst_executed_op_shared_ld.sum";
inline constexpr std::string_view shared_store_requests = "smsp__inst_executed_op_shared_st.sum";
inline constexpr std::string_view shared_load_bank_conflicts = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum";
inline constexpr std::string_view shared_store_bank_conflicts = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum";
}  // namespace hardware
}  // namespace metric

// Which counters collect_counters reads. Both sets need one replay pass on GH100.
enum class CounterSet { sass_instrumented, hardware };

// Shared-memory loads and stores, exact: transactions (wavefronts) and requests (warp-level instructions). Bank
// conflicts are not a counter of this set; they come with the per-instruction attribution (see
// Collector::attribute_shared_accesses) as wavefronts above the ideal.
inline constexpr std::array<MetricTraits, 4> shared_memory_metrics{{
    {metric::shared_load_wavefronts, "shared load transactions"},
    {metric::shared_store_wavefronts, "shared store transactions"},
    {metric::shared_load_requests, "shared load requests"},
    {metric::shared_store_requests, "shared store requests"},
}};

inline constexpr std::array<MetricTraits, 6> hardware_shared_memory_metrics{{
    {metric::hardware::shared_load_wavefronts, "shared load transactions (hardware)"},
    {metric::hardware::shared_store_wavefronts, "shared store transactions (hardware)"},
    {metric::hardware::shared_load_requests, "shared load requests (hardware)"},
    {metric::hardware::shared_store_requests, "shared store requests (hardware)"},
    {metric::hardware::shared_load_bank_conflicts, "shared load bank conflicts (hardware)"},
    {metric::hardware::shared_store_bank_conflicts, "shared store bank conflicts (hardware)"},
}};

std::vector<std::string> metric_names(CounterSet set);
std::vector<std::string> default_metric_names();  // metric_names(CounterSet::sass_instrumented)

// The display label of a metric from the table, or the metric name itself for metrics outside it.
std::string_view display_name(std::string_view metric_name);

enum class SharedOp { load, store };

// Transactions per request, nvprof's shared_{load,store}_transactions_per_request, from whichever counter set
// `counters` holds (the SASS-instrumented one when both). A kernel that issues no request of that kind gets
// 0, the value Nsight Compute prints for it.
double transactions_per_request(const KernelCounters& counters, SharedOp op);

}  // namespace bankgate
