// main() of every suite made with bankgate_add_gpu_suite(): GoogleTest's, plus one line naming what the
// suite gates against, so a log shows which baselines a run used, and per-test result files where the suite
// runs as one process under `bankgate run-suite` (BANKGATE_RESULTS_DIR).

#include <gtest/gtest.h>

#include <cstdlib>
#include <iostream>
#include <optional>

#include <bankgate/gate/settings.hpp>
#include <bankgate/gtest/suite_config.hpp>

#include "result_files.hpp"

int main(int argc, char** argv) {
  // Before any CUDA call: the driver reads it when the process's first context is made.
  if (const auto connections = bankgate::gate::cuda_connections_to_set(bankgate::gate::process_environment))
    setenv("CUDA_DEVICE_MAX_CONNECTIONS", connections->c_str(), 1);
  ::testing::InitGoogleTest(&argc, argv);
  // Listing (ctest's discovery at build time) prints nothing else: its output is parsed.
  if (!::testing::GTEST_FLAG(list_tests)) {
    const bankgate::gtest::SuiteConfig project = bankgate::gtest::suite_config();
    const auto overridden = bankgate::gate::process_environment("BANKGATE_BASELINE_DIR");
    std::cout << "[bankgate] baselines: " << (overridden ? *overridden + " (BANKGATE_BASELINE_DIR)" : project.baseline_dir) << "\n";
  }
  if (const auto results = bankgate::gate::process_environment("BANKGATE_RESULTS_DIR"); results && !results->empty()) {
    const auto running = bankgate::gate::process_environment("BANKGATE_RUNNING_FILE");
    std::optional<bankgate::gtest::ShardClaims> claims;
    if (const auto dir = bankgate::gate::process_environment("BANKGATE_CLAIMS_DIR"); dir && !dir->empty()) {
      try {
        claims = bankgate::gtest::ShardClaims{*dir, bankgate::gate::shard_of_this_process(bankgate::gate::process_environment)};
      } catch (const bankgate::gate::SettingsError& e) {
        std::cerr << "bad bankgate setting: " << e.what() << "\n";
        return 1;
      }
    }
    ::testing::UnitTest::GetInstance()->listeners().Append(new bankgate::gtest::ResultFiles(
        *results, running && !running->empty() ? *running : *results + "/.running", std::move(claims)));
  }
  return RUN_ALL_TESTS();
}
