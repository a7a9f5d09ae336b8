// history stats: each test's precision from the marks reviewers left on its change points (history mark): the
// share of its marked alerts that were real (intended or a regression) rather than false.

#include <iostream>
#include <map>
#include <memory>

#include <bankgate/gate/reports/report.hpp>
#include <bankgate/gate/reports/table.hpp>
#include <bankgate/gate/text/number_format.hpp>
#include <bankgate/gate/text/text.hpp>

#include "../commands.hpp"
#include "../history_commands.hpp"
#include "../options.hpp"

namespace bankgate::cli {
namespace {

namespace g = bankgate::gate;
namespace h = bankgate::history;

struct Tally {
  int intended = 0, regression = 0, false_alerts = 0;
  int marked() const { return intended + regression + false_alerts; }
  void add(const std::string& verdict) {
    (verdict == "intended" ? intended : verdict == "regression" ? regression : false_alerts) += 1;
  }
};

std::vector<std::string> row(const std::string& name, const Tally& t) {
  const double precision = t.marked() == 0 ? 0.0 : 100.0 * (t.intended + t.regression) / t.marked();
  return {name,
          std::to_string(t.marked()),
          std::to_string(t.intended),
          std::to_string(t.regression),
          std::to_string(t.false_alerts),
          g::format_number(precision) + "%"};
}

int stats(const std::string& history) {
  const auto store = open_history(history);
  std::map<std::string, Tally> tests;
  Tally all;
  // The last word on a change point counts: a reviewer may change their mind.
  std::map<std::string, std::string> last;
  for (const h::Mark& m : store->marks()) last[m.test + "\n" + m.metric + "\n" + m.commit] = m.verdict;
  for (const auto& [key, verdict] : last) {
    tests[key.substr(0, key.find('\n'))].add(verdict);
    all.add(verdict);
  }
  std::cout << all.marked() << " marked change point(s) in " << g::terminal_line(store->where()) << "\n";
  if (all.marked() == 0) {
    std::cout << "mark change points with bankgate history mark to see each test's precision\n";
    return exit_ok;
  }
  std::vector<std::vector<std::string>> rows{{"test", "marked", "intended", "regression", "false", "precision"}};
  for (const auto& [test, tally] : tests) rows.push_back(row(test, tally));
  rows.push_back(row("(all)", all));
  std::cout << g::format_table(rows);
  return exit_ok;
}

}  // namespace

Runner define_history_stats(CLI::App& command) {
  const auto history = std::make_shared<std::string>();
  return store_part(command, *history, [history] { return stats(*history); });
}

}  // namespace bankgate::cli
