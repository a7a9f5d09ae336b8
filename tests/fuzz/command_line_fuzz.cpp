// libFuzzer target for the `bankgate` command line: the input is the arguments, one per line. Parsing gives
// a subcommand's options or a CLI11 error (usage, or --help); nothing is run.

#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "command_line.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<std::string> args{"bankgate"};
  std::istringstream lines(std::string(reinterpret_cast<const char*>(data), size));
  for (std::string line; std::getline(lines, line) && args.size() < 64;) args.push_back(line);
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  // Defined once: building the whole command line per input would be most of the work. clear() resets what
  // the previous input parsed, as a fresh process would have it.
  static bankgate::cli::CommandLine line;
  static CLI::App& app = []() -> CLI::App& {
    static CLI::App defined{"bankgate", "bankgate"};
    bankgate::cli::define_command_line(defined, line);
    return defined;
  }();
  app.clear();
  try {
    app.parse(static_cast<int>(argv.size()), argv.data());
  } catch (const CLI::Error&) {
  }
  return 0;
}
