#pragma once
// Reading a file that came from outside bankgate (a baseline, a candidate, a journal, a report, a README):
// only a regular file is read (a FIFO, device or folder is refused at once, never waited on), and only up to a
// size no real input reaches (a larger one is refused, so /dev/zero or a huge file cannot exhaust memory).

#include <cstddef>
#include <filesystem>
#include <stdexcept>
#include <string>

namespace bankgate::gate {

// Far above any real baseline, report or README (the largest committed baseline is under 100 KB).
inline constexpr std::size_t max_input_bytes = std::size_t{64} << 20;

class InputFileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The whole content of `path`. Throws InputFileError naming the path and what is wrong: missing, unreadable,
// not a regular file, or larger than `max_bytes`.
std::string read_input_file(const std::filesystem::path& path, std::size_t max_bytes = max_input_bytes);

// The same for a file already opened (by openat inside a confined folder); `name` is what errors call it.
// Does not close `fd`.
std::string read_input_fd(int fd, const std::string& name, std::size_t max_bytes = max_input_bytes);

}  // namespace bankgate::gate
