#include "cmake_cache.hpp"

#include <sstream>

#include <bankgate/gate/store/input_file.hpp>

namespace bankgate::cli {
namespace {

std::string without_trailing_blanks(std::string text) {
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r')) text.pop_back();
  return text;
}

// One line as an entry, or nothing for a comment, a blank line or a line that is no entry.
std::optional<std::pair<std::string, CMakeCacheEntry>> parse_line(const std::string& raw) {
  const std::string line = without_trailing_blanks(raw);
  if (line.empty() || line.starts_with("#") || line.starts_with("//")) return std::nullopt;
  std::string key;
  std::size_t rest = 0;
  if (line.front() == '"') {  // "KEY":TYPE=VALUE, for a key with a colon in it
    const std::size_t close = line.find('"', 1);
    if (close == std::string::npos) return std::nullopt;
    key = line.substr(1, close - 1);
    rest = close + 1;
  } else {
    rest = line.find_first_of(":=");
    if (rest == std::string::npos) return std::nullopt;
    key = line.substr(0, rest);
  }
  CMakeCacheEntry entry;
  if (rest < line.size() && line[rest] == ':') {
    const std::size_t equals = line.find('=', rest);
    if (equals == std::string::npos) return std::nullopt;
    entry.type = line.substr(rest + 1, equals - rest - 1);
    rest = equals;
  }
  if (rest >= line.size() || line[rest] != '=' || key.empty()) return std::nullopt;
  entry.value = line.substr(rest + 1);
  if (entry.value.size() >= 2 && entry.value.front() == '\'' && entry.value.back() == '\'')
    entry.value = entry.value.substr(1, entry.value.size() - 2);  // kept blanks at either end
  return std::pair{key, entry};
}

}  // namespace

CMakeCache CMakeCache::of_build(const std::filesystem::path& build) {
  const std::filesystem::path file = build / "CMakeCache.txt";
  std::error_code ec;
  if (!std::filesystem::exists(std::filesystem::symlink_status(file, ec))) return {};
  return parse(gate::read_input_file(file));
}

CMakeCache CMakeCache::parse(const std::string& text) {
  CMakeCache cache;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);)
    if (auto entry = parse_line(line)) cache.entries_[entry->first] = std::move(entry->second);
  return cache;
}

const CMakeCacheEntry* CMakeCache::find(const std::string& key) const {
  const auto at = entries_.find(key);
  return at == entries_.end() ? nullptr : &at->second;
}

std::optional<std::string> CMakeCache::found_value(const std::string& key) const {
  const CMakeCacheEntry* entry = find(key);
  if (entry == nullptr || entry->value.empty() || entry->value.ends_with("-NOTFOUND")) return std::nullopt;
  return entry->value;
}

std::string build_tool(const std::filesystem::path& build, const std::string& name) {
  const std::string key = name == "ctest" ? "CMAKE_CTEST_COMMAND" : "CMAKE_COMMAND";
  try {
    const std::optional<std::string> path = CMakeCache::of_build(build).found_value(key);
    std::error_code ec;
    if (path && std::filesystem::path(*path).is_absolute() && std::filesystem::is_regular_file(*path, ec)) return *path;
  } catch (const std::exception&) {  // an unreadable cache: the commands that need it say so
  }
  return name;
}

}  // namespace bankgate::cli
