// The GPU lock that keeps two test processes from measuring on one GPU at once: a second holder of the same
// key waits (another process) or is refused (a second open file in this process) until the first lets go.

#include <gtest/gtest.h>

#include <poll.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <optional>
#include <string>

#include <bankgate/gtest/device_lock.hpp>

namespace {

using namespace bankgate::gate;
using namespace bankgate::gtest;
namespace fs = std::filesystem;

class DeviceLockTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (fs::temp_directory_path() / "bankgate-device-lock.XXXXXX").string();
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

// True when `fd` becomes readable within `milliseconds`.
bool readable_within(int fd, int milliseconds) {
  pollfd p{fd, POLLIN, 0};
  return ::poll(&p, 1, milliseconds) == 1;
}

TEST_F(DeviceLockTest, SecondHolderOfTheSameKeyIsRefusedUntilTheFirstLetsGo) {
  std::optional<DeviceLock> first = DeviceLock::acquire(dir_, "0000-19-00.0", DeviceLock::Wait::no);
  ASSERT_TRUE(first.has_value());
  EXPECT_TRUE(fs::exists(first->path()));
  // A second open file in the same process is another holder for flock, as another process would be.
  EXPECT_FALSE(DeviceLock::acquire(dir_, "0000-19-00.0", DeviceLock::Wait::no).has_value());
  first.reset();
  EXPECT_TRUE(DeviceLock::acquire(dir_, "0000-19-00.0", DeviceLock::Wait::no).has_value());
}

TEST_F(DeviceLockTest, DifferentGpusDoNotWaitForEachOther) {
  const auto gpu0 = DeviceLock::acquire(dir_, device_lock_key(0, "0000:19:00.0"), DeviceLock::Wait::no);
  const auto gpu1 = DeviceLock::acquire(dir_, device_lock_key(1, "0000:3B:00.0"), DeviceLock::Wait::no);
  EXPECT_TRUE(gpu0.has_value());
  EXPECT_TRUE(gpu1.has_value());
}

// Another process asking for a held GPU blocks until the holder releases it, then gets it. The other process
// is forked before the lock is taken: a child forked later would inherit the holder's open file, and with it
// the lock, which would then outlive the holder's release.
TEST_F(DeviceLockTest, AnotherProcessWaitsUntilTheHolderReleases) {
  int go[2], got[2];
  ASSERT_EQ(::pipe(go), 0);
  ASSERT_EQ(::pipe(got), 0);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    ::close(go[1]);
    ::close(got[0]);
    char signal = 0;
    if (::read(go[0], &signal, 1) != 1) ::_exit(1);  // after this, the parent holds the lock
    try {
      const auto mine = DeviceLock::acquire(dir_, "gpu", DeviceLock::Wait::until_free);
      ::_exit(::write(got[1], "L", 1) == 1 ? 0 : 1);
    } catch (...) {
      ::_exit(1);
    }
  }
  ::close(go[0]);
  ::close(got[1]);
  std::optional<DeviceLock> held = DeviceLock::acquire(dir_, "gpu", DeviceLock::Wait::no);
  EXPECT_TRUE(held.has_value());
  ASSERT_EQ(::write(go[1], "G", 1), 1);
  EXPECT_FALSE(readable_within(got[0], 300)) << "the other process took the lock while it was held";
  held.reset();
  EXPECT_TRUE(readable_within(got[0], 10000)) << "the other process did not get the lock after its release";
  ::close(go[1]);
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  ::close(got[0]);
}

// A test process that crashes or exits while holding its GPU does not leave it locked.
TEST_F(DeviceLockTest, ProcessExitReleasesTheLock) {
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    try {
      static auto mine = DeviceLock::acquire(dir_, "gpu", DeviceLock::Wait::until_free);
      ::_exit(mine ? 0 : 1);  // exits holding it: no destructor runs
    } catch (...) {
      ::_exit(1);
    }
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  EXPECT_TRUE(DeviceLock::acquire(dir_, "gpu", DeviceLock::Wait::no).has_value());
}

