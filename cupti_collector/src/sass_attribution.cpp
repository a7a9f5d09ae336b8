#include "sass_attribution.hpp"

#include <cuda_runtime_api.h>
#include <cupti_pcsampling.h>
#include <cupti_profiler_target.h>
#include <cupti_sass_metrics.h>

#include <algorithm>
#include <cstdlib>
#include <optional>
#include <tuple>

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
    for (std::size_t i = 0; i < instances; ++i) slot[record.pInstanceValues[i].metricId] += record.pInstanceValues[i].value;
  }
  return figures;
}

// Kernels in the order their first instruction comes.
void add_to_kernel(std::vector<KernelSharedAccesses>& kernels, const std::string& name, SharedInstruction instruction) {
  auto kernel = std::find_if(kernels.begin(), kernels.end(), [&](const KernelSharedAccesses& k) { return k.kernel_name == name; });
  if (kernel == kernels.end()) kernel = kernels.insert(kernels.end(), KernelSharedAccesses{name, {}});
  kernel->instructions.push_back(std::move(instruction));
}

}  // namespace

SassAttributor::SassAttributor(CUcontext context, int device_index, const std::string& chip_name, const ModuleCubins& cubins)
    : context_(context), device_(device_index), cubins_(cubins) {
  load_executions_ = metric_id(chip_name, "smsp__sass_inst_executed_op_shared_ld");
  store_executions_ = metric_id(chip_name, "smsp__sass_inst_executed_op_shared_st");
  wavefronts_ = metric_id(chip_name, "smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared");
  ideal_ = metric_id(chip_name, "smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared_ideal");
  // Configured once per collector: a second configuration of the device in one process fails
  // (CUPTI_ERROR_OUT_OF_MEMORY on an H200), while enabling and disabling per call works.
  std::vector<CUpti_SassMetrics_Config> configs;
  for (const std::uint64_t id : {load_executions_, store_executions_, wavefronts_, ideal_})
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

SassAttributor::Location SassAttributor::locate(std::uint32_t crc, const std::string& function, std::uint32_t pc_offset) {
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
      if (const auto op = f->second.find(pc_offset); op != f->second.end()) where.opcode = op->second;
    break;
  }
  return where;
}

std::vector<KernelSharedAccesses> SassAttributor::attribute(const std::function<void()>& launch) {
  PatchedFigures figures;
  {
    const PatchingScope patching(context_);
    launch();
    BANKGATE_CUDA(cudaGetLastError());
    BANKGATE_CUDA(cudaDeviceSynchronize());
    figures = flush_figures(context_);
  }

  std::vector<KernelSharedAccesses> kernels;
  for (const auto& [where, values] : figures) {
    const auto& [crc, function, pc_offset] = where;
    std::optional<SharedInstruction> instruction = shared_instruction(crc, function, pc_offset, values);
    if (!instruction) continue;  // patched, but never touched shared memory
    add_to_kernel(kernels, kernel_base_name(demangle(function.c_str())), std::move(*instruction));
  }
  for (auto& kernel : kernels)
    std::sort(kernel.instructions.begin(), kernel.instructions.end(),
              [](const SharedInstruction& a, const SharedInstruction& b) { return a.pc_offset < b.pc_offset; });
  return kernels;
}

// One patched instruction's figures, placed in its source line and named by its opcode; none when it never
// touched shared memory.
std::optional<SharedInstruction> SassAttributor::shared_instruction(std::uint32_t crc, const std::string& function,
                                                                    std::uint32_t pc_offset,
                                                                    const std::map<std::uint64_t, std::uint64_t>& values) {
  const auto value = [&values](std::uint64_t id) {
    const auto it = values.find(id);
    return it == values.end() ? std::uint64_t{0} : it->second;
  };
  SharedInstruction instruction;
  const std::uint64_t loads = value(load_executions_), stores = value(store_executions_);
  instruction.wavefronts = value(wavefronts_);
  instruction.ideal_wavefronts = value(ideal_);
  if (loads == 0 && stores == 0 && instruction.wavefronts == 0) return std::nullopt;
  instruction.access = loads > 0 ? SharedAccess::load : stores > 0 ? SharedAccess::store : SharedAccess::other;
  instruction.executions = loads + stores;
  instruction.pc_offset = pc_offset;
  Location where = locate(crc, function, pc_offset);
  instruction.file = std::move(where.file);
  instruction.line = where.line;
  instruction.opcode = std::move(where.opcode);
  return instruction;
}

}  // namespace bankgate::detail
