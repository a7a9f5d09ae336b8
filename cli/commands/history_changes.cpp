// history changes: the change points of the history. Counters: the exact commit where a value changed against its
// parent's run, or the range of commits between two runs to bisect, with the kernel's code identity either side.
// Durations: shifts of level by binary segmentation (change_points.hpp), with their p-values.

#include <cstdio>
#include <iostream>
#include <map>
#include <memory>

#include <bankgate/gate/reports/report.hpp>
#include <bankgate/gate/reports/table.hpp>
#include <bankgate/gate/rules/process_spread.hpp>
#include <bankgate/gate/text/number_format.hpp>
#include <bankgate/gate/text/text.hpp>
#include <bankgate/history/change_points.hpp>

#include "../commands.hpp"
#include "../history_commands.hpp"
#include "../options.hpp"

namespace bankgate::cli {
namespace {

namespace g = bankgate::gate;
namespace h = bankgate::history;

struct ChangesOptions {
  std::string test, metric, gpu_key, history;
};

using Table = std::vector<std::vector<std::string>>;

std::map<std::string, std::vector<h::SeriesPoint>> by_gpu(const std::vector<h::SeriesPoint>& points) {
  std::map<std::string, std::vector<h::SeriesPoint>> out;
  for (const h::SeriesPoint& p : points) out[p.gpu_key].push_back(p);
  return out;
}

std::string where(const h::ChangePoint& c) {
  return c.exact ? short_commit(c.first_changed) + " (exact)"
                 : short_commit(c.last_unchanged) + ".." + short_commit(c.first_changed) + " (bisect)";
}

std::string p_text(double p) {
  char text[16];
  std::snprintf(text, sizeof text, "%.1e", p);
  return text;
}

std::string code(const h::ChangePoint& c) {
  if (c.code_before.empty() && c.code_after.empty()) return "-";
  if (c.code_before == c.code_after) return c.code_after + " (same)";
  return (c.code_before.empty() ? "?" : c.code_before) + " -> " + (c.code_after.empty() ? "?" : c.code_after);
}

std::string marked(const std::vector<h::Mark>& marks, const std::string& test, const std::string& metric,
                   const std::string& commit) {
  std::string verdict;
  for (const h::Mark& m : marks)
    if (m.test == test && m.metric == metric && !commit.empty() && commit.starts_with(m.commit)) verdict = m.verdict;
  return verdict.empty() ? "-" : verdict;
}

// How much of the history was looked at: what a count of change points is a rate of (a false-alert rate on A/A
// series: bench/history-false-alerts.sh).
struct Examined {
  std::size_t series = 0, runs = 0;
  void add(const std::vector<h::SeriesPoint>& points) {
    ++series;
    runs += points.size();
  }
  std::string text(const std::string& what) const {
    return std::to_string(series) + " " + what + " series over " + std::to_string(runs) + " run(s)";
  }
};

struct Context {
  h::Store& store;
  const std::vector<h::Mark>& marks;
  Table& table;
  std::vector<std::string>& unstable;
  Examined durations, counters;
};

void counter_rows(Context& c, const std::string& test, const std::string& metric, const std::string& gpu_key) {
  const auto series = c.store.series({test, metric, "", gpu_key});
  for (const auto& [gpu, points] : by_gpu(series)) {
    c.counters.add(points);
    const h::CounterChanges found = h::counter_changes(points);
    for (const h::ChangePoint& p : found.changes)
      c.table.push_back({test, gpu, metric, where(p), g::format_number(p.before) + " -> " + g::format_number(p.after),
                         code(p), marked(c.marks, test, metric, p.first_changed)});
    for (const std::string& commit : found.unstable_commits)
      c.unstable.push_back(test + " " + metric + " on " + gpu + " at " + short_commit(commit));
  }
}

void duration_rows(Context& c, const std::string& test, const std::string& gpu_key) {
  const auto series = c.store.series({test, "duration", "", gpu_key});
  for (const auto& [gpu, points] : by_gpu(series)) {
    c.durations.add(points);
    for (const h::ChangePoint& p : h::duration_changes(points))
      c.table.push_back({test, gpu, "duration", where(p) + " p=" + p_text(p.p_value),
                         g::duration_text(p.before) + " -> " + g::duration_text(p.after), code(p),
                         marked(c.marks, test, "duration", p.first_changed)});
  }
}

int changes(const ChangesOptions& o) {
  const auto store = open_history(o.history);
  const std::vector<h::Mark> marks = store->marks();
  Table table{{"test", "gpu", "metric", "where", "change", "code", "mark"}};
  std::vector<std::string> unstable;
  Context c{*store, marks, table, unstable, {}, {}};
  const std::vector<std::string> tests = o.test.empty() ? store->tests() : std::vector<std::string>{o.test};
  for (const std::string& test : tests) {
    if (o.metric.empty() || o.metric == "duration") duration_rows(c, test, o.gpu_key);
    for (const std::string& metric : store->metrics(test))
      if (o.metric.empty() || o.metric == metric) counter_rows(c, test, metric, o.gpu_key);
  }
  std::cout << (table.size() - 1) << " change point(s) in " << g::terminal_line(store->where()) << "\n"
            << "examined: " << c.durations.text("duration") << ", " << c.counters.text("counter") << "\n";
  if (table.size() > 1) std::cout << g::format_table(table);
  for (const std::string& line : unstable)
    std::cout << "not a property of the code (two values in one commit): " << g::terminal_line(line) << "\n";
  return exit_ok;
}

}  // namespace

Runner define_history_changes(CLI::App& command) {
  const auto o = std::make_shared<ChangesOptions>();
  command.add_option("--test", o->test, "only this test, Suite.test (default: every test)");
  command.add_option("--metric", o->metric, "only this counter, or duration (default: every counter and duration)");
  command.add_option("--gpu", o->gpu_key, "only runs on this GPU, arch/model");
  return store_part(command, o->history, [o] { return changes(*o); });
}

}  // namespace bankgate::cli
