#pragma once
// The history store: every run's per-test results, in an SQLite file (the default) or on a PostgreSQL server
// (a URL), with one schema of versioned migrations. Appends are transactions: two runners appending at once both
// land whole (SQLite: WAL and a busy timeout; PostgreSQL: its own concurrency).

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <bankgate/history/entries.hpp>
#include <bankgate/history/store_errors.hpp>

namespace bankgate::history {

// One value of a series: a test's metric (or "duration" for the median) in one run.
struct SeriesPoint {
  std::int64_t run_id = 0;
  std::string commit, parent, time, gpu_key, kernel, code_hash;
  double value = 0.0;
  std::optional<double> p10_ns, p90_ns;  // durations only
};

struct SeriesQuery {
  std::string test;     // Suite.test
  std::string metric;   // a counter's name, or "duration" (the median per run)
  std::string kernel;   // empty: the test's first kernel
  std::string gpu_key;  // empty: every GPU (points name theirs)
};

// A reviewer's word on a change point (history mark).
struct Mark {
  std::string test, metric, commit;
  std::string verdict;  // "intended", "regression" or "false"
  std::string note, time;
};
bool is_mark_verdict(const std::string& verdict);

class Store {
 public:
  virtual ~Store() = default;
  // Adds a run and its results in one transaction; false where a run of that key is there already.
  virtual bool append(const RunEntry& run) = 0;
  // The points of one series, oldest run first.
  virtual std::vector<SeriesPoint> series(const SeriesQuery& query) = 0;
  // The tests with results, and the metrics of one test.
  virtual std::vector<std::string> tests() = 0;
  virtual std::vector<std::string> metrics(const std::string& test) = 0;
  // Every counter of the last clean run (no uncommitted changes) of `commit` on the GPU `gpu_key`, keyed
  // "Suite.test kernel metric"; empty where there is none. What bisect takes instead of building a commit again.
  virtual std::map<std::string, double> counters_at(const std::string& commit, const std::string& gpu_key) = 0;
  virtual void add_mark(const Mark& mark) = 0;
  virtual std::vector<Mark> marks() = 0;
  virtual int runs() = 0;
  virtual std::string where() const = 0;
};

// "postgresql://..." or "postgres://...": a server; anything else: an SQLite file's path. Creates the schema in a
// new store and migrates an older one. Throws UnreachableStore or StoreError.
std::unique_ptr<Store> open_store(const std::string& location);
bool is_server_url(const std::string& location);
// A location as messages show it: a password in a URL replaced by ***.
std::string shown_location(const std::string& location);

}  // namespace bankgate::history
