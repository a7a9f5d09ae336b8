// The history store on a PostgreSQL server (connection.hpp), through libpq: the same schema and statements as
// SQLite's, '?' parameters renumbered to PostgreSQL's $1, $2, ...

#include <libpq-fe.h>

#include <cstdio>

#include <bankgate/history/store.hpp>

#include "connection.hpp"

namespace bankgate::history {
namespace {

std::string numbered_parameters(const std::string& sql) {
  std::string out;
  int n = 0;
  for (const char c : sql) {
    if (c == '?')
      out.append("$").append(std::to_string(++n));
    else
      out += c;
  }
  return out;
}

std::optional<std::string> as_text(const Value& v) {
  if (std::holds_alternative<std::int64_t>(v)) return std::to_string(std::get<std::int64_t>(v));
  if (std::holds_alternative<double>(v)) {
    char text[32];
    std::snprintf(text, sizeof text, "%.17g", std::get<double>(v));
    return std::string(text);
  }
  if (std::holds_alternative<std::string>(v)) return std::get<std::string>(v);
  return std::nullopt;
}

class PostgresConnection : public Connection {
 public:
  explicit PostgresConnection(const std::string& url) : where_(shown_location(url)) {
    // A host that does not answer is given up after 10 s unless the URL says otherwise.
    const char* keys[] = {"dbname", "connect_timeout", nullptr};
    const char* values[] = {url.c_str(), "10", nullptr};
    db_ = PQconnectdbParams(keys, values, /*expand_dbname=*/1);
    if (db_ == nullptr || PQstatus(db_) != CONNECTION_OK)
      throw UnreachableStore("the history store " + where_ + " cannot be reached: " + error() +
                             "; check the server and the URL (--history or BANKGATE_HISTORY)");
    // The server's notices ("relation ... already exists, skipping") are no news to a user.
    PQsetNoticeProcessor(
        db_, [](void*, const char*) {}, nullptr);
  }
  ~PostgresConnection() override { PQfinish(db_); }
  PostgresConnection(const PostgresConnection&) = delete;
  PostgresConnection& operator=(const PostgresConnection&) = delete;

  Engine engine() const override { return Engine::postgresql; }
  std::string where() const override { return where_; }

  void execute_script(const std::string& sql) override { check(PQexec(db_, sql.c_str())); }

  std::vector<Row> query(const std::string& sql, const std::vector<Value>& parameters) override {
    std::vector<std::optional<std::string>> texts;
    for (const Value& v : parameters) texts.push_back(as_text(v));
    std::vector<const char*> pointers;
    for (const auto& t : texts) pointers.push_back(t ? t->c_str() : nullptr);
    PGresult* result = PQexecParams(db_, numbered_parameters(sql).c_str(), static_cast<int>(pointers.size()), nullptr,
                                    pointers.data(), nullptr, nullptr, 0);
    const Owned owned{result};
    check_status(result);
    std::vector<Row> rows(static_cast<std::size_t>(PQntuples(result)));
    for (int r = 0; r < PQntuples(result); ++r)
      for (int c = 0; c < PQnfields(result); ++c)
        rows[static_cast<std::size_t>(r)].push_back(
            PQgetisnull(result, r, c) ? std::nullopt : std::optional<std::string>(PQgetvalue(result, r, c)));
    return rows;
  }

  std::int64_t insert(const std::string& sql, const std::vector<Value>& parameters) override {
    const std::vector<Row> rows = query(sql + " RETURNING id", parameters);
    if (rows.empty() || !rows[0][0]) throw StoreError("the history store " + where_ + " gave no id for a new row");
    return std::stoll(*rows[0][0]);
  }

  void begin_writing() override { execute_script("BEGIN"); }
  void commit() override { execute_script("COMMIT"); }
  void rollback() noexcept override { PQclear(PQexec(db_, "ROLLBACK")); }

 private:
  struct Owned {
    PGresult* result;
    ~Owned() { PQclear(result); }
  };

  std::string error() const {
    std::string text = db_ == nullptr ? "out of memory" : PQerrorMessage(db_);
    while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
    return text;
  }

  void check(PGresult* result) {
    const Owned owned{result};
    check_status(result);
  }

  void check_status(PGresult* result) const {
    const ExecStatusType status = PQresultStatus(result);
    if (status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK) return;
    if (PQstatus(db_) != CONNECTION_OK) throw UnreachableStore("the history store " + where_ + " was lost: " + error());
    throw StoreError("the history store " + where_ + ": " + error());
  }

  std::string where_;
  PGconn* db_ = nullptr;
};

}  // namespace

std::unique_ptr<Connection> open_postgresql(const std::string& url) {
  return std::make_unique<PostgresConnection>(url);
}

}  // namespace bankgate::history
