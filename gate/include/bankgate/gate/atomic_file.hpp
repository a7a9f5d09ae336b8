#pragma once

#include <filesystem>
#include <functional>
#include <ostream>

namespace bankgate::gate {

// Writes `path` through a temporary file in the same folder, flushed and renamed over the target. If
// `write` throws or the stream fails, the temporary is removed and the old file is untouched.
void write_file_atomically(const std::filesystem::path& path, const std::function<void(std::ostream&)>& write);

}  // namespace bankgate::gate
