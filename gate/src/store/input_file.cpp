#include <bankgate/gate/store/input_file.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>

namespace bankgate::gate {

std::string read_input_fd(int fd, const std::string& name, std::size_t max_bytes) {
  struct stat info {};
  if (::fstat(fd, &info) != 0) throw InputFileError(name + ": cannot be read: " + std::strerror(errno));
  if (!S_ISREG(info.st_mode))
    throw InputFileError(name +
                         ": is not a regular file (a folder, FIFO, socket or device is in its place); move it away");
  if (static_cast<std::uint64_t>(info.st_size) > max_bytes)
    throw InputFileError(name + ": is " + std::to_string(info.st_size) + " bytes, more than the " +
                         std::to_string(max_bytes) + " bankgate reads from one input file; it cannot be a real one");
  std::string text;
  char chunk[65536];
  for (;;) {
    const ssize_t n = ::read(fd, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw InputFileError(name + ": cannot be read: " + std::strerror(errno));
    if (n == 0) break;
    text.append(chunk, static_cast<std::size_t>(n));
    // The size can grow while it is read (a file still being written): the cap holds for what is read too.
    if (text.size() > max_bytes)
      throw InputFileError(name + ": grew beyond the " + std::to_string(max_bytes) +
                           " bytes bankgate reads from one input file");
  }
  return text;
}

std::string read_input_file(const std::filesystem::path& path, std::size_t max_bytes) {
  // O_NONBLOCK: opening a FIFO with no writer returns at once instead of waiting for one (it is refused next).
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) {
    const int error = errno;
    throw InputFileError(
        path.string() + ": " +
        (error == ENOENT ? std::string("does not exist") : "cannot be opened: " + std::string(std::strerror(error))));
  }
  try {
    std::string text = read_input_fd(fd, path.string(), max_bytes);
    ::close(fd);
    return text;
  } catch (...) {
    ::close(fd);
    throw;
  }
}

}  // namespace bankgate::gate
