// Built where CMake found no SQLite: an SQLite history store is refused with what to install; the gate's verdicts
// are untouched, and a run keeps what it could not append for a later `bankgate history import`.

#include <bankgate/history/store_errors.hpp>

#include "connection.hpp"

namespace bankgate::history {

std::unique_ptr<Connection> open_sqlite(const std::string&) {
  throw UnreachableStore(
      "this bankgate was built without SQLite, so it keeps no history in SQLite files: install SQLite (apt-get "
      "install libsqlite3-dev), configure and build again, or give a PostgreSQL store with --history, or turn "
      "history off with --history off");
}

}  // namespace bankgate::history
