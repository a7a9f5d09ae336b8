#include <bankgate/gtest/device_lock.hpp>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <iostream>
#include <thread>
#include <utility>

#include <bankgate/gate/store/candidates.hpp>
#include <bankgate/gate/reports/report.hpp>
#include <bankgate/gate/protocol/run_protocol.hpp>
#include <bankgate/gate/rules/run_provenance.hpp>

namespace bankgate::gtest {

using namespace bankgate::gate;
namespace {

std::string system_error(const std::string& what, const std::filesystem::path& path) {
  return what + " " + path.string() + ": " + std::strerror(errno);
}

// Opens the lock file for writing where we may (the holder writes who it is into it), else read-only: flock
// needs no write access, so a file another user created still locks. An existing file is opened without
// O_CREAT: with fs.protected_regular, O_CREAT on someone else's file in a sticky folder such as /tmp is refused
// even though the file exists; O_EXCL settles the race of two first users creating it at once. Never through
// a link (a dangling one would otherwise make "absent" and "exists" alternate forever), never blocking on a
// FIFO, and only a regular file is accepted.
int open_lock_file(const std::filesystem::path& path) {
  constexpr int flags = O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC;
  int fd = -1;
  for (int attempt = 0; attempt < 20 && fd < 0; ++attempt) {
    fd = ::open(path.c_str(), O_RDWR | flags);
    if (fd < 0 && (errno == EACCES || errno == EROFS)) fd = ::open(path.c_str(), O_RDONLY | flags);
    if (fd >= 0) break;
    if (errno == ELOOP)
      throw DeviceLockError(path.string() + " is a symbolic link; GPU lock files must be plain files: remove it");
    if (errno != ENOENT) throw DeviceLockError(system_error("cannot open the GPU lock file", path));
    fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_EXCL | flags, 0644);
    if (fd < 0 && errno != EEXIST) throw DeviceLockError(system_error("cannot create the GPU lock file", path));
  }
  if (fd < 0)
    throw DeviceLockError(path.string() + " keeps appearing and disappearing; cannot open it as the GPU lock");
  struct stat info {};
  if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
    ::close(fd);
    throw DeviceLockError(path.string() +
                          " is not a regular file (a FIFO, folder or device is in its place); remove it");
  }
  return fd;
}

std::string holder_of(int fd) {
  char text[256] = {};
  const ssize_t n = ::pread(fd, text, sizeof text - 1, 0);
  return n > 0 ? std::string(text, static_cast<std::size_t>(n)) : std::string("a process that did not say who it is");
}

}  // namespace

std::optional<DeviceLock> DeviceLock::acquire(const std::filesystem::path& dir, const std::string& key, Wait wait,
                                              std::chrono::milliseconds timeout) {
  const std::filesystem::path path = device_lock_path(dir, key);
  int fd = -1;
  try {
    fd = open_lock_file(path);
  } catch (const DeviceLockError& e) {
    throw DeviceLockError(std::string(e.what()) + " (GPU tests lock their GPU there; " + protocol::env::tmpdir +
                          " chooses the folder)");
  }
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    const int error = errno;
    if (error != EWOULDBLOCK && error != EINTR) {
      ::close(fd);
      errno = error;
      throw DeviceLockError(system_error("cannot lock", path));
    }
    if (wait == Wait::no) {
      ::close(fd);
      return std::nullopt;
    }
    if (std::chrono::steady_clock::now() >= deadline) {
      const std::string holder = holder_of(fd);
      ::close(fd);
      throw DeviceLockError("the GPU is still held (last recorded holder: " + holder + ") after " +
                            std::to_string(std::chrono::duration_cast<std::chrono::seconds>(timeout).count()) +
                            " s (lock " + path.string() + "); " + protocol::env::lock_timeout + " sets the wait");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  const std::string me = "pid " + std::to_string(::getpid()) + " on " + host_name() + " since " + utc_now_iso8601();
  // Only into a file of our own with one name: never empty a file another user linked here.
  struct stat info {};
  if (::fstat(fd, &info) == 0 && info.st_nlink == 1 && info.st_uid == ::geteuid() && ::ftruncate(fd, 0) == 0)
    (void)!::pwrite(fd, me.data(), me.size(), 0);
  return DeviceLock(fd, path);
}

std::string DeviceLock::holder() const { return holder_of(fd_); }

DeviceLock::DeviceLock(DeviceLock&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)), path_(std::move(other.path_)) {}

DeviceLock& DeviceLock::operator=(DeviceLock&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = std::exchange(other.fd_, -1);
    path_ = std::move(other.path_);
  }
  return *this;
}

// Closing the last descriptor of the open file releases the flock.
DeviceLock::~DeviceLock() {
  if (fd_ >= 0) ::close(fd_);
}

std::string device_lock_key(int device, const std::string& pci_bus_id) {
  if (pci_bus_id.empty()) return "index-" + std::to_string(device);
  std::string key;
  for (const unsigned char c : pci_bus_id)
    key += std::isalnum(c) || c == '.' ? static_cast<char>(std::tolower(c)) : '-';
  return key;
}

std::filesystem::path device_lock_path(const std::filesystem::path& dir, const std::string& key) {
  return dir / ("bankgate-gpu-" + key + ".lock");
}

std::filesystem::path default_device_lock_dir(const EnvLookup& lookup) { return lock_folder(lookup); }

std::string hold_device_lock(int device, const std::string& pci_bus_id, std::chrono::seconds timeout) {
  // Held until the process ends: GoogleTest runs each test of a suite binary in the same process when the
  // binary is run by hand, and the lock must cover all of them, not be retaken per test.
  static std::optional<DeviceLock> held;
  const std::string description = std::to_string(device) + (pci_bus_id.empty() ? "" : " (" + pci_bus_id + ")");
  if (held) return description;

  const std::filesystem::path dir = default_device_lock_dir();
  const std::string key = device_lock_key(device, pci_bus_id);
  held = DeviceLock::acquire(dir, key, DeviceLock::Wait::no);
  std::string waited;
  if (!held) {
    std::cout << "[bankgate] device " << description << " is in use by another bankgate test (lock "
              << device_lock_path(dir, key).string() << "); waiting for it" << std::endl;
    const auto start = std::chrono::steady_clock::now();
    held = DeviceLock::acquire(dir, key, DeviceLock::Wait::until_free, timeout);
    waited = ", after waiting " +
             format_number(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()) + " s";
  }
  std::cout << "[bankgate] measuring on device " << description << waited << std::endl;
  return description;
}

}  // namespace bankgate::gtest
