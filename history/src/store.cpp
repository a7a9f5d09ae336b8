// The history store over either engine (store.hpp): appends, series and marks, each statement written once.

#include <bankgate/history/store.hpp>

#include <chrono>
#include <ctime>
#include <regex>

#include <nlohmann/json.hpp>

#include "connection.hpp"
#include "schema.hpp"

namespace bankgate::history {
namespace {

std::optional<double> number(const std::optional<std::string>& text) {
  if (!text) return std::nullopt;
  return std::stod(*text);
}

Value maybe(const std::optional<double>& v) { return v ? Value(*v) : Value(nullptr); }

std::string text(const std::optional<std::string>& v) { return v.value_or(""); }

// Counters of one kernel in one statement: an append of a 66-test gate is then a few hundred statements, not
// thousands (each a round trip to a server).
void insert_counters(Connection& c, std::int64_t kernel_id, const std::map<std::string, double>& counters) {
  if (counters.empty()) return;
  std::string sql = "INSERT INTO counters (kernel_id, metric, value) VALUES ";
  std::vector<Value> parameters;
  for (const auto& [metric, value] : counters) {
    sql += parameters.empty() ? "(?, ?, ?)" : ", (?, ?, ?)";
    parameters.insert(parameters.end(), {kernel_id, metric, value});
  }
  c.query(sql, parameters);
}

void insert_test(Connection& c, std::int64_t run_id, const TestEntry& test) {
  const std::int64_t result_id =
      c.insert("INSERT INTO results (run_id, test, outcome, details) VALUES (?, ?, ?, ?)",
               {run_id, test.test, test.outcome, test.details_json.empty() ? std::string("{}") : test.details_json});
  std::int64_t position = 0;
  for (const KernelEntry& k : test.kernels) {
    const std::int64_t kernel_id = c.insert(
        "INSERT INTO kernels (result_id, position, kernel, code_hash, median_ns, p10_ns, p90_ns, mad_ns, samples) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        {result_id, position++, k.kernel, k.code_hash, maybe(k.median_ns), maybe(k.p10_ns), maybe(k.p90_ns),
         maybe(k.mad_ns), nlohmann::json(k.samples_ns).dump()});
    insert_counters(c, kernel_id, k.counters);
  }
}

std::int64_t insert_run(Connection& c, const RunInfo& r) {
  return c.insert(
      "INSERT INTO runs (run_key, commit_sha, parent_sha, branch, dirty, command, time, gpu_name, gpu_key, gpu_uuid, "
      "driver, cuda) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
      {r.key, r.commit, r.parent, r.branch, static_cast<std::int64_t>(r.dirty), r.command, r.time, r.runner.gpu_name,
       r.runner.gpu_key, r.runner.gpu_uuid, r.runner.driver, r.runner.cuda});
}

// The columns every series query reads, and the joins from a result to its run and kernel.
constexpr char series_head[] = "SELECT r.id, r.commit_sha, r.parent_sha, r.time, r.gpu_key, k.kernel, k.code_hash, ";
constexpr char series_joins[] = " FROM results s JOIN runs r ON r.id = s.run_id JOIN kernels k ON k.result_id = s.id";

SeriesPoint point_of(const Row& row) {
  SeriesPoint p;
  p.run_id = std::stoll(text(row[0]));
  p.commit = text(row[1]);
  p.parent = text(row[2]);
  p.time = text(row[3]);
  p.gpu_key = text(row[4]);
  p.kernel = text(row[5]);
  p.code_hash = text(row[6]);
  p.value = number(row[7]).value_or(0.0);
  if (row.size() > 8) {
    p.p10_ns = number(row[8]);
    p.p90_ns = number(row[9]);
  }
  return p;
}

class SqlStore : public Store {
 public:
  explicit SqlStore(std::unique_ptr<Connection> c) : c_(std::move(c)) { migrate(*c_); }

  bool append(const RunEntry& run) override {
    WriteTransaction transaction(*c_);
    if (!c_->query("SELECT id FROM runs WHERE run_key = ?", {run.run.key}).empty()) return false;
    const std::int64_t run_id = insert_run(*c_, run.run);
    for (const TestEntry& test : run.tests) insert_test(*c_, run_id, test);
    transaction.commit();
    return true;
  }

