// The run manifest between bankgate's processes: what one writes the next reads back whole, and a file that is no
// manifest is refused with its name and the field at fault.

#include <gtest/gtest.h>

#include <string>

#include <bankgate/gate/protocol/run_manifest.hpp>

namespace {

namespace protocol = bankgate::gate::protocol;
using bankgate::gate::SettingsError;

std::string refusal(const std::string& text) {
  try {
    protocol::parse_manifest(text, "/run/m.json");
  } catch (const SettingsError& e) {
    return e.what();
  }
  ADD_FAILURE() << "accepted: " << text;
  return "";
}

TEST(RunManifest, WhatIsWrittenIsReadBackWhole) {
  protocol::RunManifest m;
  m.run_id = "4321-99_a";
  m.attribute = true;
  m.require_gpu = false;
  m.candidate_dir = "/b/run/candidates";
  m.baseline_dir = "/b/compare/baselines";
  m.suite_filter = "Transpose.*:-Transpose.slow";
  m.gpus = 4;
  m.source = bankgate::gate::SourceTree{"0123abcd", true};
  m.results_dir = "/b/gtest-results";
  m.running_file = "/b/gtest-results/.s.1.running";
  m.claims_dir = "/b/gtest-results/.claims/s.4321-99_a";
  m.shard = 1;
  m.device = 0;
  m.launch_only = true;
  m.fail_on_speedup = false;
  m.lock_timeout_s = 30;
  const protocol::RunManifest back = protocol::parse_manifest(protocol::manifest_json(m), "test");
  EXPECT_EQ(protocol::manifest_json(back), protocol::manifest_json(m));
  EXPECT_EQ(back.run_id, m.run_id);
  EXPECT_EQ(back.attribute, true);
  EXPECT_EQ(back.require_gpu, false);
  EXPECT_EQ(back.gpus, 4);
  EXPECT_EQ(back.device, 0);
  EXPECT_EQ(back.shard, 1);
  EXPECT_EQ(back.launch_only, true);
  EXPECT_EQ(back.fail_on_speedup, false);
  EXPECT_EQ(back.lock_timeout_s, 30);
  ASSERT_TRUE(back.source);
  EXPECT_EQ(back.source->commit, "0123abcd");
  EXPECT_TRUE(back.source->dirty);
}

TEST(RunManifest, WhatIsLeftOutStaysUnsaid) {
  const protocol::RunManifest back = protocol::parse_manifest(protocol::manifest_json({}), "test");
  EXPECT_FALSE(back.attribute);
  EXPECT_FALSE(back.require_gpu);
  EXPECT_FALSE(back.gpus);
  EXPECT_FALSE(back.device);
  EXPECT_FALSE(back.results_dir);
  EXPECT_FALSE(back.source);
  EXPECT_FALSE(back.launch_only);
  EXPECT_FALSE(back.fail_on_speedup);
  EXPECT_FALSE(back.lock_timeout_s);
}

TEST(RunManifest, WhatIsNoManifestIsRefusedNamingFileAndField) {
  EXPECT_NE(refusal("not json").find("/run/m.json is not a JSON object"), std::string::npos);
  EXPECT_NE(refusal("[]").find("is not a JSON object"), std::string::npos);
  EXPECT_NE(refusal(R"({"version": 2})").find("is not of version 1"), std::string::npos);
  EXPECT_NE(refusal(R"({})").find("is not of version 1"), std::string::npos);
  EXPECT_NE(refusal(R"({"version": 1, "results": "/r"})").find("unknown field \"results\""), std::string::npos);
  EXPECT_NE(refusal(R"({"version": 1, "attribute": "yes"})").find("\"attribute\" of the wrong type"),
            std::string::npos);
  EXPECT_NE(refusal(R"({"version": 1, "gpus": 0})").find("\"gpus\" out of range"), std::string::npos);
  EXPECT_NE(refusal(R"({"version": 1, "lock_timeout_s": 0})").find("\"lock_timeout_s\" out of range"),
            std::string::npos);
  EXPECT_NE(refusal(R"({"version": 1, "fail_on_speedup": 1})").find("\"fail_on_speedup\" of the wrong type"),
            std::string::npos);
  EXPECT_NE(refusal(R"({"version": 1, "shard": -1})").find("\"shard\" of the wrong type"), std::string::npos);
  EXPECT_NE(refusal(R"({"version": 1, "results_dir": ""})").find("empty \"results_dir\""), std::string::npos);
  EXPECT_NE(refusal(R"({"version": 1, "source": "abc"})").find("\"source\" that is not an object"), std::string::npos);
  EXPECT_NE(refusal(R"({"version": 1, "source": {"commit": 5}})").find("\"commit\" of the wrong type"),
            std::string::npos);
  EXPECT_NE(refusal(R"({"version": 1, "source": {"branch": "x"}})").find("unknown field \"branch\""),
            std::string::npos);
}

// The run id names a claims folder: nothing that could lead out of it is taken.
TEST(RunManifest, ARunIdThatIsNoPlainNameIsRefused) {
  for (const char* id : {"../x", "a/b", "a b", ".", ""})
    EXPECT_NE(refusal(std::string(R"({"version": 1, "run_id": ")") + id + "\"}").find("run_id"), std::string::npos)
        << id;
}

TEST(RunManifest, EveryRefusalSaysHowToGoOn) {
  EXPECT_NE(refusal("{").find("BANKGATE_RUN_MANIFEST unset"), std::string::npos);
}

}  // namespace
