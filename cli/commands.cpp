// What the subcommands share (commands.hpp): writing outputs, this program's path, the refusal to change baselines
// in CI, and what a build folder says of its sources.

#include "commands.hpp"

#include <iostream>

#include <nlohmann/json.hpp>

#include <bankgate/gate/store/atomic_file.hpp>
#include <bankgate/gate/store/input_file.hpp>
#include <bankgate/gate/reports/output_json.hpp>
#include <bankgate/gate/protocol/settings.hpp>

#include "cmake_cache.hpp"

namespace bankgate::cli {

namespace fs = std::filesystem;
namespace g = bankgate::gate;

// "-" is standard output (the data alone there: main() sends the human text to standard error then).
void write_text(const fs::path& path, const std::string& text) {
  if (path.empty()) return;
  if (path == "-") {
    std::ostream data(standard_output());
    data << text << std::flush;
    return;
  }
  g::write_file_atomically(path, [&](std::ostream& out) { out << text; });
}

// Report data as JSON text (json_text: a byte of a name or message that is not UTF-8 becomes U+FFFD).
void write_json(const fs::path& path, const nlohmann::json& data) { write_text(path, g::json_text(data) + "\n"); }

std::streambuf*& standard_output() {
  static std::streambuf* buffer = std::cout.rdbuf();
  return buffer;
}

// Read once, at start-up (main asks first): a gate or refresh of a project that builds bankgate itself replaces
// this executable while it runs, after which the link reads "<path> (deleted)"; the path is what users run.
std::string this_command() {
  static const std::string command = [] {
    std::error_code ec;
    std::string self = fs::read_symlink("/proc/self/exe", ec).string();
    if (self.ends_with(" (deleted)")) self.resize(self.size() - std::string_view(" (deleted)").size());
    return ec || self.empty() ? std::string("bankgate") : self;
  }();
  return command;
}

void refuse_in_ci(bool force, bool dry_run) {
  bool in_ci = false;
  try {
    in_ci = g::running_in_ci(g::process_environment);
  } catch (const g::SettingsError& e) {  // as ci/lib.sh's bankgate_is_ci: neither side guesses
    throw Refusal(std::string(e.what()) + ": refusing to guess whether this is CI, where baselines must not change");
  }
  if (in_ci && !force && !dry_run)
    throw Refusal("refusing to change baselines in CI (" + std::string(g::protocol::env::ci) +
                  " is set): baselines change after a person reviews the table. Run the refresh on a GPU machine, "
                  "review, commit; --force overrides");
}

fs::path configured_source_dir(const fs::path& build) {
  if (build.empty()) return {};
  try {
    return CMakeCache::of_build(build).found_value("CMAKE_HOME_DIRECTORY").value_or("");
  } catch (const g::InputFileError&) {
    return {};  // an unreadable cache says nothing of the sources
  }
}

std::string source_url_template(const std::string& option) {
  if (!option.empty()) return option;
  return g::source_url_template(g::process_environment).value_or("");
}

}  // namespace bankgate::cli
