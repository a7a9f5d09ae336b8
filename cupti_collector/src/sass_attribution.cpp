#include "sass_attribution.hpp"

#include <cuda_runtime_api.h>
#include <cupti_pcsampling.h>
#include <cupti_profiler_target.h>
#include <cupti_sass_metrics.h>

#include <algorithm>
#include <cstdlib>
#include <optional>
#include <tuple>

#include <bankgate/metrics.hpp>

#include "check.hpp"
#include "names.hpp"

namespace bankgate::detail {
namespace {

std::uint64_t metric_id(const std::string& chip, const char* name) {
  CUpti_SassMetrics_GetProperties_Params p{CUpti_SassMetrics_GetProperties_Params_STRUCT_SIZE};
  p.pChipName = chip.c_str();
  p.pMetricName = name;
  BANKGATE_CUPTI(cuptiSassMetricsGetProperties(&p));
  return p.metric.metricId;
}

// The kinds of a unit the chip lacks (TMA, wgmma, distributed shared memory before Hopper) have no
// per-instruction metric there, and no instruction of that kind to name.
std::optional<std::uint64_t> optional_metric_id(const std::string& chip, const char* name) {
  CUpti_SassMetrics_GetProperties_Params p{CUpti_SassMetrics_GetProperties_Params_STRUCT_SIZE};
  p.pChipName = chip.c_str();
  p.pMetricName = name;
  if (cuptiSassMetricsGetProperties(&p) != CUPTI_SUCCESS) return std::nullopt;
  return p.metric.metricId;
}

// Enabled for one call; disabled on every way out, so a failure leaves no kernel patched for later launches.
class PatchingScope {
 public:
  explicit PatchingScope(CUcontext context) : context_(context) {
    CUpti_SassMetricsEnable_Params enable{CUpti_SassMetricsEnable_Params_STRUCT_SIZE};
    enable.ctx = context_;
    enable.enableLazyPatching = 1;  // patch only what runs inside this scope
    BANKGATE_CUPTI(cuptiSassMetricsEnable(&enable));
  }
  ~PatchingScope() {
    CUpti_SassMetricsDisable_Params disable{CUpti_SassMetricsDisable_Params_STRUCT_SIZE};
    disable.ctx = context_;
    cuptiSassMetricsDisable(&disable);
  }
  PatchingScope(const PatchingScope&) = delete;
  PatchingScope& operator=(const PatchingScope&) = delete;

