// kernel-name: the name results give a kernel (its bare function name, as in tests and baselines), for scripts
// reading other tools' demangled names.

#include <iostream>
#include <memory>

#include <nlohmann/json.hpp>

#include <bankgate/gate/reports/output_json.hpp>
#include <bankgate/results.hpp>

#include "../commands.hpp"
#include "../options.hpp"
#include "../subcommand_table.hpp"

namespace bankgate::cli {
namespace {

// Prints [{"name": demangled, "bare": name in results}, ...] for `names`, or for the lines of standard input.
int kernel_names(const std::vector<std::string>& names) {
  std::vector<std::string> input = names;
  if (input.empty())
    for (std::string line; std::getline(std::cin, line);)
      if (!line.empty()) input.push_back(line);
  nlohmann::json out = nlohmann::json::array();
  for (const std::string& name : input) out.push_back({{"name", name}, {"bare", bankgate::kernel_base_name(name)}});
  std::cout << gate::json_text(out) << "\n";
  return exit_ok;
}

}  // namespace

Runner define_kernel_name(CLI::App& command) {
  const auto names = std::make_shared<std::vector<std::string>>();
  command.add_option("names", *names, "demangled kernel names (default: one per line on standard input)");
  command.footer(exit_codes_of({}));
  return [names] { return kernel_names(*names); };
}

}  // namespace bankgate::cli
