// Environment settings, read through a fake environment so no test depends on the process's own.

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <optional>
#include <string>

#include <unistd.h>

#include <bankgate/gate/protocol/run_manifest.hpp>
#include <bankgate/gate/protocol/settings.hpp>

namespace {

using namespace bankgate::gate;
namespace protocol = bankgate::gate::protocol;
using Environment = std::map<std::string, std::string>;

const std::filesystem::path default_baselines = "/repo/baselines";
const std::filesystem::path default_candidates = "/repo/build/candidates";

EnvLookup lookup_in(const Environment& environment) {
  return [environment](const std::string& name) -> std::optional<std::string> {
    const auto it = environment.find(name);
    if (it == environment.end()) return std::nullopt;
    return it->second;
  };
}

// `environment` plus a run manifest holding `manifest`, written to a file of its own for `name`.
EnvLookup with_manifest(const std::string& name, const protocol::RunManifest& manifest, Environment environment = {}) {
  const std::filesystem::path file = std::filesystem::temp_directory_path() /
                                     ("bankgate-settings-test-" + std::to_string(::getpid()) + "-" + name + ".json");
  protocol::write_manifest(file, manifest);
  environment["BANKGATE_RUN_MANIFEST"] = file.string();
  return lookup_in(environment);
}

Settings load(const Environment& environment) {
  return load_settings(lookup_in(environment), default_baselines, default_candidates);
}

::testing::AssertionResult mentions(const std::string& text, const std::string& part) {
  if (text.find(part) != std::string::npos) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "\"" << text << "\" does not mention \"" << part << "\"";
}

// The message of the SettingsError that loading `environment` must raise.
std::string rejection(const Environment& environment) {
  try {
    load(environment);
  } catch (const SettingsError& e) {
    return e.what();
  }
  ADD_FAILURE() << "the settings were accepted";
  return {};
}

TEST(Settings, EmptyEnvironmentGivesDefaults) {
  const Settings s = load({});
  EXPECT_FALSE(s.require_gpu);
  EXPECT_FALSE(s.launch_only);
  EXPECT_EQ(s.device, 0);
  EXPECT_EQ(s.baseline_dir, default_baselines);
  EXPECT_EQ(s.candidate_dir, default_candidates);
}

TEST(Settings, RequireGpuAcceptsYesSpellingsInAnyCase) {
  for (const std::string value : {"1", "true", "TRUE", "yes", "Yes", "on", "ON"}) {
    SCOPED_TRACE(value);
    EXPECT_TRUE(load({{"BANKGATE_REQUIRE_GPU", value}}).require_gpu);
  }
}

TEST(Settings, RequireGpuAcceptsNoSpellingsAndEmpty) {
  for (const std::string value : {"0", "false", "False", "no", "NO", "off", "Off", ""}) {
    SCOPED_TRACE(value);
    EXPECT_FALSE(load({{"BANKGATE_REQUIRE_GPU", value}}).require_gpu);
  }
}

TEST(Settings, RequireGpuRejectsAnythingElseNamingVariableAndValue) {
  for (const std::string value : {"maybe", "2", "y", " 1"}) {
    SCOPED_TRACE(value);
    const std::string message = rejection({{"BANKGATE_REQUIRE_GPU", value}});
    EXPECT_TRUE(mentions(message, "BANKGATE_REQUIRE_GPU"));
    EXPECT_TRUE(mentions(message, "'" + value + "'"));
  }
}

TEST(Settings, LaunchOnlyIsAFlagOfItsOwn) {
  const Settings s = load({{"BANKGATE_LAUNCH_ONLY", "1"}});
  EXPECT_TRUE(s.launch_only);
  EXPECT_FALSE(s.require_gpu);
  EXPECT_TRUE(mentions(rejection({{"BANKGATE_LAUNCH_ONLY", "sometimes"}}), "BANKGATE_LAUNCH_ONLY"));
}

TEST(Settings, FailOnSpeedupIsAFlagOfItsOwn) {
  EXPECT_FALSE(load({}).fail_on_speedup);
  const Settings s = load({{"BANKGATE_FAIL_ON_SPEEDUP", "yes"}});
  EXPECT_TRUE(s.fail_on_speedup);
  EXPECT_FALSE(s.require_gpu);
  EXPECT_TRUE(mentions(rejection({{"BANKGATE_FAIL_ON_SPEEDUP", "faster"}}), "BANKGATE_FAIL_ON_SPEEDUP"));
}

TEST(Settings, DeviceIndexIsParsed) {
  EXPECT_EQ(load({{"BANKGATE_DEVICE", "0"}}).device, 0);
  EXPECT_EQ(load({{"BANKGATE_DEVICE", "3"}}).device, 3);
  EXPECT_EQ(load({{"BANKGATE_DEVICE", "12"}}).device, 12);
}

TEST(Settings, DeviceIndexThatIsNotAWholeNumberIsRejected) {
  for (const std::string value : {"-1", "abc", "1.5", " 1", "1 ", "0x1", "99999999999"}) {
    SCOPED_TRACE(value);
    const std::string message = rejection({{"BANKGATE_DEVICE", value}});
    EXPECT_TRUE(mentions(message, "BANKGATE_DEVICE"));
    EXPECT_TRUE(mentions(message, "'" + value + "'"));
  }
}

// What ctest --resource-spec-file puts into a GPU test's environment (RESOURCE_GROUPS "gpus:1").
Environment allotted(const std::string& gpus) {
  return {
      {"CTEST_RESOURCE_GROUP_COUNT", "1"}, {"CTEST_RESOURCE_GROUP_0", "gpus"}, {"CTEST_RESOURCE_GROUP_0_GPUS", gpus}};
}

TEST(Settings, CTestResourceGroupSelectsTheDevice) {
  EXPECT_EQ(load(allotted("id:1,slots:1")).device, 1);
  EXPECT_EQ(load(allotted("id:1,slots:100")).device, 1);
  EXPECT_EQ(load(allotted("id:7")).device, 7);
  EXPECT_EQ(load(allotted("slots:100,id:2")).device, 2);
  EXPECT_EQ(load(allotted("id:0,slots:1")).device, 0);
}

// CTest sets the count only while it allocates; a group variable without it is an outer run's leftover.
TEST(Settings, CTestGroupVariableWithoutCountIsIgnored) {
  EXPECT_EQ(load({{"CTEST_RESOURCE_GROUP_0_GPUS", "id:1,slots:1"}}).device, 0);
  EXPECT_EQ(load({{"CTEST_RESOURCE_GROUP_0_GPUS", "garbage"}}).device, 0);
  EXPECT_EQ(load({{"CTEST_RESOURCE_GROUP_COUNT", ""}, {"CTEST_RESOURCE_GROUP_0_GPUS", "id:1"}}).device, 0);
}

// BANKGATE_DEVICE is the user's explicit choice and wins; CTest's variables are then not read at all (the
// device lock still keeps two tests from measuring on one GPU at once).
TEST(Settings, DeviceVariableOverridesCTestAssignment) {
  Environment both = allotted("id:1,slots:100");
  both["BANKGATE_DEVICE"] = "3";
  EXPECT_EQ(load(both).device, 3);
  both["BANKGATE_DEVICE"] = "0";
  EXPECT_EQ(load(both).device, 0);
  Environment malformed = allotted("id:gpu1");
  malformed["BANKGATE_DEVICE"] = "2";
  EXPECT_EQ(load(malformed).device, 2);
}

TEST(Settings, EmptyDeviceVariableFallsBackToCTestAssignment) {
  Environment environment = allotted("id:1,slots:1");
  environment["BANKGATE_DEVICE"] = "";
  EXPECT_EQ(load(environment).device, 1);
}

TEST(Settings, CTestAssignmentWithoutIdIsRejected) {
  const std::string message = rejection(allotted("slots:100"));
  EXPECT_TRUE(mentions(message, "CTEST_RESOURCE_GROUP_0_GPUS"));
  EXPECT_TRUE(mentions(message, "slots:100"));
  EXPECT_TRUE(mentions(message, "bankgate-resource-spec"));
}

TEST(Settings, CTestAssignmentWithBadIdIsRejected) {
  for (const std::string value : {"id:gpu1,slots:100", "id:,slots:1", "id:-1,slots:1", "id:0x1", "id:99999"}) {
    SCOPED_TRACE(value);
    const std::string message = rejection(allotted(value));
    EXPECT_TRUE(mentions(message, "CTEST_RESOURCE_GROUP_0_GPUS"));
    EXPECT_TRUE(mentions(message, "'" + value + "'"));
  }
}

TEST(Settings, CTestAssignmentOfSeveralGpusIsRejected) {
  const std::string message = rejection(allotted("id:0,slots:1;id:1,slots:1"));
  EXPECT_TRUE(mentions(message, "CTEST_RESOURCE_GROUP_0_GPUS"));
  EXPECT_TRUE(mentions(message, "several GPUs"));
  EXPECT_TRUE(mentions(rejection(allotted("id:0,id:1")), "id:1"));
  EXPECT_TRUE(mentions(rejection(allotted("id:0,gpu:1")), "'gpu:1'"));
}

TEST(Settings, CTestCountWithoutGpuAssignmentIsRejected) {
  const std::string message = rejection({{"CTEST_RESOURCE_GROUP_COUNT", "1"}});
  EXPECT_TRUE(mentions(message, "CTEST_RESOURCE_GROUP_0_GPUS"));
  EXPECT_TRUE(mentions(message, "bankgate-resource-spec"));
  EXPECT_TRUE(mentions(rejection(allotted("")), "CTEST_RESOURCE_GROUP_0_GPUS"));
}

TEST(Settings, CTestCountOtherThanOneIsRejected) {
  for (const std::string value : {"0", "2", "one", " 1"}) {
    SCOPED_TRACE(value);
    Environment environment = allotted("id:0,slots:1");
    environment["CTEST_RESOURCE_GROUP_COUNT"] = value;
    const std::string message = rejection(environment);
    EXPECT_TRUE(mentions(message, "CTEST_RESOURCE_GROUP_COUNT"));
    EXPECT_TRUE(mentions(message, "'" + value + "'"));
  }
}

TEST(Settings, SuiteProcessesUseOneHardwareQueueUnlessTheUserChose) {
  EXPECT_EQ(cuda_connections_to_set(lookup_in({})), "1");
  EXPECT_EQ(cuda_connections_to_set(lookup_in({{"CUDA_DEVICE_MAX_CONNECTIONS", ""}})), "1");
  EXPECT_EQ(cuda_connections_to_set(lookup_in({{"CUDA_DEVICE_MAX_CONNECTIONS", "8"}})), std::nullopt);
}

TEST(Settings, FolderVariablesOverrideDefaults) {
  const Settings s = load({{"BANKGATE_BASELINE_DIR", "/elsewhere/baselines"}, {"BANKGATE_CANDIDATE_DIR", "/tmp/cand"}});
  EXPECT_EQ(s.baseline_dir, std::filesystem::path("/elsewhere/baselines"));
  EXPECT_EQ(s.candidate_dir, std::filesystem::path("/tmp/cand"));
}

TEST(Settings, EmptyBaselineFolderIsRejected) {
  EXPECT_TRUE(mentions(rejection({{"BANKGATE_BASELINE_DIR", ""}}), "BANKGATE_BASELINE_DIR"));
}

TEST(Settings, EmptyCandidateFolderIsRejected) {
  EXPECT_TRUE(mentions(rejection({{"BANKGATE_CANDIDATE_DIR", ""}}), "BANKGATE_CANDIDATE_DIR"));
}

}  // namespace

