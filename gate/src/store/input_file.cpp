#include <bankgate/gate/store/input_file.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <mutex>

#include <nlohmann/json.hpp>

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
  charge_input(text.size(), name);
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

namespace {

struct Spent {
  std::mutex lock;
  std::size_t bytes = 0, files = 0, samples = 0, line_figures = 0;
};
Spent& spent() {
  static Spent total;
  return total;
}

void charge(std::size_t& total, std::size_t amount, std::size_t bound, const char* what, const std::string& name) {
  total += amount;
  if (total > bound)
    throw InputFileError(name + ": reading it takes this run past the " + std::to_string(bound) + " " + what +
                         " bankgate reads in one run, far beyond any real gate's; the run's inputs are not a real "
                         "run's (a pull request's files?), and are refused");
}

}  // namespace

const RunBudget& run_budget() {
  static const RunBudget budget;
  return budget;
}

void charge_input(std::size_t bytes, const std::string& name) {
  Spent& s = spent();
  const std::lock_guard<std::mutex> held(s.lock);
  charge(s.files, 1, run_budget().files, "input files", name);
  charge(s.bytes, bytes, run_budget().bytes, "bytes of input", name);
}

void charge_figures(std::size_t samples, std::size_t line_figures, const std::string& name) {
  Spent& s = spent();
  const std::lock_guard<std::mutex> held(s.lock);
  charge(s.samples, samples, run_budget().samples, "duration samples", name);
  charge(s.line_figures, line_figures, run_budget().line_figures, "per-line figures", name);
}

nlohmann::json parse_input_json(const std::string& text, const std::string& name) {
  std::size_t depth = 0, values = 0;
  const auto bounded = [&](int, nlohmann::json::parse_event_t event, nlohmann::json&) {
    using E = nlohmann::json::parse_event_t;
    if (event == E::object_start || event == E::array_start) {
      if (++depth > max_json_depth)
        throw InputFileError(name + ": nests deeper than " + std::to_string(max_json_depth) +
                             " levels, far beyond any file bankgate writes");
    } else if (event == E::object_end || event == E::array_end) {
      --depth;
    }
    if (event != E::key && event != E::object_end && event != E::array_end && ++values > max_json_values)
      throw InputFileError(name + ": holds more than " + std::to_string(max_json_values) +
                           " values, far beyond any file bankgate writes");
    return true;
  };
  try {
    return nlohmann::json::parse(text, bounded);
  } catch (const nlohmann::json::exception& e) {
    throw InputFileError(name + " is not JSON (" + e.what() + ")");
  }
}

}  // namespace bankgate::gate
