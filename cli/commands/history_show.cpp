// history show: one test's series of a counter or of its duration, oldest run first, as a table.

#include <iostream>
#include <memory>

#include <bankgate/gate/reports/report.hpp>
#include <bankgate/gate/reports/table.hpp>
#include <bankgate/gate/rules/process_spread.hpp>
#include <bankgate/gate/text/number_format.hpp>
#include <bankgate/gate/text/text.hpp>
#include <bankgate/history/trend_page.hpp>

#include "../commands.hpp"
#include "../history_commands.hpp"
#include "../options.hpp"

namespace bankgate::cli {
namespace {

namespace g = bankgate::gate;
namespace h = bankgate::history;

struct ShowOptions {
  h::SeriesQuery query;
  std::string history;
  std::size_t last = 0;        // 0: every run
  std::filesystem::path html;  // the trend page, where asked for
  std::string commit_url;      // its links to commits: an http(s) address with {commit}
};

std::vector<std::string> row_of(const h::SeriesPoint& p, bool duration) {
  const std::string value = duration ? g::duration_text(p.value) : g::format_number(p.value);
  const std::string spread = duration && p.p10_ns && p.p90_ns
                                 ? g::duration_text(*p.p10_ns) + " - " + g::duration_text(*p.p90_ns)
                                 : std::string();
  return {std::to_string(p.run_id),
          short_commit(p.commit),
          p.time,
          p.gpu_key,
          p.kernel,
          value,
          spread,
          p.code_hash.empty() ? "-" : p.code_hash};
}

int show(const ShowOptions& o) {
  const auto store = open_history(o.history);
  std::vector<h::SeriesPoint> points = store->series(o.query);
  if (points.empty()) {
    const std::vector<std::string> metrics = store->metrics(o.query.test);
    std::string known;
    for (const std::string& m : metrics) known += (known.empty() ? "" : ", ") + m;
    throw std::runtime_error("the history " + store->where() + " has no " + o.query.metric + " of " + o.query.test +
                             (metrics.empty() ? " (no result of that test at all: see `bankgate history changes`)"
                                              : " (its metrics: duration, " + known + ")"));
  }
  if (o.last > 0 && points.size() > o.last) points.erase(points.begin(), points.end() - static_cast<long>(o.last));
  const bool duration = o.query.metric == "duration";
  std::vector<std::vector<std::string>> rows{
      {"run", "commit", "time", "gpu", "kernel", duration ? "median" : "value", duration ? "p10 - p90" : "", "code"}};
  for (const h::SeriesPoint& p : points) rows.push_back(row_of(p, duration));
  std::cout << g::terminal_line(o.query.test) << ": " << g::terminal_line(o.query.metric) << ", " << points.size()
            << " run(s) in " << g::terminal_line(store->where()) << "\n"
            << g::format_table(rows);
  if (!o.html.empty()) {
    write_text(o.html, h::trend_page(o.query, points, o.commit_url));
    std::cout << "trend page: " << g::terminal_line(o.html.string()) << "\n";
  }
  return exit_ok;
}

}  // namespace

Runner define_history_show(CLI::App& command) {
  const auto o = std::make_shared<ShowOptions>();
  o->query.metric = "duration";
  command.add_option("--test", o->query.test, "the test, Suite.test")->required();
  command.add_option("--metric", o->query.metric, "a counter's metric name, or duration (the median per run)")
      ->capture_default_str();
  command.add_option("--kernel", o->query.kernel, "the kernel, for a test of several (default: its first)");
  command.add_option("--gpu", o->query.gpu_key, "only runs on this GPU, arch/model (e.g. sm_90/nvidia-h200)");
  command.add_option("--last", o->last, "only the last N runs")->check(whole_number(1));
  command.add_option("--html", o->html, "also write the series as an HTML page with its plot here");
  command
      .add_option("--commit-url", o->commit_url,
                  "link each point of the HTML page to its commit: an http(s) address with {commit}, e.g. "
                  "https://github.com/ORG/REPO/commit/{commit}")
      ->check(CLI::Validator(
          [](const std::string& url) -> std::string {
            const bool web = url.starts_with("https://") || url.starts_with("http://");
            return web && url.find("{commit}") != std::string::npos
                       ? ""
                       : "must be an http(s) address holding {commit}, got '" + url + "'";
          },
          "URL"));
  return store_part(command, o->history, [o] { return show(*o); });
}

}  // namespace bankgate::cli
