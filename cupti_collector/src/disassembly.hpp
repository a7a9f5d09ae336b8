#pragma once
// SASS opcodes of a cubin's instructions, by function and byte offset, from the CUDA toolkit's nvdisasm. The
// opcode only labels an instruction in reports (LDS against LDS.128), so where nvdisasm is missing or fails
// the result is empty and reports show the access kind alone.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace bankgate::detail {

// function (mangled name) -> byte offset -> opcode with modifiers ("LDS.U.128")
using Opcodes = std::map<std::string, std::map<std::uint32_t, std::string>>;

Opcodes disassemble(const std::vector<char>& cubin);

// nvdisasm's listing -> opcodes; separate so it can be tested without the tool.
Opcodes parse_nvdisasm_listing(const std::string& listing);

}  // namespace bankgate::detail
