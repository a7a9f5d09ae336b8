#pragma once
// What the history store needs of a database, and no more: statements with '?' parameters, rows of text back,
// a transaction around an append. One implementation per engine (sqlite_connection.cpp, postgres_connection.cpp),
// so that the schema and every query of store.cpp are written once and both engines hold the same tables.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace bankgate::history {

// A parameter: NULL, a whole number, a number or text.
using Value = std::variant<std::nullptr_t, std::int64_t, double, std::string>;
// A row of a result as text, a NULL as nullopt (both engines give every value so).
using Row = std::vector<std::optional<std::string>>;

enum class Engine { sqlite, postgresql };

class Connection {
 public:
  virtual ~Connection() = default;
  virtual Engine engine() const = 0;
  // Statements without parameters, several separated by ';' (the schema).
  virtual void execute_script(const std::string& sql) = 0;
  // One statement, its parameters written '?' in order; the rows it returns.
  virtual std::vector<Row> query(const std::string& sql, const std::vector<Value>& parameters) = 0;
  // An INSERT into a table with an `id` key: the id it gave the new row.
  virtual std::int64_t insert(const std::string& sql, const std::vector<Value>& parameters) = 0;
  // A transaction that takes the write lock at once (SQLite: BEGIN IMMEDIATE), so that two appenders queue
  // instead of one failing at its first write.
  virtual void begin_writing() = 0;
  virtual void commit() = 0;
  virtual void rollback() noexcept = 0;
  // Where the store is, as messages name it (a URL without its password).
  virtual std::string where() const = 0;
};

// Opens (and creates, with its folder) an SQLite file: WAL, a busy timeout. Throws StoreError.
std::unique_ptr<Connection> open_sqlite(const std::string& path);
// Connects to a PostgreSQL server by its URL (postgresql://...). Throws StoreError; UnreachableStore where the
// server cannot be reached.
std::unique_ptr<Connection> open_postgresql(const std::string& url);

// Rolls back on leaving a scope without commit(): an append that fails leaves nothing half-written.
class WriteTransaction {
 public:
  explicit WriteTransaction(Connection& connection) : connection_(connection) { connection_.begin_writing(); }
  ~WriteTransaction() {
    if (!done_) connection_.rollback();
  }
  void commit() {
    connection_.commit();
    done_ = true;
  }
  WriteTransaction(const WriteTransaction&) = delete;
  WriteTransaction& operator=(const WriteTransaction&) = delete;

 private:
  Connection& connection_;
  bool done_ = false;
};

}  // namespace bankgate::history
