// The metric table (metrics.hpp): plain data, nothing here asks CUPTI.
#include <bankgate/metrics.hpp>

#include <array>
#include <string>
#include <string_view>

namespace bankgate {
namespace {

constexpr DefaultTolerance instruction_tolerance{
    0.10,
    "instruction counts move with any edit or compiler change (a compiler update moves them by several "
    "percent); 10% lets those through while a loop doing measurably more work per element fails (a test "
    "can tighten or loosen it with a reason)"};
constexpr DefaultTolerance register_tolerance{
    0.25,
    "registers matter through occupancy and spills, both gated exactly (resident blocks, local memory); "
    "25% lets the compiler's allocation move"};

// The tables keep one row per line, as they are read.
// clang-format off
using G = CounterGroup;
constexpr auto L = CounterSource::launch;
constexpr auto T = CounterSource::tma_traffic;

// Shared memory by instruction kind (requests = warp-level instructions executed; wavefronts = the L1 data
// stage's transactions; bank conflicts = wavefronts above the ideal); global and local memory by request and
// 32-byte sector; instructions; the launch's static figures.
constexpr std::array counters{
    MetricTraits{metric::shared_load_requests, "shared load requests", "shared_load", G::shared, "shared_load"},
    MetricTraits{metric::shared_load_wavefronts, "shared load transactions", "shared_load_transactions", G::shared, "shared_load"},
    MetricTraits{metric::shared_store_requests, "shared store requests", "shared_store", G::shared, "shared_store"},
    MetricTraits{metric::shared_store_wavefronts, "shared store transactions", "shared_store_transactions", G::shared, "shared_store"},
    MetricTraits{"smsp__sass_inst_executed_op_shared_atom.sum", "shared atomic requests", "shared_atom", G::shared, "shared_atomic"},
    MetricTraits{"smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_atom.sum", "shared atomic transactions", "", G::shared, "shared_atomic"},
    MetricTraits{"smsp__sass_inst_executed_op_ldgsts.sum", "cp.async requests", "", G::shared, "cp_async"},
    MetricTraits{"smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum", "cp.async shared transactions", "", G::shared, "cp_async"},
    MetricTraits{"smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum", "cp.async bank conflicts", "", G::shared, "cp_async"},
    MetricTraits{"smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ldgsts.sum", "cp.async global sectors", "", G::shared, "cp_async"},
    MetricTraits{"smsp__sass_inst_executed_op_ldsm.sum", "ldmatrix requests", "", G::shared, "ldmatrix"},
    MetricTraits{"smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldsm.sum", "ldmatrix transactions", "", G::shared, "ldmatrix"},
    MetricTraits{"smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ldsm.sum", "ldmatrix bank conflicts", "", G::shared, "ldmatrix"},
    MetricTraits{"smsp__sass_inst_executed_op_shared_stsm.sum", "stmatrix requests", "", G::shared, "stmatrix"},
    MetricTraits{"smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_stsm.sum", "stmatrix transactions", "", G::shared, "stmatrix"},
    MetricTraits{"smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_stsm.sum", "stmatrix bank conflicts", "", G::shared, "stmatrix"},
    MetricTraits{"smsp__sass_inst_executed_op_global_ld.sum", "global load requests", "global_load_requests", G::global, "global_load"},
    MetricTraits{"smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ld.sum", "global load sectors", "gld_transactions", G::global, "global_load"},
    MetricTraits{"smsp__sass_inst_executed_op_global_st.sum", "global store requests", "global_store_requests", G::global, "global_store"},
    MetricTraits{"smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_st.sum", "global store sectors", "gst_transactions", G::global, "global_store"},
    MetricTraits{"smsp__sass_inst_executed_op_global_atom.sum", "global atomic requests", "global_atomic_requests", G::global, "global_atomic"},
    MetricTraits{"smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_atom.sum", "global atomic sectors", "atomic_transactions", G::global, "global_atomic"},
    MetricTraits{"smsp__sass_inst_executed_op_global_red.sum", "global reduction requests", "global_reduction_requests", G::global, "global_reduction"},
    MetricTraits{"smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_red.sum", "global reduction sectors", "atomic_transactions", G::global, "global_reduction"},
    MetricTraits{"smsp__sass_inst_executed_op_local_ld.sum", "local load requests", "local_load", G::local, "local_load"},
    MetricTraits{"smsp__sass_l1tex_t_sectors_pipe_lsu_mem_local_op_ld.sum", "local load sectors", "local_load_transactions", G::local, "local_load"},
    MetricTraits{"smsp__sass_inst_executed_op_local_st.sum", "local store requests", "local_store", G::local, "local_store"},
    MetricTraits{"smsp__sass_l1tex_t_sectors_pipe_lsu_mem_local_op_st.sum", "local store sectors", "local_store_transactions", G::local, "local_store"},
    MetricTraits{"smsp__sass_inst_executed_op_tma_ld.sum", "TMA load instructions", "", G::tma, "tma_load"},
    MetricTraits{"l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld.sum", "TMA load bytes from global", "", G::tma, "tma_load", T},
    MetricTraits{"l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld_dest_multicast.sum", "TMA load bytes multicast to the cluster", "", G::tma, "tma_load", T},
    MetricTraits{"smsp__sass_inst_executed_op_tma_st.sum", "TMA store instructions", "", G::tma, "tma_store"},
    MetricTraits{"l1tex__m_l1tex2xbar_write_bytes_mem_global_op_tma_st.sum", "TMA store bytes to global", "", G::tma, "tma_store", T},
    MetricTraits{"smsp__sass_inst_executed_op_tma_red.sum", "TMA reduction instructions", "", G::tma, "tma_reduction"},
    MetricTraits{metric::tma_instructions, "TMA instructions (all kinds)", "", G::tma, "tma_load"},
    MetricTraits{"smsp__sass_inst_executed_op_shared_gmma.sum", "wgmma instructions", "", G::wgmma, "wgmma"},
    MetricTraits{"smsp__sass_data_bytes_mem_shared_op_gmma.sum", "wgmma shared operand bytes", "", G::wgmma, "wgmma"},
    MetricTraits{"smsp__sass_inst_executed_op_dshared_ld.sum", "distributed shared load requests", "", G::cluster, "dshared_load"},
    MetricTraits{"smsp__sass_inst_executed_op_dshared_st.sum", "distributed shared store requests", "", G::cluster, "dshared_store"},
    MetricTraits{"smsp__sass_inst_executed_op_dshared_atom.sum", "distributed shared atomic requests", "", G::cluster, "dshared_atomic"},
    MetricTraits{"smsp__sass_inst_executed_op_dshared_redas.sum", "distributed shared red.async requests", "", G::cluster, "dshared_atomic"},
    MetricTraits{"smsp__sass_inst_executed_op_dshared_stas.sum", "distributed shared st.async requests", "", G::cluster, "dshared_store"},
    MetricTraits{"smsp__sass_inst_executed_op_dshared_tma_st.sum", "TMA stores to a cluster peer", "", G::cluster, "tma_store"},
    MetricTraits{"smsp__sass_inst_executed_op_dshared_tma_red.sum", "TMA reductions to a cluster peer", "", G::cluster, "tma_reduction"},
    MetricTraits{metric::instructions, "instructions executed", "inst_executed", G::instructions, "instructions", CounterSource::sass, instruction_tolerance},
    MetricTraits{metric::thread_instructions, "thread instructions executed", "thread_inst_executed", G::instructions, "instructions", CounterSource::sass, instruction_tolerance},
    MetricTraits{"smsp__sass_branch_targets_threads_divergent.sum", "divergent branch targets", "divergent_branch", G::instructions, "instructions", CounterSource::sass, instruction_tolerance},
    MetricTraits{metric::registers_per_thread, "registers per thread", "Registers Per Thread (trace)", G::launch, "", L, register_tolerance},
    MetricTraits{"launch__shared_mem_per_block_static", "static shared memory per block (bytes)", "Static SMem (trace)", G::launch, "", L},
    MetricTraits{"launch__shared_mem_per_block_dynamic", "dynamic shared memory per block (bytes)", "Dynamic SMem (trace)", G::launch, "", L},
    MetricTraits{metric::local_memory_per_thread, "local memory per thread (bytes)", "", G::launch, "local_store", L},
    MetricTraits{metric::resident_blocks_per_sm, "resident blocks per SM", "", G::launch, "", L},
};

constexpr std::array hardware_counters{
    MetricTraits{metric::hardware::shared_load_wavefronts, "shared load transactions (hardware)", "shared_load_transactions", G::shared, "shared_load"},
    MetricTraits{metric::hardware::shared_store_wavefronts, "shared store transactions (hardware)", "shared_store_transactions", G::shared, "shared_store"},
    MetricTraits{metric::hardware::shared_load_requests, "shared load requests (hardware)", "shared_load", G::shared, "shared_load"},
    MetricTraits{metric::hardware::shared_store_requests, "shared store requests (hardware)", "shared_store", G::shared, "shared_store"},
    MetricTraits{metric::hardware::shared_load_bank_conflicts, "shared load bank conflicts (hardware)", "shared_ld_bank_conflict", G::shared, "shared_load"},
    MetricTraits{metric::hardware::shared_store_bank_conflicts, "shared store bank conflicts (hardware)", "shared_st_bank_conflict", G::shared, "shared_store"},
};

constexpr std::array ratios{
    RatioTraits{ratio::shared_load, "shared load transactions per request", metric::shared_load_wavefronts, metric::shared_load_requests, "shared_load_transactions_per_request"},
    RatioTraits{ratio::shared_store, "shared store transactions per request", metric::shared_store_wavefronts, metric::shared_store_requests, "shared_store_transactions_per_request"},
    RatioTraits{ratio::shared_atomic, "shared atomic transactions per request", "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_atom.sum", "smsp__sass_inst_executed_op_shared_atom.sum", ""},
    RatioTraits{ratio::cp_async_transactions, "cp.async shared transactions per request", "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum", "smsp__sass_inst_executed_op_ldgsts.sum", ""},
    RatioTraits{ratio::cp_async_sectors, "cp.async global sectors per request", "smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ldgsts.sum", "smsp__sass_inst_executed_op_ldgsts.sum", ""},
    RatioTraits{ratio::ldmatrix_transactions, "ldmatrix transactions per request", "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldsm.sum", "smsp__sass_inst_executed_op_ldsm.sum", ""},
    RatioTraits{ratio::stmatrix_transactions, "stmatrix transactions per request", "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_stsm.sum", "smsp__sass_inst_executed_op_shared_stsm.sum", ""},
    RatioTraits{ratio::global_load_sectors, "global load sectors per request", "smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ld.sum", "smsp__sass_inst_executed_op_global_ld.sum", "gld_transactions_per_request"},
    RatioTraits{ratio::global_store_sectors, "global store sectors per request", "smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_st.sum", "smsp__sass_inst_executed_op_global_st.sum", "gst_transactions_per_request"},
    RatioTraits{ratio::global_atomic_sectors, "global atomic sectors per request", "smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_atom.sum", "smsp__sass_inst_executed_op_global_atom.sum", ""},
    RatioTraits{ratio::global_reduction_sectors, "global reduction sectors per request", "smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_red.sum", "smsp__sass_inst_executed_op_global_red.sum", ""},
    RatioTraits{ratio::local_load_sectors, "local load sectors per request", "smsp__sass_l1tex_t_sectors_pipe_lsu_mem_local_op_ld.sum", "smsp__sass_inst_executed_op_local_ld.sum", "local_load_transactions_per_request"},
    RatioTraits{ratio::local_store_sectors, "local store sectors per request", "smsp__sass_l1tex_t_sectors_pipe_lsu_mem_local_op_st.sum", "smsp__sass_inst_executed_op_local_st.sum", "local_store_transactions_per_request"},
    RatioTraits{ratio::tma_load_bytes, "TMA load bytes per instruction", "l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld.sum", "smsp__sass_inst_executed_op_tma_ld.sum", ""},
    RatioTraits{ratio::tma_store_bytes, "TMA store bytes per instruction", "l1tex__m_l1tex2xbar_write_bytes_mem_global_op_tma_st.sum", "smsp__sass_inst_executed_op_tma_st.sum", ""},
    RatioTraits{ratio::wgmma_shared_bytes, "wgmma shared operand bytes per instruction", "smsp__sass_data_bytes_mem_shared_op_gmma.sum", "smsp__sass_inst_executed_op_shared_gmma.sum", ""},
    RatioTraits{ratio::threads_per_instruction, "active threads per instruction (of 32)", metric::thread_instructions, metric::instructions, "warp_execution_efficiency x 32"},
};

// Per-instruction executions by kind (SASS Metrics API names). Order matters where an opcode could count in
// two: the first kind with executions names the instruction.
constexpr std::array kinds{
    InstructionKindTraits{"shared_load", "shared load", "smsp__sass_inst_executed_op_shared_ld", true, false, false},
    InstructionKindTraits{"shared_store", "shared store", "smsp__sass_inst_executed_op_shared_st", true, false, false},
    InstructionKindTraits{"shared_atomic", "shared atomic", "smsp__sass_inst_executed_op_shared_atom", true, false, false},
    InstructionKindTraits{"cp_async", "cp.async", "smsp__sass_inst_executed_op_ldgsts", true, true, false},
    InstructionKindTraits{"ldmatrix", "ldmatrix", "smsp__sass_inst_executed_op_ldsm", true, false, false},
    InstructionKindTraits{"stmatrix", "stmatrix", "smsp__sass_inst_executed_op_shared_stsm", true, false, false},
    InstructionKindTraits{"global_load", "global load", "smsp__sass_inst_executed_op_global_ld", false, true, false},
    InstructionKindTraits{"global_store", "global store", "smsp__sass_inst_executed_op_global_st", false, true, false},
    InstructionKindTraits{"global_atomic", "global atomic", "smsp__sass_inst_executed_op_global_atom", false, true, false},
    InstructionKindTraits{"global_reduction", "global reduction", "smsp__sass_inst_executed_op_global_red", false, true, false},
    InstructionKindTraits{"local_load", "local load", "smsp__sass_inst_executed_op_local_ld", false, false, true},
    InstructionKindTraits{"local_store", "local store", "smsp__sass_inst_executed_op_local_st", false, false, true},
    InstructionKindTraits{"tma_load", "TMA load", "smsp__sass_inst_executed_op_tma_ld", false, false, false},
    InstructionKindTraits{"tma_store", "TMA store", "smsp__sass_inst_executed_op_tma_st", false, false, false},
    InstructionKindTraits{"tma_reduction", "TMA reduction", "smsp__sass_inst_executed_op_tma_red", false, false, false},
    InstructionKindTraits{"wgmma", "wgmma", "smsp__sass_inst_executed_op_shared_gmma", false, false, false},
    InstructionKindTraits{"dshared_load", "distributed shared load", "smsp__sass_inst_executed_op_dshared_ld", false, false, false},
    InstructionKindTraits{"dshared_store", "distributed shared store", "smsp__sass_inst_executed_op_dshared_st", false, false, false},
    InstructionKindTraits{"dshared_atomic", "distributed shared atomic", "smsp__sass_inst_executed_op_dshared_atom", false, false, false},
    InstructionKindTraits{all_instructions_kind, "instructions", "smsp__sass_inst_executed", false, false, false},
};
// clang-format on

}  // namespace

std::string_view to_string(CounterGroup group) {
  switch (group) {
    case CounterGroup::shared:
      return "shared memory";
    case CounterGroup::global:
      return "global memory";
    case CounterGroup::local:
      return "local memory";
    case CounterGroup::tma:
      return "TMA (bulk copies)";
    case CounterGroup::wgmma:
      return "wgmma (tensor cores)";
    case CounterGroup::cluster:
      return "cluster (distributed shared memory)";
    case CounterGroup::instructions:
      return "instructions";
    case CounterGroup::launch:
      return "launch";
  }
  return "other";
}

std::span<const MetricTraits> counter_table() { return counters; }
std::span<const MetricTraits> hardware_counter_table() { return hardware_counters; }

const MetricTraits* find_metric(std::string_view name) {
  for (const MetricTraits& m : counters)
    if (m.name == name) return &m;
  for (const MetricTraits& m : hardware_counters)
    if (m.name == name) return &m;
  return nullptr;
}

bool of_hopper_unit(const MetricTraits& m) {
  return m.group == CounterGroup::tma || m.group == CounterGroup::wgmma || m.group == CounterGroup::cluster;
}

std::vector<std::string> metric_names(CounterSet set) {
  std::vector<std::string> names;
  if (set == CounterSet::hardware) {
    for (const MetricTraits& m : hardware_counter_table()) names.emplace_back(m.name);
    return names;
  }
  for (const MetricTraits& m : counter_table()) {
    const CounterSource wanted = set == CounterSet::tma_traffic ? CounterSource::tma_traffic : CounterSource::sass;
    if (m.source == wanted) names.emplace_back(m.name);
  }
  return names;
}

std::vector<std::string> default_metric_names() { return metric_names(CounterSet::sass_instrumented); }

std::vector<std::string> gated_counter_names() {
  std::vector<std::string> names;
  for (const MetricTraits& m : counters) names.emplace_back(m.name);
  return names;
}

std::string_view display_name(std::string_view metric_name) {
  const MetricTraits* m = find_metric(metric_name);
  return m != nullptr ? m->display : metric_name;
}

std::span<const RatioTraits> ratio_table() { return ratios; }

const RatioTraits* find_ratio(std::string_view key) {
  for (const RatioTraits& r : ratios)
    if (r.key == key) return &r;
  return nullptr;
}

std::vector<std::pair<std::string, double>> derived_ratios(const KernelCounters& kernel) {
  std::vector<std::pair<std::string, double>> out;
  for (const RatioTraits& r : ratios) {
    const auto n = kernel.values.find(std::string(r.numerator));
    const auto d = kernel.values.find(std::string(r.denominator));
    if (n == kernel.values.end() || d == kernel.values.end()) continue;
    out.emplace_back(std::string(r.key), d->second == 0.0 ? 0.0 : n->second / d->second);
  }
  return out;
}

double transactions_per_request(const KernelCounters& kernel, SharedOp op) {
  const bool load = op == SharedOp::load;
  const bool sass = kernel.values.contains(std::string(metric::shared_load_wavefronts)) ||
                    !kernel.values.contains(std::string(metric::hardware::shared_load_wavefronts));
  const std::string_view wavefronts =
      sass ? (load ? metric::shared_load_wavefronts : metric::shared_store_wavefronts)
           : (load ? metric::hardware::shared_load_wavefronts : metric::hardware::shared_store_wavefronts);
  const std::string_view requests =
      sass ? (load ? metric::shared_load_requests : metric::shared_store_requests)
           : (load ? metric::hardware::shared_load_requests : metric::hardware::shared_store_requests);
  const double transactions = kernel.at(std::string(wavefronts));
  const double issued = kernel.at(std::string(requests));
  return issued == 0.0 ? 0.0 : transactions / issued;
}

std::span<const InstructionKindTraits> instruction_kind_table() { return kinds; }

const InstructionKindTraits* find_instruction_kind(std::string_view kind) {
  for (const InstructionKindTraits& k : kinds)
    if (k.kind == kind) return &k;
  return nullptr;
}

}  // namespace bankgate