TEST_F(DeviceLockTest, UnwritableFolderIsAnErrorNamingTheFile) {
  try {
    DeviceLock::acquire(dir_ / "missing", "gpu", DeviceLock::Wait::no);
    ADD_FAILURE() << "no error for a folder that does not exist";
  } catch (const DeviceLockError& e) {
    EXPECT_NE(std::string(e.what()).find((dir_ / "missing" / "bankgate-gpu-gpu.lock").string()), std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("TMPDIR"), std::string::npos) << e.what();
  }
}

// The message of the DeviceLockError that acquiring must raise, within a deadline: a hang fails the test.
std::string lock_refusal(const fs::path& dir, const std::string& key) {
  try {
    DeviceLock::acquire(dir, key, DeviceLock::Wait::until_free, std::chrono::milliseconds(200));
  } catch (const DeviceLockError& e) {
    return e.what();
  }
  ADD_FAILURE() << "the lock was taken";
  return {};
}

// A dangling link made opening give "absent" and creating give "exists", and the loop spun forever.
TEST_F(DeviceLockTest, DanglingLinkInPlaceOfTheLockIsRefusedAtOnce) {
  fs::create_symlink(dir_ / "nowhere", device_lock_path(dir_, "gpu"));
  const auto start = std::chrono::steady_clock::now();
  EXPECT_NE(lock_refusal(dir_, "gpu").find("is a symbolic link"), std::string::npos);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
}

// Opening a FIFO for reading blocks until a writer comes, which none does.
TEST_F(DeviceLockTest, FifoInPlaceOfTheLockIsRefusedAtOnce) {
  ASSERT_EQ(::mkfifo(device_lock_path(dir_, "gpu").c_str(), 0644), 0);
  const auto start = std::chrono::steady_clock::now();
  EXPECT_NE(lock_refusal(dir_, "gpu").find("is not a regular file"), std::string::npos);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
}

TEST_F(DeviceLockTest, WaitingEndsAfterTheTimeoutNamingTheHolder) {
  const auto held = DeviceLock::acquire(dir_, "gpu", DeviceLock::Wait::no);
  ASSERT_TRUE(held.has_value());
  EXPECT_NE(held->holder().find("pid " + std::to_string(::getpid())), std::string::npos) << held->holder();
  const auto start = std::chrono::steady_clock::now();
  const std::string message = lock_refusal(dir_, "gpu");
  EXPECT_GE(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(200));
  EXPECT_NE(message.find("last recorded holder: pid " + std::to_string(::getpid())), std::string::npos) << message;
  EXPECT_NE(message.find("BANKGATE_LOCK_TIMEOUT"), std::string::npos) << message;
}

TEST(DeviceLockKey, NamesTheGpuByPciBusIdElseByIndex) {
  EXPECT_EQ(device_lock_key(0, "0000:19:00.0"), "0000-19-00.0");
  EXPECT_EQ(device_lock_key(3, "00000000:3B:00.0"), "00000000-3b-00.0");
  EXPECT_EQ(device_lock_key(2, ""), "index-2");
  EXPECT_EQ(device_lock_path("/tmp", "index-2"), fs::path("/tmp/bankgate-gpu-index-2.lock"));
}

TEST(DeviceLockKey, FolderIsTmpdirElseTmp) {
  const auto lookup = [](std::map<std::string, std::string> environment) {
    return [environment](const std::string& name) -> std::optional<std::string> {
      const auto it = environment.find(name);
      return it == environment.end() ? std::nullopt : std::optional<std::string>(it->second);
    };
  };
  EXPECT_EQ(default_device_lock_dir(lookup({})), fs::path("/tmp"));
  EXPECT_EQ(default_device_lock_dir(lookup({{"TMPDIR", ""}})), fs::path("/tmp"));
  EXPECT_EQ(default_device_lock_dir(lookup({{"TMPDIR", "/scratch/ci"}})), fs::path("/scratch/ci"));
}

}  // namespace
