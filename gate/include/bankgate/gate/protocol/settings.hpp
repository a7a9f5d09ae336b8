#pragma once
// Every environment variable bankgate reads, parsed in one place: those a user sets to steer the GPU suites,
// and those bankgate's own processes pass down to one another (their names, and who sets each, are in
// run_protocol.hpp). A malformed value is an error that names the variable, the value and what is accepted,
// never a silent default. A few reads stay where they are used, each for a reason given there:
// BANKGATE_FAULT_INJECT (a test hook), XDG_STATE_HOME and HOME (the promote journal's folder) in
// gate/src/store/baseline_transaction.cpp; BANKGATE_BASE_REF in cli/base_baselines.cpp; whether the user gave
// BANKGATE_GIT_COMMIT in cli/source_checkout.cpp; LD_LIBRARY_PATH (finding the driver) in cli/driver_stub.cpp.
// Setting variables for a child process stays where the child is started, with run_protocol.hpp's names.

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
  std::filesystem::path candidate_dir;  // BANKGATE_CANDIDATE_DIR, else <build>/bankgate/candidates
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

// TMPDIR, else /tmp: where the GPU lock files are (gtest/device_lock.hpp). Every process of a run must see the
// same folder, or two of them would measure on one GPU at once.
std::filesystem::path lock_folder(const EnvLookup& lookup);

// ---- What bankgate run-suite reads (cli/suite_process.cpp) ----

// BANKGATE_SUITE_FILTER: the command's --filter for the suites' measuring runs; empty for all tests.
std::string suite_filter(const EnvLookup& lookup);

// BANKGATE_RUN_ID: the command's ctest run this measuring run belongs to; nullopt under plain ctest (unset or
// empty). It names a folder, so anything but letters, digits, '-' and '_' throws SettingsError.
std::optional<std::string> run_id(const EnvLookup& lookup);

// Whether the user chose the device (BANKGATE_DEVICE set, not empty): run-suite then leaves the suite's view of
// the GPUs alone. (Its value is the suite's to check, in load_settings.)
bool device_chosen(const EnvLookup& lookup);

// CUDA_VISIBLE_DEVICES as this process has it, for visible_devices_for().
std::optional<std::string> visible_devices(const EnvLookup& lookup);

// ---- What the suite process reads from run-suite (gtest/src/main.cpp, the fixture) ----

// BANKGATE_CLAIMS_DIR: where the shards of this suite claim its tests, while several measure at once; nullopt
// otherwise (unset or empty).
std::optional<std::filesystem::path> claims_folder(const EnvLookup& lookup);

struct ResultFileSettings {
  std::filesystem::path results_dir;   // BANKGATE_RESULTS_DIR: a one-test report per test goes here
  std::filesystem::path running_file;  // BANKGATE_RUNNING_FILE, else <results_dir>/.running
  std::optional<std::filesystem::path> claims_dir;  // claims_folder()
  int shard = 0;                                    // shard_of_this_process(), read where claims_dir is given
};

// The result files run-suite asks for; nullopt where the suite runs without it (BANKGATE_RESULTS_DIR unset or
// empty). Throws SettingsError.
std::optional<ResultFileSettings> result_file_settings(const EnvLookup& lookup);

// BANKGATE_BASELINE_DIR as given, for the suite's log line naming the baselines it gates against; nullopt when
// unset (the suite's own folder). load_settings() judges the value.
std::optional<std::string> baseline_dir_override(const EnvLookup& lookup);

// ---- What promote reads (cli/commands/promote.cpp) ----

// CI: whether this runs in CI, where baselines must not change. parse_flag()'s rule, which ci/lib.sh's
// bankgate_is_ci applies too (tests/unit/ci_lib_test.sh runs both over every spelling); throws SettingsError
// for any other value rather than guess.
bool running_in_ci(const EnvLookup& lookup);

// NO_COLOR: set to anything but the empty string, the command's console gets no colour unless --color=always asks
// for it (the convention of no-color.org: any value counts, so none is refused).
bool colour_refused(const EnvLookup& lookup);

// ---- What the commands that write the HTML report read (cli/) ----

// BANKGATE_SOURCE_URL: the template of the report's source links (source_url.hpp), for when --source-url is not
// given; nullopt when unset or empty. Throws SettingsError naming the variable for a template that is no plain
// http(s) address.
std::optional<std::string> source_url_template(const EnvLookup& lookup);

// The source tree promoted baselines were measured from, for their provenance.
struct SourceTree {
  std::string commit = "unknown";  // BANKGATE_GIT_COMMIT, as given
  bool dirty = false;              // BANKGATE_GIT_DIRTY, a flag
};
SourceTree source_tree(const EnvLookup& lookup);

}  // namespace bankgate::gate
