#include "result_files.hpp"

#include <cuda_runtime_api.h>
#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>

#include <bankgate/gate/protocol/test_claims.hpp>
#include <bankgate/gate/protocol/test_result.hpp>

#include "case_verdict.hpp"

namespace bankgate::gtest {
namespace {

// Errors after which the CUDA context cannot be used again in this process.
bool is_sticky(cudaError_t e) {
  switch (e) {
    case cudaErrorIllegalAddress:
    case cudaErrorLaunchFailure:
    case cudaErrorHardwareStackError:
    case cudaErrorIllegalInstruction:
    case cudaErrorMisalignedAddress:
    case cudaErrorInvalidAddressSpace:
    case cudaErrorInvalidPc:
    case cudaErrorAssert:
    case cudaErrorLaunchTimeout:
    case cudaErrorECCUncorrectable:
      return true;
    default:
      return false;
  }
}

}  // namespace

ResultFiles::ResultFiles(std::filesystem::path results_dir, std::filesystem::path running_file,
                         std::optional<ShardClaims> claims)
    : results_dir_(std::move(results_dir)), running_file_(std::move(running_file)), claims_(std::move(claims)) {}

void ResultFiles::OnTestIterationStart(const ::testing::UnitTest&, int iteration) { iteration_ = iteration; }

void ResultFiles::OnTestStart(const ::testing::TestInfo& info) {
  const std::string name = std::string(info.test_suite_name()) + "." + info.name();
  held_elsewhere_ = false;
  running_case_verdict() = {};
  if (claims_) {
    const std::string claim = iteration_ == 0 ? name : name + "#" + std::to_string(iteration_);
    try {
      held_elsewhere_ = !gate::claim_test(claims_->dir, claim, claims_->shard);
    } catch (const gate::ClaimError& e) {
      ADD_FAILURE() << "cannot take this test for shard " << claims_->shard << ": " << e.what();
      return;
    }
    // A skip recorded before the fixture is made keeps the test's body, SetUp included, from running.
    if (held_elsewhere_) GTEST_SKIP() << "measured by another shard of this suite";
    std::error_code ec;
    std::filesystem::remove(gate::test_result_path(results_dir_, info.test_suite_name(), info.name()), ec);
  }
  std::ofstream(running_file_, std::ios::trunc) << name << "\n";
}

void ResultFiles::OnTestEnd(const ::testing::TestInfo& info) {
  if (held_elsewhere_) return;  // its own shard writes its result
  const ::testing::TestResult& result = *info.result();
  const CaseVerdict& verdict = running_case_verdict();
  gate::TestResultRecord entry;
  entry.suite = info.test_suite_name();
  entry.test = info.name();
  entry.seconds = static_cast<double>(result.elapsed_time()) / 1000.0;
  const gate::TestEnd end = result.Failed()    ? gate::TestEnd::failed
                            : result.Skipped() ? gate::TestEnd::skipped
                                               : gate::TestEnd::passed;
  entry.outcome = gate::outcome_of(end, verdict.measured, verdict.compared);
  entry.wrong_output = verdict.wrong_output;
  entry.findings = verdict.findings;
  for (int i = 0; i < result.total_part_count(); ++i) {
    const ::testing::TestPartResult& part = result.GetTestPartResult(i);
    if (part.failed() || part.skipped()) entry.messages.emplace_back(part.message());
  }
  for (int i = 0; i < result.test_property_count(); ++i)
    entry.properties[result.GetTestProperty(i).key()] = result.GetTestProperty(i).value();
  gate::write_result_record(results_dir_, entry);
  std::error_code ec;
  std::filesystem::remove(running_file_, ec);

  // cudaPeekAtLastError does not create a context where the test made none, and returns a sticky error.
  const cudaError_t state = cudaPeekAtLastError();
  if (is_sticky(state)) {
    std::cout << "[bankgate] " << entry.suite << "." << entry.test << " left the CUDA context unusable ("
              << cudaGetErrorString(state) << "); the suite's remaining tests continue in a fresh process" << std::endl;
    std::_Exit(exit_context_lost);
  }
}

void hand_over_exit(const std::filesystem::path& running_file, int status) {
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  const int null_device = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
  if (null_device < 0) return;
  const bool closed = ::dup2(null_device, STDOUT_FILENO) >= 0 && ::dup2(null_device, STDERR_FILENO) >= 0;
  ::close(null_device);
  if (!closed) return;
  // Whole or not at all: run-suite may read the file at any moment.
  std::filesystem::path written = running_file;
  written += ".finished";
  std::ofstream(written, std::ios::trunc) << gate::protocol::finished_marker << " " << status << "\n";
  std::error_code ec;
  std::filesystem::rename(written, running_file, ec);
}

}  // namespace bankgate::gtest
