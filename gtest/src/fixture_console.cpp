#include "fixture_console.hpp"

#include <cstring>
#include <iostream>
#include <mutex>
#include <set>

namespace bankgate::gtest {
namespace {

using ::testing::TestPartResult;

// Forwards every event to GoogleTest's printer, but the results of bankgate's fixture.
class FixtureConsole : public ::testing::TestEventListener {
 public:
  explicit FixtureConsole(::testing::TestEventListener* printer) : printer_(printer) {}

  void OnTestPartResult(const TestPartResult& result) override {
    const bool from_fixture =
        result.file_name() != nullptr && std::strcmp(result.file_name(), fixture_source_file()) == 0;
    if (!from_fixture || result.type() == TestPartResult::kSuccess) return printer_->OnTestPartResult(result);
    if (result.type() == TestPartResult::kSkip) {
      print_once(result.message());
      return;
    }
    if (test_ != nullptr && test_->file() != nullptr) std::cout << test_->file() << ":" << test_->line() << ": ";
    std::cout << "Failure\n" << result.message() << std::endl;
  }

  void OnTestProgramStart(const ::testing::UnitTest& u) override { printer_->OnTestProgramStart(u); }
  void OnTestIterationStart(const ::testing::UnitTest& u, int i) override { printer_->OnTestIterationStart(u, i); }
  void OnEnvironmentsSetUpStart(const ::testing::UnitTest& u) override { printer_->OnEnvironmentsSetUpStart(u); }
  void OnEnvironmentsSetUpEnd(const ::testing::UnitTest& u) override { printer_->OnEnvironmentsSetUpEnd(u); }
  void OnTestSuiteStart(const ::testing::TestSuite& s) override { printer_->OnTestSuiteStart(s); }
#ifndef GTEST_REMOVE_LEGACY_TEST_CASEAPI_
  void OnTestCaseStart(const ::testing::TestCase& s) override { printer_->OnTestCaseStart(s); }
#endif
  // Kept here: GoogleTest reports a result while holding the lock that UnitTest::current_test_info() takes.
  void OnTestStart(const ::testing::TestInfo& t) override {
    test_ = &t;
    printer_->OnTestStart(t);
  }
  void OnTestDisabled(const ::testing::TestInfo& t) override { printer_->OnTestDisabled(t); }
  void OnTestEnd(const ::testing::TestInfo& t) override {
    printer_->OnTestEnd(t);
    test_ = nullptr;
  }
  void OnTestSuiteEnd(const ::testing::TestSuite& s) override { printer_->OnTestSuiteEnd(s); }
#ifndef GTEST_REMOVE_LEGACY_TEST_CASEAPI_
  void OnTestCaseEnd(const ::testing::TestCase& s) override { printer_->OnTestCaseEnd(s); }
#endif
  void OnEnvironmentsTearDownStart(const ::testing::UnitTest& u) override { printer_->OnEnvironmentsTearDownStart(u); }
  void OnEnvironmentsTearDownEnd(const ::testing::UnitTest& u) override { printer_->OnEnvironmentsTearDownEnd(u); }
  void OnTestIterationEnd(const ::testing::UnitTest& u, int i) override { printer_->OnTestIterationEnd(u, i); }
  void OnTestProgramEnd(const ::testing::UnitTest& u) override { printer_->OnTestProgramEnd(u); }

 private:
  std::unique_ptr<::testing::TestEventListener> printer_;
  const ::testing::TestInfo* test_ = nullptr;  // the test running, whose line the fixture's failures are shown at
};

}  // namespace

bool print_once(const std::string& line) {
  static std::mutex mutex;
  static std::set<std::string> printed;
  const std::lock_guard lock(mutex);
  if (!printed.insert(line).second) return false;
  std::cout << "[bankgate] " << line << std::endl;
  return true;
}

std::unique_ptr<::testing::TestEventListener> fixture_console(::testing::TestEventListener* printer) {
  return std::make_unique<FixtureConsole>(printer);
}

}  // namespace bankgate::gtest
