// history: what the history store keeps of every gate, record, refresh and compare (docs/history.md), in parts:
// import, show, changes, mark and stats, each defined in its own file (history_commands.hpp).

#include <filesystem>
#include <memory>
#include <vector>

#include <bankgate/gate/text/text.hpp>

#include "../commands.hpp"
#include "../history_append.hpp"
#include "../history_commands.hpp"
#include "../options.hpp"
#include "../subcommand_table.hpp"

namespace bankgate::cli {
namespace {

struct Part {
  const char* name;
  const char* description;
  Define define;
};

const Part parts[] = {
    {"import",
     "append runs from earlier artifacts: a gate's report folder (candidates and result records), a "
     "candidates folder, or the file a run kept when its store could not be reached",
     define_history_import},
    {"show", "one test's series of a counter or of its duration, run by run, as a table", define_history_show},
    {"changes",
     "change points: for counters the exact commit (or range) where a value changed, with the kernel's "
     "code identity before and after; for durations a shift of level",
     define_history_changes},
    {"mark", "record a reviewer's word on a change point: intended, regression or false", define_history_mark},
    {"stats", "each test's precision from the marks: the share of its marked change points that were not false",
     define_history_stats},
};

}  // namespace

Runner store_part(CLI::App& command, std::string& history, Runner run) {
  command.add_option("--history", history,
                     "the history store: an SQLite file or a postgresql:// URL (default: $BANKGATE_HISTORY, else "
                     "<repository>/.bankgate/history.sqlite of the current folder)");
  command.footer(exit_codes_of({exit_code::unreadable}));
  return run;
}

std::unique_ptr<history::Store> open_history(const std::string& option) {
  const std::string location = history_location(option == "off" ? "" : option, {});
  if (location.empty()) throw std::invalid_argument("no history store: give one with --history");
  std::error_code ec;
  if (!history::is_server_url(location) && !std::filesystem::exists(location, ec))
    throw std::runtime_error("there is no history store at " + location +
                             " (gate, record, refresh and compare make it as they append; give another with "
                             "--history)");
  return history::open_store(location);
}

std::unique_ptr<history::Store> open_history_to_write(const std::string& option) {
  const std::string location = history_location(option == "off" ? "" : option, {});
  if (location.empty()) throw std::invalid_argument("no history store: give one with --history");
  return history::open_store(location);
}

std::string short_commit(const std::string& commit) { return commit.empty() ? "(unknown)" : commit.substr(0, 12); }

Runner define_history(CLI::App& command) {
  command.require_subcommand(1);
  struct Defined {
    CLI::App* app;
    Runner run;
  };
  const auto defined = std::make_shared<std::vector<Defined>>();
  for (const Part& part : parts) {
    CLI::App* app = command.add_subcommand(part.name, part.description);
    defined->push_back({app, part.define(*app)});
  }
  command.footer(exit_codes_of({exit_code::unreadable}));
  return [defined] {
    for (const Defined& d : *defined)
      if (*d.app) return d.run();
    return exit_usage;
  };
}

}  // namespace bankgate::cli