namespace {

TEST(Settings, LockTimeoutDefaultsAndAcceptsSeconds) {
  EXPECT_EQ(load({}).lock_timeout_s, Settings::default_lock_timeout_s);
  EXPECT_EQ(load({{"BANKGATE_LOCK_TIMEOUT", "30"}}).lock_timeout_s, 30);
}

TEST(Settings, LockTimeoutRejectsWhatIsNoNumberOfSeconds) {
  for (const char* value : {"0", "-5", "ten", "1e9", "9999999"})
    EXPECT_NE(rejection({{"BANKGATE_LOCK_TIMEOUT", value}}).find("BANKGATE_LOCK_TIMEOUT='" + std::string(value) + "'"),
              std::string::npos)
        << value;
}

}  // namespace

// run-suite shows a suite process only its allotted GPU; the entry must name the same GPU the index did here.
TEST(Settings, VisibleDevicesForAChildNameTheSameGpu) {
  EXPECT_EQ(bankgate::gate::visible_devices_for(1, std::nullopt), "1");
  EXPECT_EQ(bankgate::gate::visible_devices_for(0, std::nullopt), "0");
  EXPECT_EQ(bankgate::gate::visible_devices_for(1, "2,3"), "3");
  EXPECT_EQ(bankgate::gate::visible_devices_for(0, "GPU-8f1c, GPU-77aa"), "GPU-8f1c");
  EXPECT_EQ(bankgate::gate::visible_devices_for(1, "GPU-8f1c, GPU-77aa"), "GPU-77aa");
  EXPECT_EQ(bankgate::gate::visible_devices_for(2, "2,3"), std::nullopt);
  EXPECT_EQ(bankgate::gate::visible_devices_for(0, ""), std::nullopt);
  EXPECT_EQ(bankgate::gate::visible_devices_for(1, "4,,5"), std::nullopt);
  EXPECT_EQ(bankgate::gate::visible_devices_for(-1, std::nullopt), std::nullopt);
}

