#pragma once
// Per-instruction shared-memory figures from the CUPTI SASS Metrics API: executions, wavefronts and ideal
// wavefronts of every patched LDS/STS/... instruction, mapped to source lines (line table of a -lineinfo
// build) and opcodes (nvdisasm). Patching happens lazily, only for the kernels launched inside one call.

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
  std::vector<KernelSharedAccesses> attribute(const std::function<void()>& launch);

 private:
  struct Location {
    std::string file;
    std::uint32_t line = 0;
    std::string opcode;
  };
  Location locate(std::uint32_t crc, const std::string& function, std::uint32_t pc_offset);
  std::optional<SharedInstruction> shared_instruction(std::uint32_t crc, const std::string& function, std::uint32_t pc_offset,
                                                      const std::map<std::uint64_t, std::uint64_t>& values);

  CUcontext context_;
  int device_;
  const ModuleCubins& cubins_;
  std::uint64_t load_executions_ = 0, store_executions_ = 0, wavefronts_ = 0, ideal_ = 0;  // metric ids
  std::map<std::uint32_t, Opcodes> opcodes_;  // by cubin CRC, disassembled once
};

}  // namespace bankgate::detail
