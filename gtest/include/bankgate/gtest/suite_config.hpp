#pragma once
// What a GPU suite knows about the project that built it. bankgate_add_gpu_suite() (cmake/bankgateSuite.cmake)
// generates the definition of suite_config() into every suite it creates, so a suite gates against its own
// project's baselines and names its own project's refresh command. A suite linked by hand must define it.

#include <string>

namespace bankgate::gtest {

struct SuiteConfig {
  std::string baseline_dir;   // the project's baselines folder (BANKGATE_BASELINE_DIR overrides)
  std::string candidate_dir;  // where measurements go by default (BANKGATE_CANDIDATE_DIR overrides)
  std::string build_dir;      // the project's top build folder, for the refresh command
  std::string command;        // the `bankgate` command of the package the suite was built with
  std::string source_dir;     // the project's source folder: source lines in baselines are relative to it
};

SuiteConfig suite_config();

}  // namespace bankgate::gtest
