#include <bankgate/gate/store/atomic_file.hpp>

#include <unistd.h>

#include <fstream>
#include <stdexcept>
#include <system_error>

namespace bankgate::gate {

void write_file_atomically(const std::filesystem::path& path, const std::function<void(std::ostream&)>& write) {
  namespace fs = std::filesystem;
  if (path.has_parent_path()) fs::create_directories(path.parent_path());
  const fs::path temporary = path.string() + ".tmp." + std::to_string(::getpid());
  try {
    {
      std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
      if (!out) throw std::runtime_error("cannot create " + temporary.string());
      write(out);
      out.flush();
      if (!out) throw std::runtime_error("writing " + temporary.string() + " failed (disk full?)");
    }
    // A file replaced keeps its permissions (a README of mode 600 stays 600).
    std::error_code missing;
    const fs::file_status before = fs::status(path, missing);
    if (!missing && fs::is_regular_file(before)) fs::permissions(temporary, before.permissions());
    fs::rename(temporary, path);  // atomic on POSIX within one file system
  } catch (...) {
    std::error_code ignored;
    fs::remove(temporary, ignored);
    throw;
  }
}

}  // namespace bankgate::gate
