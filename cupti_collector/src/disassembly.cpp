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

Opcodes parse_nvdisasm_listing(const std::string& listing) {
  static const std::regex function_label(R"(^\s*\.text\.([^\s:]+):\s*$)");
  // "        /*0080*/                   @!P0 LDS.U.128 R4, [R2+0x10] ;"
  static const std::regex instruction(R"(/\*([0-9a-fA-F]+)\*/\s+(?:@!?U?P[T0-9]+\s+)?([A-Z][A-Z0-9_]*(?:\.[A-Z0-9_]+)*))");
  Opcodes opcodes;
  std::string function;
  std::istringstream lines(listing);
  std::smatch match;
  for (std::string line; std::getline(lines, line);) {
    if (std::regex_match(line, match, function_label)) {
      function = match[1];
      continue;
    }
    if (!function.empty() && std::regex_search(line, match, instruction))
      opcodes[function][static_cast<std::uint32_t>(std::stoul(match[1], nullptr, 16))] = match[2];
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
  command.append("' -c '").append(path).append("' 2>/dev/null");
  const std::string listing = read_command_output(command);
  std::remove(path);
  return parse_nvdisasm_listing(listing);
}

}  // namespace bankgate::detail
