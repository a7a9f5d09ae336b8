#pragma once
// Candidates: what a GPU run measured, written into the build tree (never into baselines/), one file per
// test so that tests running in separate processes never write the same file. The refresh tool reads them.

#include <filesystem>
#include <map>
#include <optional>
#include <string>

#include <bankgate/gate/rules/baseline.hpp>

namespace bankgate::gate {

// <dir>/<arch>/<model>/<suite>/<test>.json, a suite file holding that one test with its raw samples.
std::filesystem::path candidate_path(const std::filesystem::path& dir, const GpuKey& gpu, const std::string& suite,
                                     const std::string& test);
void write_candidate(const std::filesystem::path& dir, const GpuKey& gpu, const Provenance& device,
                     const std::string& suite, const std::string& test, const TestRecord& record,
                     const std::filesystem::path& baseline_dir = {});

// One test's candidate, none where it has no file; throws BaselineError where the file is unreadable or misplaced.
// A verdict reads its test's alone: reading every candidate of the run made each of a suite's verdicts cost
// what all of them read (49 ms a test in the catalogue, 3 s a gate, on an H200 machine).
std::optional<TestRecord> read_candidate(const std::filesystem::path& dir, const GpuKey& gpu, const std::string& suite,
                                         const std::string& test);

// Every candidate under <dir>/<arch>/<model>/, merged per suite. Throws BaselineError on an unreadable one.
std::map<std::string, SuiteFile> read_candidates(const std::filesystem::path& dir, const GpuKey& gpu);

// The first of them alone, the one whose provenance read_candidates' first suite carries: what a run measured on
// and when, without reading every candidate. nullopt where there is none; throws as read_candidates does.
std::optional<SuiteFile> read_first_candidate(const std::filesystem::path& dir, const GpuKey& gpu);

}  // namespace bankgate::gate
