#pragma once
// A run's entries as one JSON file: what a run keeps where its store could not be reached, for `bankgate history
// import` to append later. Versioned like every file bankgate writes.
//
//   {"schema": "bankgate-history-run", "schema_version": 1, "run": {key, commit, parent, branch, dirty, command,
//    time, runner: {gpu_name, gpu_key, gpu_uuid, driver, cuda}}, "tests": [{test, outcome, details, kernels: [{kernel,
//    code_hash, counters, median_ns, p10_ns, p90_ns, mad_ns, samples_ns}]}]}

#include <filesystem>
#include <stdexcept>
#include <string>

#include <bankgate/history/entries.hpp>

namespace bankgate::history {

inline constexpr const char* run_file_schema = "bankgate-history-run";
inline constexpr int run_file_schema_version = 1;

class RunFileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

std::string run_file_json(const RunEntry& run);
// Throws RunFileError naming `origin` and what is wrong (not JSON, another schema or version, a missing field).
RunEntry parse_run_file(const std::string& text, const std::string& origin);
bool is_run_file(const std::string& text);

// Writes `run` into `folder` as <key>.json (through a rename: a reader sees all of it or nothing); the path.
std::filesystem::path keep_run_file(const std::filesystem::path& folder, const RunEntry& run);

}  // namespace bankgate::history
