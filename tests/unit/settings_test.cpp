// Environment settings, read through a fake environment so no test depends on the process's own.

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <optional>
#include <string>

#include <bankgate/harness/settings.hpp>

namespace {

using namespace bankgate::harness;
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

TEST(Settings, CTestResourceGroupSelectsTheDevice) {
  EXPECT_EQ(load({{"CTEST_RESOURCE_GROUP_0_GPUS", "id:1,slots:100"}}).device, 1);
  EXPECT_EQ(load({{"CTEST_RESOURCE_GROUP_0_GPUS", "id:7"}}).device, 7);
  EXPECT_EQ(load({{"CTEST_RESOURCE_GROUP_0_GPUS", "slots:100,id:2"}}).device, 2);
}

TEST(Settings, DeviceVariableOverridesCTestAssignment) {
  EXPECT_EQ(load({{"CTEST_RESOURCE_GROUP_0_GPUS", "id:1,slots:100"}, {"BANKGATE_DEVICE", "3"}}).device, 3);
  EXPECT_EQ(load({{"CTEST_RESOURCE_GROUP_0_GPUS", "id:1,slots:100"}, {"BANKGATE_DEVICE", "0"}}).device, 0);
}

TEST(Settings, CTestAssignmentWithoutIdIsRejected) {
  const std::string message = rejection({{"CTEST_RESOURCE_GROUP_0_GPUS", "slots:100"}});
  EXPECT_TRUE(mentions(message, "CTEST_RESOURCE_GROUP_0_GPUS"));
  EXPECT_TRUE(mentions(message, "slots:100"));
}

TEST(Settings, CTestAssignmentWithBadIdIsRejected) {
  const std::string message = rejection({{"CTEST_RESOURCE_GROUP_0_GPUS", "id:gpu1,slots:100"}});
  EXPECT_TRUE(mentions(message, "CTEST_RESOURCE_GROUP_0_GPUS"));
  EXPECT_TRUE(mentions(message, "gpu1"));
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
