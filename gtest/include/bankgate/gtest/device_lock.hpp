#pragma once
// One measuring process per GPU. Durations and counters are only meaningful when no other bankgate test uses
// the GPU at the same time, and CUPTI allows one profiling session per device. With a CTest resource spec
// (bankgate-resource-spec, cli/bankgate-resource-spec.sh) ctest never starts two GPU tests on one GPU; without one it ignores the tests'
// RESOURCE_GROUPS, and `ctest -j8` would start eight GPU tests on device 0 together. The device lock keeps
// that case correct: a GPU test takes an exclusive advisory lock (flock) on a file named after its GPU before
// it touches the device, and holds it until the process ends, so the others wait their turn.

#include <chrono>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>

#include <bankgate/gate/protocol/settings.hpp>

namespace bankgate::gtest {

using gate::EnvLookup;
using gate::process_environment;

class DeviceLockError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class DeviceLock {
 public:
  enum class Wait { until_free, no };

  // Opens (creating where needed) <dir>/bankgate-gpu-<key>.lock and locks it exclusively. With Wait::no,
  // returns nullopt when another open file holds the lock; with Wait::until_free, waits at most `timeout`.
  // Throws DeviceLockError when the file cannot be opened or locked (a link, FIFO or folder in its place is
  // refused, never followed or waited on) and when the wait times out, naming the file and the holder.
  static std::optional<DeviceLock> acquire(const std::filesystem::path& dir, const std::string& key, Wait wait,
                                           std::chrono::milliseconds timeout = std::chrono::seconds(240));

  // "pid 1234 on host since 2026-11-23T01:00:00Z", as the holder wrote it into the lock file.
  std::string holder() const;

  DeviceLock(DeviceLock&& other) noexcept;
  DeviceLock& operator=(DeviceLock&& other) noexcept;
  DeviceLock(const DeviceLock&) = delete;
  DeviceLock& operator=(const DeviceLock&) = delete;
  ~DeviceLock();  // releases the lock

  const std::filesystem::path& path() const { return path_; }

 private:
  DeviceLock(int fd, std::filesystem::path path) : fd_(fd), path_(std::move(path)) {}
  int fd_ = -1;
  std::filesystem::path path_;
};

// What names a GPU across processes: its PCI bus id where known ("0000:19:00.0" -> "0000-19-00.0"), since
// device ordinals differ between processes with different CUDA_VISIBLE_DEVICES; else "index-<device>".
std::string device_lock_key(int device, const std::string& pci_bus_id);
std::filesystem::path device_lock_path(const std::filesystem::path& dir, const std::string& key);
// $TMPDIR, else /tmp: the processes of one ctest run share it.
std::filesystem::path default_device_lock_dir(const EnvLookup& lookup = process_environment);

// For GateTest::SetUp: takes the lock of `device` in the default folder for the rest of the process (the
// first call; later calls only return), waiting with a message while another test holds it, then prints
// "[bankgate] measuring on device N (<pci bus id>)". Returns "N (<pci bus id>)" for the test's record.
std::string hold_device_lock(int device, const std::string& pci_bus_id, std::chrono::seconds timeout);

}  // namespace bankgate::gtest
