#include <bankgate/gtest/device_lock.hpp>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <iostream>
#include <utility>

#include <bankgate/gate/report.hpp>

namespace bankgate::gtest {

using namespace bankgate::gate;
namespace {

std::string system_error(const std::string& what, const std::filesystem::path& path) {
  return what + " " + path.string() + ": " + std::strerror(errno);
}

// Opens the lock file read-only (flock needs no write access, so a file another user created still locks).
// An existing file is opened without O_CREAT: with fs.protected_regular, O_CREAT on someone else's file in a
// sticky folder such as /tmp is refused even though the file exists. O_EXCL settles the race of two first
// users creating it at once.
int open_lock_file(const std::filesystem::path& path) {
  for (;;) {
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd >= 0 || errno != ENOENT) return fd;
    fd = ::open(path.c_str(), O_RDONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd >= 0 || errno != EEXIST) return fd;
  }
}

}  // namespace

std::optional<DeviceLock> DeviceLock::acquire(const std::filesystem::path& dir, const std::string& key, Wait wait) {
  const std::filesystem::path path = device_lock_path(dir, key);
  const int fd = open_lock_file(path);
  if (fd < 0)
    throw DeviceLockError(system_error("cannot open the GPU lock file", path) +
                          " (GPU tests lock their GPU there; set TMPDIR to a writable folder)");
  const int operation = LOCK_EX | (wait == Wait::no ? LOCK_NB : 0);
  while (::flock(fd, operation) != 0) {
    if (errno == EINTR) continue;
    const int error = errno;
    ::close(fd);
    if (error == EWOULDBLOCK && wait == Wait::no) return std::nullopt;
    errno = error;
    throw DeviceLockError(system_error("cannot lock", path));
  }
  return DeviceLock(fd, path);
}

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

std::filesystem::path default_device_lock_dir(const EnvLookup& lookup) {
  const auto tmpdir = lookup("TMPDIR");
  return tmpdir && !tmpdir->empty() ? std::filesystem::path(*tmpdir) : std::filesystem::path("/tmp");
}

std::string hold_device_lock(int device, const std::string& pci_bus_id) {
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
    held = DeviceLock::acquire(dir, key, DeviceLock::Wait::until_free);
    waited = ", after waiting " +
             format_number(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()) + " s";
  }
  std::cout << "[bankgate] measuring on device " << description << waited << std::endl;
  return description;
}

}  // namespace bankgate::gtest
