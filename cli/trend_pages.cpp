// The failed tests' trend pages of a gate (trend_pages.hpp).

#include "trend_pages.hpp"

#include <iostream>
#include <memory>
#include <vector>

#include <bankgate/gate/protocol/run_protocol.hpp>
#include <bankgate/gate/protocol/test_result.hpp>
#include <bankgate/gate/text/source_url.hpp>
#include <bankgate/gate/text/text.hpp>
#include <bankgate/history/store.hpp>
#include <bankgate/history/trend_page.hpp>

#include "commands.hpp"
#include "console.hpp"

namespace bankgate::cli {
namespace {

namespace fs = std::filesystem;
namespace g = bankgate::gate;
namespace h = bankgate::history;

// The test's series on this GPU: its duration first, then each counter the history has of it.
std::vector<h::TrendSeries> series_of(h::Store& store, const std::string& test, const std::string& gpu_key) {
  std::vector<std::string> metrics{"duration"};
  for (const std::string& m : store.metrics(test)) metrics.push_back(m);
  std::vector<h::TrendSeries> out;
  for (const std::string& metric : metrics) {
    h::SeriesQuery query{test, metric, "", gpu_key};
    std::vector<h::SeriesPoint> points = store.series(query);
    if (!points.empty()) out.push_back({query, std::move(points)});
  }
  return out;
}

// The page of `test` in the run `reports`, relative to it.
fs::path page_of(const fs::path& reports, const std::string& test) {
  return g::protocol::run_trend_pages(reports).lexically_relative(reports) / (g::test_file_name(test) + ".html");
}

void say_written(const std::map<std::string, std::string>& pages, const fs::path& reports) {
  if (!pages.empty())
    progress("bankgate: history: the trend page of each of the " + std::to_string(pages.size()) +
             " failed test(s) in " + g::terminal_line(g::protocol::run_trend_pages(reports).string()));
}

}  // namespace

std::map<std::string, std::string> write_trend_pages(const Appended& appended, const g::GateSummary& summary,
                                                     const fs::path& reports, const std::string& source_url) {
  std::map<std::string, std::string> pages;
  try {
    std::unique_ptr<h::Store> store;
    for (const g::TestResult& t : summary.tests) {
      if (t.outcome != g::Outcome::regressed) continue;
      if (!store) store = h::open_store(appended.location);
      const std::vector<h::TrendSeries> series = series_of(*store, t.name, appended.gpu_key);
      if (series.empty()) continue;
      fs::create_directories(g::protocol::run_trend_pages(reports));
      const fs::path relative = page_of(reports, t.name);
      const std::string commit_url = source_url.empty() ? "" : g::SourceUrl(source_url).commit_template();
      write_text(reports / relative,
                 h::trend_page(t.name + " on " + appended.gpu_key + ": its history", series, commit_url));
      pages[t.name] = relative.generic_string();
    }
  } catch (const std::exception& e) {
    std::cerr << "bankgate: history: trend pages not written (" << g::terminal_safe(e.what())
              << "); the verdict stands\n";
  }
  say_written(pages, reports);
  return pages;
}

std::map<std::string, std::string> merged_trend_pages(const std::vector<fs::path>& parts, const g::GateSummary& summary,
                                                      const fs::path& reports) {
  std::map<std::string, std::string> pages;
  for (const g::TestResult& t : summary.tests) {
    if (t.outcome != g::Outcome::regressed) continue;
    const fs::path relative = page_of(reports, t.name);
    for (const fs::path& part : parts) {
      std::error_code ec;
      if (!fs::is_regular_file(fs::symlink_status(part / relative, ec))) continue;  // not this part's test
      try {
        fs::create_directories(g::protocol::run_trend_pages(reports));
        fs::copy_file(part / relative, reports / relative, fs::copy_options::overwrite_existing);
        pages[t.name] = relative.generic_string();
      } catch (const std::exception& e) {
        std::cerr << "bankgate: history: the trend page of " << g::terminal_line(t.name) << " not copied ("
                  << g::terminal_safe(e.what()) << "); the verdict stands\n";
      }
      break;
    }
  }
  say_written(pages, reports);
  return pages;
}

}  // namespace bankgate::cli
