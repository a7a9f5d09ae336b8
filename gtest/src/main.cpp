// main() of every suite made with bankgate_add_gpu_suite(): GoogleTest's, plus one line naming what the
// suite gates against, so a log shows which baselines a run used.

#include <gtest/gtest.h>

#include <iostream>

#include <bankgate/gate/settings.hpp>
#include <bankgate/gtest/suite_config.hpp>

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  // Listing (ctest's discovery at build time) prints nothing else: its output is parsed.
  if (!::testing::GTEST_FLAG(list_tests)) {
    const bankgate::gtest::SuiteConfig project = bankgate::gtest::suite_config();
    const auto overridden = bankgate::gate::process_environment("BANKGATE_BASELINE_DIR");
    std::cout << "[bankgate] baselines: " << (overridden ? *overridden + " (BANKGATE_BASELINE_DIR)" : project.baseline_dir) << "\n";
  }
  return RUN_ALL_TESTS();
}
