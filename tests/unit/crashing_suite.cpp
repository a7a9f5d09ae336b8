// A suite for the suite runner's own test (run_suite_test.sh): no GPU, one test that crashes or hangs its process
// between two that pass and one that fails, built with bankgate's main() like every GPU suite.

#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <thread>

#include <bankgate/gate/protocol/settings.hpp>
#include <bankgate/gtest/suite_config.hpp>

bankgate::gtest::SuiteConfig bankgate::gtest::suite_config() { return {}; }

// CRASHING_SUITE_DELAY_MS makes each test take that long, so that two shards started together both take some.
void take_time() {
  if (const char* ms = std::getenv("CRASHING_SUITE_DELAY_MS"))
    std::this_thread::sleep_for(std::chrono::milliseconds(std::atoi(ms)));
}

TEST(Crashing, First) {
  take_time();
  RecordProperty("median_ns", "1000");
}
TEST(Crashing, Crashes) {
  take_time();
  if (std::getenv("CRASHING_SUITE_CRASH")) std::raise(SIGSEGV);
  // A hang: longer than any test timeout the runner's test gives, shorter than ctest's limit on that test.
  if (std::getenv("CRASHING_SUITE_HANG")) std::this_thread::sleep_for(std::chrono::seconds(100));
}
TEST(Crashing, Fails) {
  take_time();
  ADD_FAILURE() << "a plain failure";
}
TEST(Crashing, Skips) {
  take_time();
  GTEST_SKIP() << "no GPU: a reason";
}
// What the runner showed the process of its GPU, for the test of the runner's device choice, and what
// bankgate's main() set before CUDA starts; the device the settings choose from all that.
TEST(Crashing, Last) {
  take_time();
  for (const char* name : {"CUDA_VISIBLE_DEVICES", "CUDA_DEVICE_MAX_CONNECTIONS"})
    if (const char* value = std::getenv(name)) RecordProperty(name, value);
  const auto settings = bankgate::gate::load_settings(bankgate::gate::process_environment, "baselines", "candidates");
  RecordProperty("settings_device", std::to_string(settings.device));
}

// CRASHING_SUITE_SLOW_EXIT_MS makes the process's exit after running tests take that long, as a GPU suite's exit
// takes while the driver releases its context (listing them makes no context, and exits at once).
struct SlowExit {
  ~SlowExit() {
    if (const char* ms = std::getenv("CRASHING_SUITE_SLOW_EXIT_MS"); ms && !::testing::GTEST_FLAG(list_tests))
      std::this_thread::sleep_for(std::chrono::milliseconds(std::atoi(ms)));
  }
} slow_exit;

// CRASHING_SUITE_NAMES adds two tests whose names differ only where GoogleTest's filter has a meaning ('-'
// starts the tests left out), as a program registering its tests at run time can name them: a filter for
// the one must not run the other.
class Named : public ::testing::Test {
 public:
  void TestBody() override { RecordProperty("ran", "yes"); }
};
const bool named_tests_registered = [] {
  if (std::getenv("CRASHING_SUITE_NAMES") == nullptr) return false;
  for (const char* name : {"a-b", "a_b"})
    ::testing::RegisterTest("Named", name, nullptr, nullptr, __FILE__, __LINE__, [] { return new Named; });
  return true;
}();
