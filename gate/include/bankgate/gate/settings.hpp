#pragma once
// The environment variables a user sets to steer the GPU suites, parsed in one place. A malformed value is an
// error that names the variable, the value and what is accepted, never a silent default.

#include <filesystem>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>

namespace bankgate::gate {

struct Settings {
  bool require_gpu = false;  // BANKGATE_REQUIRE_GPU: a test that cannot measure fails instead of skipping
  bool launch_only = false;  // BANKGATE_LAUNCH_ONLY: run kernels for an external profiler, gate nothing
  // BANKGATE_ATTRIBUTE: also record per-source-line figures (set by `bankgate record`/`refresh`; a gate run
  // collects them only to explain a changed counter)
  bool attribute = false;
  bool fail_on_speedup = false;  // BANKGATE_FAIL_ON_SPEEDUP: a kernel faster than its baseline fails too
  int device = 0;            // BANKGATE_DEVICE, else CTest's CTEST_RESOURCE_GROUP_0_GPUS id, else 0
  std::filesystem::path baseline_dir;   // BANKGATE_BASELINE_DIR, else the repository's baselines/
  std::filesystem::path candidate_dir;  // BANKGATE_CANDIDATE_DIR, else <build>/candidates
  // BANKGATE_LOCK_TIMEOUT: seconds a test waits for its GPU while another bankgate test holds it. It stays
  // below the ctest TIMEOUT of a GPU test (cmake/bankgateSuite.cmake), so the test says who holds the GPU
  // instead of being killed without a word.
  int lock_timeout_s = default_lock_timeout_s;
  static constexpr int default_lock_timeout_s = 240;
};

class SettingsError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

using EnvLookup = std::function<std::optional<std::string>(const std::string& name)>;

// Reads the settings through `lookup` (the process environment by default); throws SettingsError.
Settings load_settings(const EnvLookup& lookup, const std::filesystem::path& default_baseline_dir,
                       const std::filesystem::path& default_candidate_dir);
std::optional<std::string> process_environment(const std::string& name);

// The GPU CTest's resource allocation gave this test (CTEST_RESOURCE_GROUP_0_GPUS), when it allocates; throws
// SettingsError for an allocation a GPU test cannot use.
std::optional<int> ctest_assigned_gpu(const EnvLookup& lookup);

// BANKGATE_GPUS: how many GPUs the ctest run spreads the suites over (`bankgate gate --resource-spec` sets it
// from the spec); a suite split into shards uses that many of them. 1 when unset; throws SettingsError.
int gpus_of_the_run(const EnvLookup& lookup);

// BANKGATE_SHARD: which shard of its suite this process measures for (bankgate run-suite sets it where several
// shards claim tests at once, BANKGATE_CLAIMS_DIR); 0 when unset; throws SettingsError.
int shard_of_this_process(const EnvLookup& lookup);

// The CUDA_DEVICE_MAX_CONNECTIONS a suite process sets before its first CUDA call: "1" (one hardware queue per
// context instead of CUDA's 8) unless the user set it. Each queue costs its context's creation time, which the
// CUDA driver serialises across the processes of a host (bench/RESULTS-start-up.md), and the gate launches on
// one stream at a time. nullopt: leave the user's value.
std::optional<std::string> cuda_connections_to_set(const EnvLookup& lookup);

// The CUDA_VISIBLE_DEVICES value that shows a child process only device `index` of this process: the index-th
// entry of `visible` (this process's CUDA_VISIBLE_DEVICES) when set, else the index itself. nullopt when
// `visible` has no such entry.
std::optional<std::string> visible_devices_for(int index, const std::optional<std::string>& visible);

// "1", "true", "yes", "on" / "0", "false", "no", "off", or empty for unset; anything else is an error.
bool parse_flag(const std::string& name, const std::optional<std::string>& value);

}  // namespace bankgate::gate
