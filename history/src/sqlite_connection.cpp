// The history store on SQLite (connection.hpp): one file, WAL so that readers never wait on an appender, and a busy
// timeout so that a second appender waits for the first instead of failing.

#include <sqlite3.h>

#include <chrono>
#include <filesystem>
#include <map>
#include <thread>

#include <bankgate/history/store_errors.hpp>

#include "connection.hpp"

namespace bankgate::history {
namespace {

// How long an appender waits for another's transaction: a gate's append takes milliseconds, a history import
// of many runs seconds.
constexpr int busy_timeout_ms = 60000;

class SqliteConnection : public Connection {
 public:
  explicit SqliteConnection(std::string path) : path_(std::move(path)) {}
  ~SqliteConnection() override {
    for (auto& [sql, statement] : statements_) sqlite3_finalize(statement);
    sqlite3_close(db_);
  }
  SqliteConnection(const SqliteConnection&) = delete;
  SqliteConnection& operator=(const SqliteConnection&) = delete;

  void open() {
    if (sqlite3_open_v2(path_.c_str(), &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX,
                        nullptr) != SQLITE_OK)
      throw UnreachableStore("the history store " + path_ + " cannot be opened: " + message() +
                             "; give a writable path with --history or BANKGATE_HISTORY");
    sqlite3_busy_timeout(db_, busy_timeout_ms);
    // Checked here: a file that is no database says so at its first read, not at a later append.
    execute_waiting("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON");
  }

  Engine engine() const override { return Engine::sqlite; }
  std::string where() const override { return path_; }

  void execute_script(const std::string& sql) override {
    char* error = nullptr;
    if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &error) != SQLITE_OK) {
      const std::string what = error != nullptr ? error : message();
      sqlite3_free(error);
      fail(what);
    }
  }

  // A statement that takes the store's lock before anything is read or written (a write transaction's start, the
  // journal mode), tried again until the busy timeout has passed: SQLite can answer SQLITE_BUSY at once, without
  // its busy handler, while another process is switching a new store to WAL or recovering it (seen when two
  // imports into one new store started together on a loaded machine).
  void execute_waiting(const std::string& sql) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(busy_timeout_ms);
    for (;;) {
      const int status = sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, nullptr);
      if (status == SQLITE_OK) return;
      const int primary = status & 0xff;
      if ((primary != SQLITE_BUSY && primary != SQLITE_LOCKED) || std::chrono::steady_clock::now() >= deadline) {
        execute_script(sql);  // once more, for the error it reports
        return;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  }

  std::vector<Row> query(const std::string& sql, const std::vector<Value>& parameters) override {
    sqlite3_stmt* statement = prepared(sql);
    bind(statement, parameters);
    std::vector<Row> rows;
    int status = SQLITE_ROW;
    while ((status = sqlite3_step(statement)) == SQLITE_ROW) {
      Row row;
      for (int i = 0; i < sqlite3_column_count(statement); ++i) {
        const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(statement, i));
        row.push_back(text == nullptr ? std::nullopt : std::optional<std::string>(text));
      }
      rows.push_back(std::move(row));
    }
    sqlite3_reset(statement);
    if (status != SQLITE_DONE) fail(message());
    return rows;
  }

  std::int64_t insert(const std::string& sql, const std::vector<Value>& parameters) override {
    query(sql, parameters);
    return sqlite3_last_insert_rowid(db_);
  }

  void begin_writing() override { execute_waiting("BEGIN IMMEDIATE"); }
  void commit() override { execute_script("COMMIT"); }
  void rollback() noexcept override { sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr); }

 private:
  std::string message() const { return db_ == nullptr ? "out of memory" : sqlite3_errmsg(db_); }

  [[noreturn]] void fail(const std::string& what) const {
    const int code = db_ == nullptr ? SQLITE_NOMEM : sqlite3_errcode(db_);
    if (code == SQLITE_NOTADB || code == SQLITE_CORRUPT)
      throw StoreError("the history store " + path_ + " is damaged (" + what +
                       "): move it aside and start a new one, or give another with --history");
    if (code == SQLITE_BUSY || code == SQLITE_LOCKED)
      throw StoreError("the history store " + path_ + " stayed locked by another appender for " +
                       std::to_string(busy_timeout_ms / 1000) + " s (" + what + ")");
    throw StoreError("the history store " + path_ + ": " + what);
  }

  // Statements are prepared once per connection: an append runs the same few thousands of times.
  sqlite3_stmt* prepared(const std::string& sql) {
    if (const auto it = statements_.find(sql); it != statements_.end()) return it->second;
    sqlite3_stmt* statement = nullptr;
    if (sqlite3_prepare_v2(db_, sql.c_str(), static_cast<int>(sql.size()), &statement, nullptr) != SQLITE_OK)
      fail(message());
    statements_.emplace(sql, statement);
    return statement;
  }

  void bind(sqlite3_stmt* statement, const std::vector<Value>& parameters) {
    for (std::size_t i = 0; i < parameters.size(); ++i) {
      const int at = static_cast<int>(i) + 1;
      const Value& v = parameters[i];
      if (std::holds_alternative<std::int64_t>(v))
        sqlite3_bind_int64(statement, at, std::get<std::int64_t>(v));
      else if (std::holds_alternative<double>(v))
        sqlite3_bind_double(statement, at, std::get<double>(v));
      else if (std::holds_alternative<std::string>(v)) {
        const std::string& text = std::get<std::string>(v);
        sqlite3_bind_text(statement, at, text.c_str(), static_cast<int>(text.size()), SQLITE_TRANSIENT);
      } else
        sqlite3_bind_null(statement, at);
    }
  }

  std::string path_;
  sqlite3* db_ = nullptr;
  std::map<std::string, sqlite3_stmt*> statements_;
};

}  // namespace

std::unique_ptr<Connection> open_sqlite(const std::string& path) {
  std::error_code ec;
  const std::filesystem::path folder = std::filesystem::path(path).parent_path();
  if (!folder.empty()) std::filesystem::create_directories(folder, ec);
  if (ec)
    throw UnreachableStore("the history store's folder " + folder.string() + " cannot be made: " + ec.message() +
                           "; give a writable path with --history or BANKGATE_HISTORY");
  auto connection = std::make_unique<SqliteConnection>(path);
  connection->open();
  return connection;
}

}  // namespace bankgate::history
