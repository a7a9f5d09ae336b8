// main() of every suite made with bankgate_add_gpu_suite(): GoogleTest's, plus one line naming what the
// suite gates against, so a log shows which baselines a run used, and per-test result files where the suite
// runs as one process under `bankgate run-suite` (which says where through the environment: settings.hpp's
// result_file_settings()).

#include <gtest/gtest.h>

#include <cstdlib>
#include <iostream>
#include <optional>
#include <string>
#include <string_view>

#include <bankgate/gate/protocol/run_protocol.hpp>
#include <bankgate/gate/protocol/settings.hpp>
#include <bankgate/gtest/suite_config.hpp>

#include "fixture_console.hpp"
#include "kernel_name_check.hpp"
#include "result_files.hpp"

namespace g = bankgate::gate;

// `--bankgate-check-kernel-names=SOURCES` (bankgate_add_gpu_suite runs it after each build): the kernel names of
// the suite's sources against its program's own device code, without a GPU (kernel_name_check.hpp).
constexpr std::string_view check_kernel_names_flag = "--bankgate-check-kernel-names=";

int main(int argc, char** argv) {
  if (argc == 2 && std::string_view(argv[1]).starts_with(check_kernel_names_flag))
    return bankgate::gtest::check_kernel_names_of_this_program(
        std::string(std::string_view(argv[1]).substr(check_kernel_names_flag.size())), argv[0]);
  // Before any CUDA call: the driver reads it when the process's first context is made.
  if (const auto connections = g::cuda_connections_to_set(g::process_environment))
    setenv(g::protocol::env::cuda_device_max_connections, connections->c_str(), 1);
  ::testing::InitGoogleTest(&argc, argv);
  // Listing (ctest's discovery at build time) prints nothing else: its output is parsed.
  if (!::testing::GTEST_FLAG(list_tests)) {
    const bankgate::gtest::SuiteConfig project = bankgate::gtest::suite_config();
    const auto overridden = g::baseline_dir_override(g::process_environment);
    std::cout << "[bankgate] baselines: "
              << (overridden ? *overridden + " (" + g::protocol::env::baseline_dir + ")" : project.baseline_dir)
              << "\n";
  }
  std::optional<g::ResultFileSettings> files;
  try {
    files = g::result_file_settings(g::process_environment);
  } catch (const g::SettingsError& e) {
    std::cerr << "bad bankgate setting: " << e.what() << "\n";
    return 1;
  }
  ::testing::TestEventListeners& listeners = ::testing::UnitTest::GetInstance()->listeners();
  if (::testing::TestEventListener* printer = listeners.default_result_printer())
    listeners.Append(bankgate::gtest::fixture_console(listeners.Release(printer)).release());
  if (files) {
    std::optional<bankgate::gtest::ShardClaims> claims;
    if (files->claims_dir) claims = bankgate::gtest::ShardClaims{*files->claims_dir, files->shard};
    ::testing::UnitTest::GetInstance()->listeners().Append(
        new bankgate::gtest::ResultFiles(files->results_dir, files->running_file, std::move(claims)));
  }
  const int status = RUN_ALL_TESTS();
  if (files) bankgate::gtest::hand_over_exit(files->running_file, status);
  return status;
}