 private:
  CUcontext context_;
};

// (cubin CRC, function, pc offset) -> metric id -> value
using PatchedFigures =
    std::map<std::tuple<std::uint32_t, std::string, std::uint32_t>, std::map<std::uint64_t, std::uint64_t>>;

// The figures of every instruction patched so far in the scope, summed over its instances.
PatchedFigures flush_figures(CUcontext context) {
  CUpti_SassMetricsGetDataProperties_Params properties{CUpti_SassMetricsGetDataProperties_Params_STRUCT_SIZE};
  properties.ctx = context;
  BANKGATE_CUPTI(cuptiSassMetricsGetDataProperties(&properties));
  const std::size_t records = properties.numOfPatchedInstructionRecords;
  const std::size_t instances = properties.numOfInstances;
  PatchedFigures figures;
  if (records == 0 || instances == 0) return figures;
  std::vector<CUpti_SassMetrics_Data> data(records);
  std::vector<CUpti_SassMetrics_InstanceValue> values(records * instances);
  for (std::size_t r = 0; r < records; ++r) {
    data[r].structSize = sizeof(CUpti_SassMetrics_Data);
    data[r].pInstanceValues = values.data() + r * instances;
  }
  CUpti_SassMetricsFlushData_Params flush{CUpti_SassMetricsFlushData_Params_STRUCT_SIZE};
  flush.ctx = context;
  flush.numOfPatchedInstructionRecords = records;
  flush.numOfInstances = instances;
  flush.pMetricsData = data.data();
  BANKGATE_CUPTI(cuptiSassMetricsFlushData(&flush));
  for (const CUpti_SassMetrics_Data& record : data) {
    const std::string function = record.functionName != nullptr ? record.functionName : "";
    std::free(const_cast<char*>(record.functionName));  // allocated by CUPTI for the caller
    auto& slot = figures[{record.cubinCrc, function, record.pcOffset}];
    for (std::size_t i = 0; i < instances; ++i)
      slot[record.pInstanceValues[i].metricId] += record.pInstanceValues[i].value;
  }
  return figures;
}

// Kernels in the order their first instruction comes.
void add_to_kernel(std::vector<KernelInstructions>& kernels, const std::string& name, InstructionFigures instruction) {
  auto kernel =
      std::find_if(kernels.begin(), kernels.end(), [&](const KernelInstructions& k) { return k.kernel_name == name; });
  if (kernel == kernels.end()) kernel = kernels.insert(kernels.end(), KernelInstructions{name, {}});
  kernel->instructions.push_back(std::move(instruction));
}

}  // namespace

SassAttributor::SassAttributor(CUcontext context, int device_index, const std::string& chip_name,
                               const ModuleCubins& cubins)
    : context_(context), device_(device_index), cubins_(cubins) {
  for (const InstructionKindTraits& kind : instruction_kind_table())
    if (const auto id = optional_metric_id(chip_name, std::string(kind.executions).c_str()))
      kinds_.push_back({std::string(kind.kind), *id});
  wavefronts_ = metric_id(chip_name, "smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared");
  ideal_wavefronts_ = metric_id(chip_name, "smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared_ideal");
  global_sectors_ = metric_id(chip_name, "smsp__sass_sectors_mem_global");
  ideal_global_sectors_ = metric_id(chip_name, "smsp__sass_sectors_mem_global_ideal");
  local_sectors_ = metric_id(chip_name, "smsp__sass_sectors_mem_local");
  // Configured once per collector: a second configuration of the device in one process fails
  // (CUPTI_ERROR_OUT_OF_MEMORY on an H200), while enabling and disabling per call works.
  std::vector<CUpti_SassMetrics_Config> configs;
  for (const auto& [unused, id] : kinds_) configs.push_back({id, CUPTI_SASS_METRICS_OUTPUT_GRANULARITY_GPU});
  for (const std::uint64_t id :
       {wavefronts_, ideal_wavefronts_, global_sectors_, ideal_global_sectors_, local_sectors_})
    configs.push_back({id, CUPTI_SASS_METRICS_OUTPUT_GRANULARITY_GPU});
  CUpti_SassMetricsSetConfig_Params set{CUpti_SassMetricsSetConfig_Params_STRUCT_SIZE};
  set.pConfigs = configs.data();
  set.numOfMetricConfig = configs.size();
  set.deviceIndex = static_cast<std::uint32_t>(device_);
  BANKGATE_CUPTI(cuptiSassMetricsSetConfig(&set));
}

SassAttributor::~SassAttributor() {
  CUpti_SassMetricsUnsetConfig_Params unset{CUpti_SassMetricsUnsetConfig_Params_STRUCT_SIZE};
  unset.deviceIndex = static_cast<std::uint32_t>(device_);
  cuptiSassMetricsUnsetConfig(&unset);
}

SassAttributor::Location SassAttributor::locate(std::uint32_t crc, const std::string& function,
                                                std::uint32_t pc_offset) {
  Location where;
  for (const std::vector<char>& cubin : cubins_.candidates(crc)) {
    CUpti_GetSassToSourceCorrelationParams p{CUpti_GetSassToSourceCorrelationParamsSize};
    p.cubin = cubin.data();
    p.cubinSize = cubin.size();
    p.functionName = function.c_str();
    p.pcOffset = pc_offset;
    if (cuptiGetSassToSourceCorrelation(&p) != CUPTI_SUCCESS) continue;
    const std::string dir = p.dirName != nullptr ? p.dirName : "";
    const std::string name = p.fileName != nullptr ? p.fileName : "";
    std::free(p.fileName);
    std::free(p.dirName);
    where.file = dir.empty() || name.starts_with('/') ? name : dir + "/" + name;
    where.line = p.lineNumber;
    auto known = opcodes_.find(crc);
    if (known == opcodes_.end()) known = opcodes_.emplace(crc, disassemble(cubin)).first;
    if (const auto f = known->second.find(function); f != known->second.end())
      if (const auto op = f->second.find(pc_offset); op != f->second.end()) {
        where.opcode = op->second.opcode;
        for (const auto& [file, line] : op->second.inlined_at) where.inlined_at.push_back({file, line});
      }
    break;
  }
  return where;
}

std::vector<KernelInstructions> SassAttributor::attribute(const std::function<void()>& launch) {
  PatchedFigures figures;
  {
    const PatchingScope patching(context_);
    launch();
    BANKGATE_CUDA(cudaGetLastError());
    BANKGATE_CUDA(cudaDeviceSynchronize());
    figures = flush_figures(context_);
  }

  std::vector<KernelInstructions> kernels;
  for (const auto& [where, values] : figures) {
    const auto& [crc, function, pc_offset] = where;
    std::optional<InstructionFigures> instruction = figures_of(crc, function, pc_offset, values);
    if (!instruction) continue;  // patched, but never executed
    add_to_kernel(kernels, kernel_base_name(demangle(function.c_str())), std::move(*instruction));
  }
  for (auto& kernel : kernels)
    std::sort(kernel.instructions.begin(), kernel.instructions.end(),
              [](const InstructionFigures& a, const InstructionFigures& b) { return a.pc_offset < b.pc_offset; });
  return kernels;
}

// One patched instruction's figures, named by the first kind whose executions it counted, placed in its source
// line (and its kernel's calling line where it was inlined) and named by its opcode; none when it never ran.
std::optional<InstructionFigures> SassAttributor::figures_of(std::uint32_t crc, const std::string& function,
                                                             std::uint32_t pc_offset,
                                                             const std::map<std::uint64_t, std::uint64_t>& values) {
  const auto value = [&values](std::uint64_t id) {
    const auto it = values.find(id);
    return it == values.end() ? std::uint64_t{0} : it->second;
  };
  InstructionFigures instruction;
  for (const auto& [kind, id] : kinds_)
    if (const std::uint64_t executions = value(id); executions > 0) {
      instruction.kind = kind;
      instruction.executions = executions;
      break;
    }
  if (instruction.executions == 0) return std::nullopt;
  instruction.wavefronts = value(wavefronts_);
  instruction.ideal_wavefronts = value(ideal_wavefronts_);
  instruction.sectors = value(global_sectors_) + value(local_sectors_);
  instruction.ideal_sectors = value(ideal_global_sectors_);
  if (instruction.kind == "local_load" || instruction.kind == "local_store")
    instruction.ideal_sectors = instruction.sectors;
  instruction.pc_offset = pc_offset;
  Location where = locate(crc, function, pc_offset);
  instruction.file = std::move(where.file);
  instruction.line = where.line;
  instruction.inlined_at = std::move(where.inlined_at);
  instruction.opcode = std::move(where.opcode);
  return instruction;
}

}  // namespace bankgate::detail
