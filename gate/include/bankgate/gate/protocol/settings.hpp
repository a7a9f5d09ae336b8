#pragma once
// Every environment variable bankgate reads, parsed in one place: those a user sets to steer the GPU suites,
// and the run manifest bankgate's own processes pass down to one another (run_manifest.hpp; the names, and who
// sets each, are in run_protocol.hpp). Where the manifest says something, it decides over a user's variable. A malformed value is an error that names the variable, the value and what is accepted,
// never a silent default. A few reads stay where they are used, each for a reason given there:
// BANKGATE_FAULT_INJECT (a test hook), XDG_STATE_HOME and HOME (the promote journal's folder) in
// gate/src/store/baseline_transaction.cpp; BANKGATE_BASE_REF in cli/base_baselines.cpp; whether the user gave
// BANKGATE_GIT_COMMIT in cli/source_checkout.cpp; LD_LIBRARY_PATH (finding the driver) in cli/driver_stub.cpp.
// Variables for a child process go into that child's environment only, where it is started (cli/process.hpp).

#include <filesystem>
#include <optional>
#include <string>

#include <bankgate/gate/protocol/environment.hpp>

namespace bankgate::gate {

struct Settings {
  bool require_gpu = false;  // BANKGATE_REQUIRE_GPU: a test that cannot measure fails instead of skipping
  bool launch_only = false;  // BANKGATE_LAUNCH_ONLY: run kernels for an external profiler, gate nothing
  // BANKGATE_ATTRIBUTE: also record per-source-line figures (set by `bankgate record`/`refresh`; a gate run
  // collects them only to explain a changed counter)
  bool attribute = false;
  bool fail_on_speedup = false;         // BANKGATE_FAIL_ON_SPEEDUP: a kernel faster than its baseline fails too
  bool measure_only = false;            // the manifest's: measure, compare nothing here (compare's rounds)
  int device = 0;                       // BANKGATE_DEVICE, else CTest's CTEST_RESOURCE_GROUP_0_GPUS id, else 0
  std::filesystem::path baseline_dir;   // BANKGATE_BASELINE_DIR, else the repository's baselines/
  std::filesystem::path candidate_dir;  // BANKGATE_CANDIDATE_DIR, else <build>/bankgate/candidates
  // BANKGATE_LOCK_TIMEOUT: seconds a test waits for its GPU while another bankgate test holds it. It stays
  // below the ctest TIMEOUT of a GPU test (cmake/bankgateSuite.cmake), so the test says who holds the GPU
  // instead of being killed without a word.
  int lock_timeout_s = default_lock_timeout_s;
  static constexpr int default_lock_timeout_s = 240;
};

// The settings that hold for a whole run of suites, which the command passes on in its run manifest
// (run_manifest.hpp) from its own environment: the manifest's where it says them, else the variables (a suite or
// verdict step run by hand or by plain ctest). Settings (load_settings) holds them too. Throws SettingsError.
struct SuiteLevelSettings {
  bool launch_only = false;                               // BANKGATE_LAUNCH_ONLY
  bool fail_on_speedup = false;                           // BANKGATE_FAIL_ON_SPEEDUP
  int lock_timeout_s = Settings::default_lock_timeout_s;  // BANKGATE_LOCK_TIMEOUT
};
SuiteLevelSettings suite_level_settings(const EnvLookup& lookup);

// Reads the settings through `lookup` (the process environment by default); throws SettingsError.
Settings load_settings(const EnvLookup& lookup, const std::filesystem::path& default_baseline_dir,
                       const std::filesystem::path& default_candidate_dir);

// The GPU CTest's resource allocation gave this test (CTEST_RESOURCE_GROUP_0_GPUS), when it allocates; throws
// SettingsError for an allocation a GPU test cannot use.
std::optional<int> ctest_assigned_gpu(const EnvLookup& lookup);

// How many GPUs the ctest run spreads the suites over: the manifest's (`bankgate gate --resource-spec` says it
// from the spec), else BANKGATE_GPUS; a suite split into shards uses that many of them. 1 when neither says;
// throws SettingsError.
int gpus_of_the_run(const EnvLookup& lookup);

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

// The command's --filter for the suites' measuring runs (its manifest's); empty for all tests.
std::string suite_filter(const EnvLookup& lookup);

// The command's ctest run this measuring run belongs to (its manifest's); nullopt under plain ctest.
std::optional<std::string> run_id(const EnvLookup& lookup);

// Whether the user chose the device (BANKGATE_DEVICE set, not empty): run-suite then leaves the suite's view of
// the GPUs alone. (Its value is the suite's to check, in load_settings.)
bool device_chosen(const EnvLookup& lookup);

// CUDA_VISIBLE_DEVICES as this process has it, for visible_devices_for().
std::optional<std::string> visible_devices(const EnvLookup& lookup);

// ---- What the suite process reads from run-suite (gtest/src/main.cpp, the fixture) ----

// Where the shards of this suite claim its tests, while several measure at once (the manifest's claims_dir);
// nullopt otherwise.
std::optional<std::filesystem::path> claims_folder(const EnvLookup& lookup);

struct ResultFileSettings {
  std::filesystem::path results_dir;                // a one-test report per test goes here
  std::filesystem::path running_file;               // names the test in progress; else <results_dir>/.running
  std::optional<std::filesystem::path> claims_dir;  // claims_folder()
  int shard = 0;                                    // which shard of the suite this process is
};

// The result files run-suite asks for in the manifest it hands the suite process; nullopt where the suite runs
// without run-suite. Throws SettingsError.
std::optional<ResultFileSettings> result_file_settings(const EnvLookup& lookup);

// The baselines folder the manifest or BANKGATE_BASELINE_DIR names, for the suite's log line naming the
// baselines it gates against; nullopt when neither does (the suite's own folder). load_settings() judges it.
std::optional<std::string> baseline_dir_override(const EnvLookup& lookup);

// ---- What promote reads (cli/commands/promote.cpp) ----

// CI: whether this runs in CI, where baselines must not change. parse_flag()'s rule, which ci/lib.sh's
// bankgate_is_ci applies too (tests/unit/ci_lib_test.sh runs both over every spelling); throws SettingsError
// for any other value rather than guess.
bool running_in_ci(const EnvLookup& lookup);

// NO_COLOR: set to anything but the empty string, the command's console gets no colour unless --color=always asks
// for it (the convention of no-color.org: any value counts, so none is refused).
bool colour_refused(const EnvLookup& lookup);

// ---- What the summary reads, judging the records itself (gate_summary.hpp) ----

// BANKGATE_FAIL_ON_SPEEDUP, as the suite processes read it (the manifest's first, suite_level_settings()): a
// kernel faster than its baseline fails too.
bool fail_on_speedup(const EnvLookup& lookup);

// ---- What the commands that write the HTML report read (cli/) ----

// BANKGATE_SOURCE_URL: the template of the report's source links (source_url.hpp), for when --source-url is not
// given; nullopt when unset or empty. Throws SettingsError naming the variable for a template that is no plain
// http(s) address.
std::optional<std::string> source_url_template(const EnvLookup& lookup);

// ---- What the commands that append to the history read (cli/history_append.cpp) ----
// BANKGATE_HISTORY: where runs are kept (an SQLite file or a postgresql:// URL), or "off"; nullopt when unset or
// empty (the default place then). Not checked further here: the store says what is wrong with a location.
std::optional<std::string> history_location(const EnvLookup& lookup);

// The manifest's source (what the command found), else the variables.
SourceTree source_tree(const EnvLookup& lookup);

}  // namespace bankgate::gate
