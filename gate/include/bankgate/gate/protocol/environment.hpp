#pragma once
// What the settings (settings.hpp) and the run manifest (run_manifest.hpp) both speak of: how a variable is
// looked up, the error a bad value raises, and the source tree a run measures.

#include <functional>
#include <optional>
#include <stdexcept>
#include <string>

namespace bankgate::gate {

class SettingsError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

using EnvLookup = std::function<std::optional<std::string>(const std::string& name)>;

// The process's own environment, for EnvLookup.
std::optional<std::string> process_environment(const std::string& name);

// The source tree promoted baselines were measured from, for their provenance.
struct SourceTree {
  std::string commit = "unknown";  // BANKGATE_GIT_COMMIT, as given
  bool dirty = false;              // BANKGATE_GIT_DIRTY, a flag
};

}  // namespace bankgate::gate