// What run-suite tells the suite process it starts (gtest/src/main.cpp reads it through these).
namespace {

TEST(Settings, NoResultFilesOutsideRunSuite) {
  EXPECT_EQ(result_file_settings(lookup_in({})), std::nullopt);
  EXPECT_EQ(result_file_settings(lookup_in({{"BANKGATE_RUN_MANIFEST", ""}})), std::nullopt);
  EXPECT_EQ(result_file_settings(with_manifest("command-only", {})),
            std::nullopt);  // the command's, before run-suite's
}

TEST(Settings, ResultFilesWithTheirRunningFile) {
  protocol::RunManifest m;
  m.results_dir = "/r";
  m.running_file = "/r/.s.0.running";
  const auto files = result_file_settings(with_manifest("running", m));
  ASSERT_TRUE(files);
  EXPECT_EQ(files->results_dir, "/r");
  EXPECT_EQ(files->running_file, "/r/.s.0.running");
  EXPECT_EQ(files->claims_dir, std::nullopt);
}

TEST(Settings, ResultFilesNameARunningFileOfTheirOwnWhereRunSuiteNamesNone) {
  protocol::RunManifest m;
  m.results_dir = "/r";
  const auto files = result_file_settings(with_manifest("no-running", m));
  ASSERT_TRUE(files);
  EXPECT_EQ(files->running_file, std::filesystem::path("/r/.running"));
}

TEST(Settings, ShardsClaimTestsWithTheirNumber) {
  protocol::RunManifest m;
  m.results_dir = "/r";
  m.claims_dir = "/r/.claims/s.1-2";
  m.shard = 3;
  const auto files = result_file_settings(with_manifest("claims", m));
  ASSERT_TRUE(files);
  EXPECT_EQ(files->claims_dir, std::filesystem::path("/r/.claims/s.1-2"));
  EXPECT_EQ(files->shard, 3);
  EXPECT_EQ(claims_folder(with_manifest("claims", m)), std::filesystem::path("/r/.claims/s.1-2"));
  EXPECT_EQ(claims_folder(lookup_in({})), std::nullopt);
}

TEST(Settings, TheManifestDecidesOverTheUsersVariables) {
  protocol::RunManifest m;
  m.require_gpu = false;
  m.attribute = true;
  m.baseline_dir = "/scratch/baselines";
  m.candidate_dir = "/run/candidates";
  m.device = 0;
  const Settings s = load_settings(
      with_manifest(
          "decides", m,
          {{"BANKGATE_REQUIRE_GPU", "1"}, {"BANKGATE_DEVICE", "3"}, {"BANKGATE_BASELINE_DIR", "/user/baselines"}}),
      default_baselines, default_candidates);
  EXPECT_FALSE(s.require_gpu);
  EXPECT_TRUE(s.attribute);
  EXPECT_EQ(s.baseline_dir, "/scratch/baselines");
  EXPECT_EQ(s.candidate_dir, "/run/candidates");
  EXPECT_EQ(s.device, 0);
  EXPECT_EQ(baseline_dir_override(with_manifest("decides", m)), "/scratch/baselines");
}

// The command writes the suite-level settings of its own environment into the manifest (cli/suite_run.cpp): a
// suite process or verdict step of its run whose environment says otherwise follows the manifest.
TEST(Settings, TheManifestsSuiteLevelSettingsDecideOverTheProcesssOwn) {
  protocol::RunManifest m;
  m.launch_only = false;
  m.fail_on_speedup = true;
  m.lock_timeout_s = 30;
  const EnvLookup lookup = with_manifest(
      "suite-level", m,
      {{"BANKGATE_LAUNCH_ONLY", "1"}, {"BANKGATE_FAIL_ON_SPEEDUP", "0"}, {"BANKGATE_LOCK_TIMEOUT", "not a number"}});
  const Settings s = load_settings(lookup, default_baselines, default_candidates);
  EXPECT_FALSE(s.launch_only);
  EXPECT_TRUE(s.fail_on_speedup);
  EXPECT_EQ(s.lock_timeout_s, 30);
  EXPECT_TRUE(fail_on_speedup(lookup));  // what a verdict step and the summary judge with
  m.fail_on_speedup = false;
  EXPECT_FALSE(fail_on_speedup(with_manifest("suite-level-no", m, {{"BANKGATE_FAIL_ON_SPEEDUP", "1"}})));
}

// A suite run by hand or by plain ctest has no manifest, or one without them: the variables still steer it.
TEST(Settings, SuiteLevelSettingsTheManifestLeavesOutComeFromTheVariables) {
  const Environment environment{
      {"BANKGATE_LAUNCH_ONLY", "1"}, {"BANKGATE_FAIL_ON_SPEEDUP", "yes"}, {"BANKGATE_LOCK_TIMEOUT", "45"}};
  for (const EnvLookup& lookup : {lookup_in(environment), with_manifest("suite-level-unsaid", {}, environment)}) {
    const SuiteLevelSettings s = suite_level_settings(lookup);
    EXPECT_TRUE(s.launch_only);
    EXPECT_TRUE(s.fail_on_speedup);
    EXPECT_EQ(s.lock_timeout_s, 45);
    EXPECT_TRUE(fail_on_speedup(lookup));
  }
  const SuiteLevelSettings unset = suite_level_settings(lookup_in({}));
  EXPECT_FALSE(unset.launch_only);
  EXPECT_FALSE(unset.fail_on_speedup);
  EXPECT_EQ(unset.lock_timeout_s, Settings::default_lock_timeout_s);
}

// Every setting asks for the manifest; the process parses each manifest file once (run_manifest.cpp).
TEST(Settings, EveryAccessorIsServedByOneParseOfTheManifest) {
  static int repeat = 0;  // a text of its own on each --gtest_repeat, which an earlier parse cannot serve
  protocol::RunManifest m;
  m.run_id = "parsed-once-" + std::to_string(++repeat);
  m.suite_filter = "Transpose.*";
  m.gpus = 2;
  m.results_dir = "/r";
  m.claims_dir = "/r/.claims/s";
  m.baseline_dir = "/scratch/baselines";
  m.fail_on_speedup = true;
  m.source = SourceTree{"abc123", false};
  const EnvLookup lookup = with_manifest("parsed-once", m);
  const std::size_t before = protocol::manifest_parses();
  EXPECT_EQ(load_settings(lookup, default_baselines, default_candidates).baseline_dir, "/scratch/baselines");
  EXPECT_EQ(suite_filter(lookup), "Transpose.*");
  EXPECT_EQ(run_id(lookup), m.run_id);
  EXPECT_EQ(gpus_of_the_run(lookup), 2);
  EXPECT_EQ(claims_folder(lookup), std::filesystem::path("/r/.claims/s"));
  ASSERT_TRUE(result_file_settings(lookup));
  EXPECT_EQ(baseline_dir_override(lookup), "/scratch/baselines");
  EXPECT_TRUE(fail_on_speedup(lookup));
  EXPECT_EQ(source_tree(lookup).commit, "abc123");
  EXPECT_EQ(protocol::manifest_parses() - before, 1u);
  // Another manifest written to the same file is parsed afresh, never answered from the first.
  m.run_id = *m.run_id + "-next";
  EXPECT_EQ(run_id(with_manifest("parsed-once", m)), m.run_id);
  EXPECT_EQ(protocol::manifest_parses() - before, 2u);
}

TEST(Settings, WhatTheManifestLeavesOutTheUserDecides) {
  const Settings s =
      load_settings(with_manifest("leaves", {}, {{"BANKGATE_REQUIRE_GPU", "1"}, {"BANKGATE_DEVICE", "3"}}),
                    default_baselines, default_candidates);
  EXPECT_TRUE(s.require_gpu);
  EXPECT_EQ(s.device, 3);
  EXPECT_EQ(s.baseline_dir, default_baselines);
}

TEST(Settings, AnUnreadableManifestIsRefusedNamingTheVariable) {
  try {
    load_settings(lookup_in({{"BANKGATE_RUN_MANIFEST", "/no/such/manifest.json"}}), default_baselines,
                  default_candidates);
    ADD_FAILURE() << "a missing manifest was accepted";
  } catch (const SettingsError& e) {
    EXPECT_TRUE(mentions(e.what(), "BANKGATE_RUN_MANIFEST"));
    EXPECT_TRUE(mentions(e.what(), "/no/such/manifest.json"));
  }
}

TEST(Settings, BaselineOverrideAsGiven) {
  EXPECT_EQ(baseline_dir_override(lookup_in({})), std::nullopt);
  EXPECT_EQ(baseline_dir_override(lookup_in({{"BANKGATE_BASELINE_DIR", "/b"}})), "/b");
}

TEST(Settings, LockFolderIsTmpdirElseTmp) {
  EXPECT_EQ(lock_folder(lookup_in({})), std::filesystem::path("/tmp"));
  EXPECT_EQ(lock_folder(lookup_in({{"TMPDIR", ""}})), std::filesystem::path("/tmp"));
  EXPECT_EQ(lock_folder(lookup_in({{"TMPDIR", "/scratch"}})), std::filesystem::path("/scratch"));
}

}  // namespace