  std::vector<SeriesPoint> series(const SeriesQuery& q) override {
    const bool duration = q.metric == "duration";
    std::string sql = std::string(series_head) +
                      (duration ? "k.median_ns, k.p10_ns, k.p90_ns" + std::string(series_joins) +
                                      " WHERE s.test = ? AND k.median_ns IS NOT NULL"
                                : "c.value" + std::string(series_joins) +
                                      " JOIN counters c ON c.kernel_id = k.id WHERE s.test = ? AND c.metric = ?");
    std::vector<Value> parameters{q.test};
    if (!duration) parameters.push_back(q.metric);
    sql += q.kernel.empty() ? " AND k.position = 0" : " AND k.kernel = ?";
    if (!q.kernel.empty()) parameters.push_back(q.kernel);
    if (!q.gpu_key.empty()) {
      sql += " AND r.gpu_key = ?";
      parameters.push_back(q.gpu_key);
    }
    std::vector<SeriesPoint> points;
    for (const Row& row : c_->query(sql + " ORDER BY r.id", parameters)) points.push_back(point_of(row));
    return points;
  }

  std::vector<std::string> tests() override { return column("SELECT DISTINCT test FROM results ORDER BY test", {}); }

  std::vector<std::string> metrics(const std::string& test) override {
    return column(
        "SELECT DISTINCT c.metric FROM results s JOIN kernels k ON k.result_id = s.id JOIN counters c ON "
        "c.kernel_id = k.id WHERE s.test = ? ORDER BY c.metric",
        {test});
  }

  std::map<std::string, double> counters_at(const std::string& commit, const std::string& gpu_key) override {
    std::map<std::string, double> out;
    for (const Row& row : c_->query(
             "SELECT s.test, k.kernel, c.metric, c.value FROM results s JOIN kernels k ON k.result_id = s.id JOIN "
             "counters c ON c.kernel_id = k.id WHERE s.run_id = (SELECT MAX(id) FROM runs WHERE commit_sha = ? AND "
             "gpu_key = ? AND dirty = 0)",
             {commit, gpu_key}))
      out[text(row[0]) + " " + text(row[1]) + " " + text(row[2])] = number(row[3]).value_or(0.0);
    return out;
  }

  void add_mark(const Mark& m) override {
    WriteTransaction transaction(*c_);
    c_->insert("INSERT INTO marks (test, metric, commit_sha, verdict, note, time) VALUES (?, ?, ?, ?, ?, ?)",
               {m.test, m.metric, m.commit, m.verdict, m.note, m.time.empty() ? utc_now() : m.time});
    transaction.commit();
  }

  std::vector<Mark> marks() override {
    std::vector<Mark> out;
    for (const Row& row : c_->query("SELECT test, metric, commit_sha, verdict, note, time FROM marks ORDER BY id", {}))
      out.push_back({text(row[0]), text(row[1]), text(row[2]), text(row[3]), text(row[4]), text(row[5])});
    return out;
  }

  int runs() override {
    const std::vector<Row> rows = c_->query("SELECT COUNT(*) FROM runs", {});
    return rows.empty() ? 0 : std::stoi(text(rows[0][0]));
  }

  std::string where() const override { return c_->where(); }

 private:
  std::vector<std::string> column(const std::string& sql, const std::vector<Value>& parameters) {
    std::vector<std::string> out;
    for (const Row& row : c_->query(sql, parameters)) out.push_back(text(row[0]));
    return out;
  }

  std::unique_ptr<Connection> c_;
};

}  // namespace

std::string utc_now() {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

bool is_server_url(const std::string& location) {
  return location.starts_with("postgresql://") || location.starts_with("postgres://");
}

std::string shown_location(const std::string& location) {
  static const std::regex password(R"(^([a-z]+://[^:/@]*):[^@/]*@)");
  return std::regex_replace(location, password, "$1:***@");
}

bool is_mark_verdict(const std::string& verdict) {
  return verdict == "intended" || verdict == "regression" || verdict == "false";
}

std::unique_ptr<Store> open_store(const std::string& location) {
  if (location.empty()) throw StoreError("no history store given: a path or a postgresql:// URL");
  return std::make_unique<SqlStore>(is_server_url(location) ? open_postgresql(location) : open_sqlite(location));
}

}  // namespace bankgate::history
