#pragma once
// SASS opcodes of a cubin's instructions, by function and byte offset, and the kernel's own source line of
// instructions that come from inlined functions, from the CUDA toolkit's nvdisasm (-gi: inline line info).
// Both only label and place an instruction in reports, so where nvdisasm is missing or fails the result is
// empty and reports show the instruction kind and its innermost line alone.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace bankgate::detail {

struct DisassembledInstruction {
  std::string opcode;  // with modifiers: "LDS.U.128"
  // The lines an inlined instruction was called from, innermost first, the kernel's own last; empty where the
  // instruction is not inlined.
  std::vector<std::pair<std::string, std::uint32_t>> inlined_at;
};

// function (mangled name) -> byte offset -> what nvdisasm says of the instruction there
using Opcodes = std::map<std::string, std::map<std::uint32_t, DisassembledInstruction>>;

Opcodes disassemble(const std::vector<char>& cubin);

// nvdisasm's listing (-c -gi) -> opcodes and call sites; separate so it can be tested without the tool.
Opcodes parse_nvdisasm_listing(const std::string& listing);

}  // namespace bankgate::detail