// What run-suite reads of the command's run.
namespace {

TEST(Settings, SuiteFilterAndRunIdAreTheCommandsManifests) {
  EXPECT_EQ(suite_filter(lookup_in({})), "");
  EXPECT_EQ(run_id(lookup_in({})), std::nullopt);
  protocol::RunManifest m;
  m.suite_filter = "A.*-A.slow";
  m.run_id = "123-4567_a";
  m.gpus = 2;
  EXPECT_EQ(suite_filter(with_manifest("command", m)), "A.*-A.slow");
  EXPECT_EQ(run_id(with_manifest("command", m)), "123-4567_a");
  EXPECT_EQ(gpus_of_the_run(with_manifest("command", m, {{"BANKGATE_GPUS", "4"}})), 2);
  EXPECT_EQ(gpus_of_the_run(lookup_in({{"BANKGATE_GPUS", "4"}})), 4);
}

TEST(Settings, DeviceIsChosenWhenSetToAnything) {
  EXPECT_FALSE(device_chosen(lookup_in({})));
  EXPECT_FALSE(device_chosen(lookup_in({{"BANKGATE_DEVICE", ""}})));
  EXPECT_TRUE(device_chosen(lookup_in({{"BANKGATE_DEVICE", "1"}})));
}

}  // namespace

