// A suite for the suite runner's own test (run_suite_test.sh): no GPU, one test that crashes its process
// between two that pass and one that fails, built with bankgate's main() like every GPU suite.

#include <gtest/gtest.h>

#include <csignal>
#include <cstdlib>

#include <bankgate/gtest/suite_config.hpp>

bankgate::gtest::SuiteConfig bankgate::gtest::suite_config() { return {}; }

TEST(Crashing, First) { RecordProperty("median_ns", "1000"); }
TEST(Crashing, Crashes) {
  if (std::getenv("CRASHING_SUITE_CRASH")) std::raise(SIGSEGV);
}
TEST(Crashing, Fails) { ADD_FAILURE() << "a plain failure"; }
TEST(Crashing, Skips) { GTEST_SKIP() << "no GPU: a reason"; }
// What the runner showed the process of its GPU, for the test of the runner's device choice.
TEST(Crashing, Last) {
  for (const char* name : {"CUDA_VISIBLE_DEVICES", "BANKGATE_DEVICE"})
    if (const char* value = std::getenv(name)) RecordProperty(name, value);
}
