#pragma once
// Per-instruction figures from the CUPTI SASS Metrics API: of every executed instruction its kind (the
// per-kind execution metrics of the metric table), executions, shared wavefronts and global/local sectors with
// their ideals, mapped to source lines (line table of a -lineinfo build), to the kernel's calling line where
// it was inlined, and to opcodes (nvdisasm). Patching happens lazily, only for the kernels launched inside
// one call.

#include <cuda.h>

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <bankgate/results.hpp>

#include "disassembly.hpp"
#include "module_cubins.hpp"

namespace bankgate::detail {

class SassAttributor {
 public:
  SassAttributor(CUcontext context, int device_index, const std::string& chip_name, const ModuleCubins& cubins);
  ~SassAttributor();
  SassAttributor(const SassAttributor&) = delete;
  SassAttributor& operator=(const SassAttributor&) = delete;
  std::vector<KernelInstructions> attribute(const std::function<void()>& launch);

 private:
  struct Location {
    std::string file;
    std::uint32_t line = 0;
    std::string opcode;
    std::vector<SourceLocation> inlined_at;
  };
  Location locate(std::uint32_t crc, const std::string& function, std::uint32_t pc_offset);
  std::optional<InstructionFigures> figures_of(std::uint32_t crc, const std::string& function, std::uint32_t pc_offset,
                                               const std::map<std::uint64_t, std::uint64_t>& values);

  CUcontext context_;
  int device_;
  const ModuleCubins& cubins_;
  std::vector<std::pair<std::string, std::uint64_t>> kinds_;  // kind -> its executions metric id, table order
  std::uint64_t wavefronts_ = 0, ideal_wavefronts_ = 0, global_sectors_ = 0, ideal_global_sectors_ = 0,
                local_sectors_ = 0;
  std::map<std::uint32_t, Opcodes> opcodes_;  // by cubin CRC, disassembled once
};

}  // namespace bankgate::detail