// What promote reads: CI, by the rule ci/lib.sh's bankgate_is_ci applies too, and the provenance.
namespace {

TEST(Settings, CiIsAFlag) {
  EXPECT_FALSE(running_in_ci(lookup_in({})));
  for (const char* value : {"1", "true", "YES", "On"}) EXPECT_TRUE(running_in_ci(lookup_in({{"CI", value}}))) << value;
  for (const char* value : {"", "0", "False", "no", "OFF"})
    EXPECT_FALSE(running_in_ci(lookup_in({{"CI", value}}))) << value;
}

TEST(Settings, CiOfAnotherValueIsRejectedRatherThanGuessed) {
  try {
    running_in_ci(lookup_in({{"CI", "maybe"}}));
    ADD_FAILURE() << "CI=maybe was accepted";
  } catch (const SettingsError& e) {
    EXPECT_TRUE(mentions(e.what(), "CI='maybe'"));
  }
}

TEST(Settings, SourceTreeOfPromotedBaselines) {
  const SourceTree unknown = source_tree(lookup_in({}));
  EXPECT_EQ(unknown.commit, "unknown");
  EXPECT_FALSE(unknown.dirty);
  const SourceTree given = source_tree(lookup_in({{"BANKGATE_GIT_COMMIT", "0123abcd"}, {"BANKGATE_GIT_DIRTY", "1"}}));
  EXPECT_EQ(given.commit, "0123abcd");
  EXPECT_TRUE(given.dirty);
  EXPECT_THROW(source_tree(lookup_in({{"BANKGATE_GIT_DIRTY", "perhaps"}})), SettingsError);
}

}  // namespace

// What the command's console reads: NO_COLOR, by no-color.org's rule.
namespace {

TEST(Settings, NoColorOfAnyValueButEmptyRefusesColour) {
  EXPECT_FALSE(colour_refused(lookup_in({})));
  EXPECT_FALSE(colour_refused(lookup_in({{"NO_COLOR", ""}})));  // set but empty: as unset
  for (const char* value : {"1", "0", "false", "yes please"})
    EXPECT_TRUE(colour_refused(lookup_in({{"NO_COLOR", value}}))) << value;
}

}  // namespace
