#pragma once
// The run manifest: everything one bankgate process tells the processes it starts about the run, in one JSON file
// named by one variable (BANKGATE_RUN_MANIFEST). The command writes one per ctest run it starts
// (cli/suite_run.cpp); run-suite reads it, adds what concerns one suite process, and writes that process its own
// (cli/suite_process.cpp). A user's settings (settings.hpp) stay variables of their own; where the manifest
// says something, it decides: a command's run is not steered by what its caller's shell left set.
//
// The manifest is written by bankgate and read by bankgate, yet read as outside input all the same: a file that
// is not one is refused with its name and the field at fault, never half-used.

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>

#include <bankgate/gate/protocol/environment.hpp>

namespace bankgate::gate::protocol {

inline constexpr int manifest_version = 1;
inline constexpr int max_confirm_processes = 9;
inline constexpr int max_lock_timeout_s = 999999;  // BANKGATE_LOCK_TIMEOUT's six digits

struct RunManifest {
  // ---- The command's run: the same for every suite process of one ctest run ----
  std::optional<std::string> run_id;  // names the run; the shards of a suite claim its tests under it
  // Unset, a suite process follows its user's variables (a suite run by plain ctest has no command's manifest).
  std::optional<bool> attribute;                       // per-line figures too (record and refresh)
  std::optional<bool> require_gpu;                     // a test that cannot measure fails (gate)
  std::optional<std::filesystem::path> candidate_dir;  // where the run's measurements go
  std::optional<std::filesystem::path> baseline_dir;   // compare's scratch baselines; else the suite's own
  std::string suite_filter;                            // the command's --filter: a measuring run lists only these tests
  std::optional<int> gpus;           // the GPUs of --resource-spec: how many of a suite's shards measure
  std::optional<SourceTree> source;  // the commit the build was made from, where known
  // Fresh processes that measure a test again before a slower duration becomes its verdict (the gate's; at most
  // max_confirm_processes); unset or 0: none (record, compare, a suite run by hand).
  std::optional<int> confirm_processes;
  // The suite processes measure and compare nothing against the baselines (compare's rounds, whose pooled
  // measurements are judged once, by the command); unset: they compare, for their own failure messages.
  std::optional<bool> measure_only;
  // The suite-level settings of the command's own environment (BANKGATE_LAUNCH_ONLY, BANKGATE_FAIL_ON_SPEEDUP,
  // BANKGATE_LOCK_TIMEOUT; suite_level_settings() in settings.hpp), so that its suite processes and verdict steps
  // follow the command and not what their own environment happens to hold.
  std::optional<bool> launch_only;
  std::optional<bool> fail_on_speedup;
  std::optional<int> lock_timeout_s;

  // ---- One suite process, added by run-suite ----
  std::optional<std::filesystem::path> results_dir;   // a one-test report per test goes here
  std::optional<std::filesystem::path> running_file;  // names the test now running, to charge a crash to
  std::optional<std::filesystem::path> claims_dir;    // where the shards of the suite claim its tests
  int shard = 0;                                      // which shard this process is
  std::optional<int> device;  // the CUDA device, after run-suite narrowed CUDA_VISIBLE_DEVICES to the allotted GPU
};

std::string manifest_json(const RunManifest& manifest);

// Throws SettingsError naming `origin` and what is wrong (not JSON, an unknown or mistyped field, another version).
RunManifest parse_manifest(const std::string& text, const std::string& origin);

// Written whole or not at all.
void write_manifest(const std::filesystem::path& file, const RunManifest& manifest);

// The manifest BANKGATE_RUN_MANIFEST names, or nullopt where it is unset or empty (a suite run by plain ctest or
// by hand). Throws SettingsError for a file that cannot be read or is no manifest. The file is read on each call
// but parsed once per process for each text it holds, however many settings ask for it.
std::optional<RunManifest> run_manifest(const EnvLookup& lookup);

// How many manifests run_manifest() has parsed in this process: for the test that shows each is parsed once.
std::size_t manifest_parses();

}  // namespace bankgate::gate::protocol
