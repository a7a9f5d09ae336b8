#pragma once
// The metric table: which CUPTI metrics the collector reads by default, how to show them, and the derived
// ratios (transactions per request) that the seed documents reason in.

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
inline constexpr std::string_view shared_load_wavefronts = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum";
inline constexpr std::string_view shared_store_wavefronts = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum";
inline constexpr std::string_view shared_load_requests = "smsp__inst_executed_op_shared_ld.sum";
inline constexpr std::string_view shared_store_requests = "smsp__inst_executed_op_shared_st.sum";
inline constexpr std::string_view shared_load_bank_conflicts = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum";
inline constexpr std::string_view shared_store_bank_conflicts = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum";
}  // namespace metric

// Shared-memory loads and stores: transactions (wavefronts), requests (warp-level instructions, read from a
// hardware counter so that all six fit in one pass) and bank conflicts.
inline constexpr std::array<MetricTraits, 6> shared_memory_metrics{{
    {metric::shared_load_wavefronts, "shared load transactions"},
    {metric::shared_store_wavefronts, "shared store transactions"},
    {metric::shared_load_requests, "shared load requests"},
    {metric::shared_store_requests, "shared store requests"},
    {metric::shared_load_bank_conflicts, "shared load bank conflicts"},
    {metric::shared_store_bank_conflicts, "shared store bank conflicts"},
}};

std::vector<std::string> default_metric_names();

// The display label of a metric from the table, or the metric name itself for metrics outside it.
std::string_view display_name(std::string_view metric_name);

enum class SharedOp { load, store };

// Transactions per request, nvprof's shared_{load,store}_transactions_per_request. A kernel that issues no
// request of that kind gets 0, the value Nsight Compute prints for it.
double transactions_per_request(const KernelCounters& counters, SharedOp op);

}  // namespace bankgate
