// Built where CMake found no libpq: a postgresql:// store is refused with what to install, and SQLite stays.

#include <bankgate/history/store_errors.hpp>

#include "connection.hpp"

namespace bankgate::history {

std::unique_ptr<Connection> open_postgresql(const std::string&) {
  throw UnreachableStore(
      "this bankgate was built without libpq, so it cannot reach a PostgreSQL history store: install libpq "
      "(apt-get install libpq-dev), configure and build again, or give an SQLite file with --history");
}

}  // namespace bankgate::history
