#pragma once

#include <filesystem>
#include <functional>
#include <ostream>

namespace bankgate::gate {

// Writes `path` through a temporary file in the same folder, flushed and renamed over the target. If
// `write` throws or the stream fails, the temporary is removed and the old file is untouched. A file replaced
// keeps its permissions. `path` is replaced as it is: where it is a symbolic link, the caller resolves it first.
void write_file_atomically(const std::filesystem::path& path, const std::function<void(std::ostream&)>& write);

}  // namespace bankgate::gate
