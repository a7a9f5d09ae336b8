#pragma once
// What the history store refuses with, and the schema version it writes: shared by the store (store.hpp) and the
// engines beneath it.

#include <stdexcept>

namespace bankgate::history {

// The schema this bankgate writes; a store of a later one is refused, never written.
inline constexpr int schema_version = 1;

// A store that cannot be used: damaged, of a newer schema, refused by its server. The message names the store and
// what to do.
class StoreError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};
// A store that cannot be reached at all (a server down, a folder that cannot be made).
class UnreachableStore : public StoreError {
 public:
  using StoreError::StoreError;
};

}  // namespace bankgate::history
