#pragma once
// The history store's schema: numbered migrations, each applied once and recorded in schema_migrations, in one
// transaction with the check of the store's version. Written once for both engines.

#include "connection.hpp"

namespace bankgate::history {

// Brings the store to schema_version (store.hpp). Throws StoreError for a store of a newer schema, naming both
// versions, and for one whose tables are not the history's.
void migrate(Connection& connection);

}  // namespace bankgate::history
