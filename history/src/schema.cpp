// The history store's tables (schema.hpp). Runs hold where and what was measured; results one test of a run;
// kernels each kernel of a result with its duration summary, samples and code identity; counters its counters, a
// row each, so that a series of any counter is one indexed query. Marks are reviewers' words on change points.

#include "schema.hpp"

#include <bankgate/history/entries.hpp>

#include <string>

#include <bankgate/history/store_errors.hpp>

namespace bankgate::history {
namespace {

// The key column: SQLite's rowid alias, PostgreSQL's sequence.
std::string key(Engine engine) {
  return engine == Engine::sqlite ? "id INTEGER PRIMARY KEY" : "id BIGSERIAL PRIMARY KEY";
}

std::string migration_1(Engine engine) {
  const std::string id = key(engine);
  return "CREATE TABLE runs (" + id +
         ", run_key TEXT NOT NULL UNIQUE, commit_sha TEXT NOT NULL, parent_sha TEXT NOT NULL, branch TEXT NOT NULL, "
         "dirty INTEGER NOT NULL, command TEXT NOT NULL, time TEXT NOT NULL, gpu_name TEXT NOT NULL, "
         "gpu_key TEXT NOT NULL, gpu_uuid TEXT NOT NULL, driver TEXT NOT NULL, cuda TEXT NOT NULL);"
         "CREATE INDEX runs_commit ON runs (commit_sha);"
         "CREATE TABLE results (" +
         id +
         ", run_id BIGINT NOT NULL REFERENCES runs (id), test TEXT NOT NULL, outcome TEXT NOT NULL, "
         "details TEXT NOT NULL);"
         "CREATE INDEX results_test ON results (test, run_id);"
         "CREATE TABLE kernels (" +
         id +
         ", result_id BIGINT NOT NULL REFERENCES results (id), position INTEGER NOT NULL, kernel TEXT NOT NULL, "
         "code_hash TEXT NOT NULL, median_ns DOUBLE PRECISION, p10_ns DOUBLE PRECISION, p90_ns DOUBLE PRECISION, "
         "mad_ns DOUBLE PRECISION, samples TEXT NOT NULL);"
         "CREATE INDEX kernels_result ON kernels (result_id, position);"
         "CREATE TABLE counters (kernel_id BIGINT NOT NULL REFERENCES kernels (id), metric TEXT NOT NULL, "
         "value DOUBLE PRECISION NOT NULL, PRIMARY KEY (kernel_id, metric));"
         "CREATE TABLE marks (" +
         id +
         ", test TEXT NOT NULL, metric TEXT NOT NULL, commit_sha TEXT NOT NULL, verdict TEXT NOT NULL, "
         "note TEXT NOT NULL, time TEXT NOT NULL);";
}

// Every migration, in order: the n-th brings a store from version n-1 to n. A later change of the tables is a
// new entry here, never an edit of an old one, so that every store reaches the same tables.
std::string migration(int version, Engine engine) {
  switch (version) {
    case 1:
      return migration_1(engine);
  }
  throw StoreError("no migration to history schema version " + std::to_string(version));
}

int stored_version(Connection& connection) {
  const std::vector<Row> rows = connection.query("SELECT MAX(version) FROM schema_migrations", {});
  return rows.empty() || !rows[0][0] ? 0 : std::stoi(*rows[0][0]);
}

}  // namespace

void migrate(Connection& connection) {
  WriteTransaction transaction(connection);
  // Two runners opening a new server store at once would both create its tables: the second waits here.
  if (connection.engine() == Engine::postgresql) connection.query("SELECT pg_advisory_xact_lock(4542045)", {});
  connection.execute_script(
      "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)");
  const int version = stored_version(connection);
  if (version > schema_version)
    throw StoreError("the history store " + connection.where() + " has schema version " + std::to_string(version) +
                     ", newer than this bankgate's " + std::to_string(schema_version) +
                     ": use the bankgate that wrote it (or a newer one), or give another store with --history");
  if (version == schema_version) return;  // nothing written: the transaction rolls back
  for (int next = version + 1; next <= schema_version; ++next) {
    connection.execute_script(migration(next, connection.engine()));
    connection.query("INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)",
                     {static_cast<std::int64_t>(next), utc_now()});
  }
  transaction.commit();
}

}  // namespace bankgate::history
