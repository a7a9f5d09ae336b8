// readme-table: the README's table of expected against measured ratios, from the baselines (readme_page.hpp).

#include <iostream>
#include <memory>

#include "../commands.hpp"
#include "../options.hpp"
#include "../readme_page.hpp"
#include "../subcommand_table.hpp"

namespace bankgate::cli {

Runner define_readme_table(CLI::App& command) {
  const auto o = std::make_shared<ReadmeTableRequest>();
  command.add_option("--baselines", o->baselines, "baselines folder")->capture_default_str();
  command.add_option("--gpu", o->gpu, "ARCH/MODEL (default: the only GPU folder)");
  command.add_option("--readme", o->readme, "rewrite the table between the markers in this file");
  command.add_flag("--check", o->check, "with --readme: exit 1 when the file's table differs")->needs("--readme");
  command.footer(
      exit_codes_of({{exit_regression, "--check: the README's table differs"},
                     {exit_not_measured, "an input is unreadable, or the README lacks the markers (nothing written)"},
                     {exit_other_schema, "a baseline of another schema version (regenerate the baselines first)"}}));
  return [o] {
    o->program = this_command();
    return run_readme_table(*o, std::cout, std::cerr);
  };
}

}  // namespace bankgate::cli
