#pragma once
// A build folder's CMakeCache.txt, read as CMake reads it: an entry a line, KEY:TYPE=VALUE (the key in double
// quotes where it holds a colon, the value in single quotes where it begins or ends with blanks), comment lines
// starting with # or //, blank lines. For settings of a build that another build must share (compare-commits)
// and the folder a build was configured from.

#include <filesystem>
#include <map>
#include <optional>
#include <string>

namespace bankgate::cli {

struct CMakeCacheEntry {
  std::string type;  // PATH, FILEPATH, STRING, BOOL, INTERNAL, STATIC, UNINITIALIZED, ...
  std::string value;
};

class CMakeCache {
 public:
  // The cache of the build folder `build`; empty where the folder holds none (not a configured build). Throws
  // gate::InputFileError where the file is there but cannot be read (not a regular file, unreadable, huge).
  static CMakeCache of_build(const std::filesystem::path& build);
  // Entries parsed from the text of a CMakeCache.txt; lines that are no entry are passed over, as CMake does.
  static CMakeCache parse(const std::string& text);

  bool empty() const { return entries_.empty(); }
  const CMakeCacheEntry* find(const std::string& key) const;
  // The value of `key`, where it is set to something other than CMake's "not found" (empty, or ending in
  // -NOTFOUND).
  std::optional<std::string> found_value(const std::string& key) const;

 private:
  std::map<std::string, CMakeCacheEntry> entries_;
};

// The program `name` ("ctest" or "cmake") of the CMake that configured `build`, as its cache names it
// (CMAKE_CTEST_COMMAND, CMAKE_COMMAND), else `name` alone, for PATH to find: a build's own CMake, not whatever PATH
// holds first, which may be another version or a wrapper that starts Python before it (pip's cmake package: about
// 0.17 s a call on a GPU runner, more than ctest's own reading of a build's tests).
std::string build_tool(const std::filesystem::path& build, const std::string& name);

}  // namespace bankgate::cli
