// history mark: a reviewer's word on a change point (intended, regression or false), kept in the store for
// history stats and shown beside the change point by history changes.

#include <iostream>
#include <memory>

#include <bankgate/gate/text/text.hpp>

#include "../commands.hpp"
#include "../history_commands.hpp"
#include "../options.hpp"

namespace bankgate::cli {
namespace {

namespace g = bankgate::gate;
namespace h = bankgate::history;

struct MarkOptions {
  h::Mark mark;
  std::string history;
};

int mark(const MarkOptions& o) {
  const auto store = open_history(o.history);
  store->add_mark(o.mark);
  std::cout << g::terminal_line(o.mark.test) << " " << g::terminal_line(o.mark.metric) << " at "
            << g::terminal_line(short_commit(o.mark.commit)) << ": marked " << o.mark.verdict << " in "
            << g::terminal_line(store->where()) << "\n";
  return exit_ok;
}

}  // namespace

Runner define_history_mark(CLI::App& command) {
  const auto o = std::make_shared<MarkOptions>();
  command.add_option("--test", o->mark.test, "the test, Suite.test")->required();
  command.add_option("--metric", o->mark.metric, "the counter's metric name, or duration")->required();
  command
      .add_option("--commit", o->mark.commit, "the change point's first changed commit (as history changes names it)")
      ->required();
  command.add_option("--verdict", o->mark.verdict, "intended, regression or false (no change of the code's)")
      ->required()
      ->check(CLI::IsMember({"intended", "regression", "false"}));
  command.add_option("--note", o->mark.note, "why, for whoever reads the marks");
  return store_part(command, o->history, [o] { return mark(*o); });
}

}  // namespace bankgate::cli
