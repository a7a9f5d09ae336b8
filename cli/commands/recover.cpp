// recover: roll back what an interrupted promotion left in a baselines folder, as the next promotion would (readers
// refuse such a folder until then).

#include <iostream>
#include <memory>

#include <bankgate/gate/store/baseline_transaction.hpp>
#include <bankgate/gate/text/text.hpp>

#include "../baseline_reading.hpp"
#include "../commands.hpp"
#include "../options.hpp"
#include "../subcommand_table.hpp"

namespace bankgate::cli {
namespace {

namespace fs = std::filesystem;
namespace g = bankgate::gate;

// Recovery by hand: rolls back what an interrupted promotion left in `root`, as the next promotion would.
int recover(const fs::path& root) {
  std::error_code ec;
  if (!fs::is_directory(root, ec)) throw std::runtime_error(root.string() + " is not a folder of baselines");
  const g::BaselineTransaction transaction(root);
  if (const auto stray = stray_journal(transaction.folder())) std::cout << "note: " << *stray << "\n";
  for (const std::string& line : transaction.recovered()) std::cout << "recovered: " << g::terminal_line(line) << "\n";
  std::cout << g::terminal_line(root.string())
            << (transaction.recovered().empty() ? ": nothing to recover\n" : ": as before the interrupted promotion\n");
  return exit_ok;
}

}  // namespace

Runner define_recover(CLI::App& command) {
  const auto root = std::make_shared<fs::path>();
  command.add_option("--baselines", *root, "baselines folder")->required();
  command.footer(exit_codes_of({exit_code::unreadable}));
  return [root] { return recover(*root); };
}

}  // namespace bankgate::cli
