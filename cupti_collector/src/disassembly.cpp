#include "disassembly.hpp"

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

namespace bankgate::detail {
namespace {

// The toolkit bankgate was built with first (its path is compiled in), then whatever PATH offers.
std::string nvdisasm_program() {
#ifdef BANKGATE_NVDISASM
  std::error_code ec;
  if (std::filesystem::exists(BANKGATE_NVDISASM, ec)) return BANKGATE_NVDISASM;
#endif
  return "nvdisasm";
}

std::string read_command_output(const std::string& command) {
  std::string out;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return out;
  char buffer[4096];
  std::size_t n = 0;
  while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) out.append(buffer, n);
  if (pclose(pipe) != 0) return {};
  return out;
}

}  // namespace

// nvdisasm -gi writes, before the instructions of a source location, one "//##" line per inlining level,
// innermost first and the kernel's own location last:
//   //## File "/cuda/include/cuda_pipeline_helpers.h", line 292 inlined at "/cuda/include/cuda_pipeline_primitives.h", line 69
//   //## File "/cuda/include/cuda_pipeline_primitives.h", line 69 inlined at "/src/async_copy.cu", line 62
//   //## File "/src/async_copy.cu", line 62
// A block of more than one line marks inlined code: its second line onwards are the call sites, the last the
// kernel's own.
Opcodes parse_nvdisasm_listing(const std::string& listing) {
  static const std::regex function_label(R"(^\s*\.text\.([^\s:]+):\s*$)");
  // "        /*0080*/                   @!P0 LDS.U.128 R4, [R2+0x10] ;"
  static const std::regex instruction(
      R"(/\*([0-9a-fA-F]+)\*/\s+(?:@!?U?P[T0-9]+\s+)?([A-Z][A-Z0-9_]*(?:\.[A-Z0-9_]+)*))");
  static const std::regex location(R"re(^\s*//## File "([^"]*)", line ([0-9]+))re");
  Opcodes opcodes;
  std::string function;
  std::vector<std::pair<std::string, std::uint32_t>> frames;  // of the current block, innermost first
  bool in_block = false;
  std::istringstream lines(listing);
  std::smatch match;
  for (std::string line; std::getline(lines, line);) {
    if (std::regex_match(line, match, function_label)) {
      function = match[1];
      frames.clear();
      continue;
    }
    if (std::regex_search(line, match, location)) {
      if (!in_block) frames.clear();
      in_block = true;
      frames.emplace_back(match[1].str(), static_cast<std::uint32_t>(std::stoul(match[2])));
      continue;
    }
    in_block = false;
    if (!function.empty() && std::regex_search(line, match, instruction)) {
      DisassembledInstruction& entry = opcodes[function][static_cast<std::uint32_t>(std::stoul(match[1], nullptr, 16))];
      entry.opcode = match[2];
      if (frames.size() > 1) entry.inlined_at.assign(frames.begin() + 1, frames.end());
    }
  }
  return opcodes;
}

Opcodes disassemble(const std::vector<char>& cubin) {
  char path[] = "/tmp/bankgate-cubin-XXXXXX";
  const int fd = mkstemp(path);
  if (fd < 0) return {};
  close(fd);
  {
    std::ofstream file(path, std::ios::binary);
    file.write(cubin.data(), static_cast<std::streamsize>(cubin.size()));
  }
  std::string command = nvdisasm_program();
  command.insert(0, 1, '\'');
  command.append("' -c -gi '").append(path).append("' 2>/dev/null");
  const std::string listing = read_command_output(command);
  std::remove(path);
  return parse_nvdisasm_listing(listing);
}

}  // namespace bankgate::detail
