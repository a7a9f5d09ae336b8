// The merge of a split gate's parts (bankgate/gate/shard_merge.hpp): what makes reports one whole split, and the
// "shard" record of summary.json read back as written. Report folders of real runs: tests/unit/shard_gate_test.sh.

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <bankgate/gate/reports/shard_merge.hpp>

namespace {

using namespace bankgate::gate;

const std::vector<std::string> catalogue{"A", "B", "C"};

ShardReport part(int index, int count, std::vector<std::string> suites, std::vector<std::string> all = catalogue) {
  return {"shards/" + std::to_string(index), {index, count, std::move(suites), std::move(all)}};
}

// The message check_shard_reports throws; empty where it accepts the parts.
std::string refusal(const std::vector<ShardReport>& reports) {
  try {
    check_shard_reports(reports);
    return "";
  } catch (const ShardMergeError& e) {
    return e.what();
  }
}

TEST(ShardMergeCheck, AcceptsEveryPartOnceInAnyOrder) {
  EXPECT_EQ(refusal({part(2, 3, {"B"}), part(1, 3, {"A"}), part(3, 3, {"C"})}), "");
  EXPECT_EQ(refusal({part(1, 4, {"A", "C"}), part(2, 4, {"B"}), part(3, 4, {}), part(4, 4, {})}),
            "");  // idle parts too
}

TEST(ShardMergeCheck, RefusesAMissingPart) {
  EXPECT_NE(refusal({part(1, 3, {"A"}), part(3, 3, {"C"})}).find("shard 2 of 3 is missing"), std::string::npos);
}

TEST(ShardMergeCheck, RefusesAPartPresentTwice) {
  std::vector<ShardReport> reports{part(1, 3, {"A"}), part(2, 3, {"B"}), part(3, 3, {"C"}), part(2, 3, {"B"})};
  reports.back().folder = "shards/again";
  EXPECT_NE(refusal(reports).find("shard 2 of 3 is present 2 times: shards/2, shards/again"), std::string::npos)
      << refusal(reports);
}

TEST(ShardMergeCheck, RefusesPartsOfDifferentN) {
  const std::string why = refusal({part(1, 2, {"A", "B"}), part(2, 3, {"B"}), part(3, 3, {"C"})});
  EXPECT_NE(why.find("the shards disagree on their number N: N = 2 in shards/1; N = 3 in shards/2, shards/3"),
            std::string::npos)
      << why;
}

TEST(ShardMergeCheck, RefusesPartsOfDifferentSplits) {
  const std::string why = refusal({part(1, 2, {"A"}, {"A", "B"}), part(2, 2, {"B", "C"})});
  EXPECT_NE(why.find("are parts of different splits"), std::string::npos) << why;
}

TEST(ShardMergeCheck, RefusesASuiteInTwoPartsOrInNone) {
  EXPECT_NE(refusal({part(1, 2, {"A", "B"}), part(2, 2, {"B", "C"})}).find("suite B was run by 2 shards"),
            std::string::npos);
  EXPECT_NE(refusal({part(1, 2, {"A"}), part(2, 2, {"C"})}).find("suite B of the catalogue was run by no shard"),
            std::string::npos);
  EXPECT_NE(refusal({part(1, 2, {"A", "B"}), part(2, 2, {"C", "D"})})
                .find("suite D was run by shard 2 but is not in the catalogue"),
            std::string::npos);
}

TEST(ShardMergeCheck, RefusesNothingToMerge) {
  EXPECT_NE(refusal({}).find("no shard's report to merge"), std::string::npos);
}

TEST(ShardRecordJson, ReadsBackWhatIsWritten) {
  const ShardRecord written{2, 3, {"B", "A"}, {"C", "B", "A"}};
  const ShardRecord read = shard_record_from_json(to_json(written), "summary.json");
  EXPECT_EQ(read.index, 2);
  EXPECT_EQ(read.count, 3);
  EXPECT_EQ(read.suites, (std::vector<std::string>{"A", "B"}));
  EXPECT_EQ(read.catalogue, (std::vector<std::string>{"A", "B", "C"}));
}

TEST(ShardRecordJson, RefusesARecordThatIsNoPart) {
  const auto refused = [](const nlohmann::json& shard, const std::string& why) {
    try {
      shard_record_from_json(shard, "shards/1/summary.json");
      ADD_FAILURE() << shard.dump() << " was read";
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find("shards/1/summary.json: \"shard\" " + why), std::string::npos) << e.what();
    }
  };
  const nlohmann::json good = to_json(ShardRecord{1, 2, {"A"}, {"A", "B"}});
  refused(nlohmann::json::array(), "is not an object");
  for (const auto& [key, value] :
       {std::pair{"index", nlohmann::json(0)}, {"index", nlohmann::json("1")}, {"count", nlohmann::json(1025)}}) {
    nlohmann::json bad = good;
    bad[key] = value;
    refused(bad, std::string("has no \"") + key + "\" from 1 to 1024");
  }
  nlohmann::json bad = good;
  bad["suites"] = {"A", 1};
  refused(bad, "has no \"suites\" list of names");
  bad = good;
  bad.erase("catalogue");
  refused(bad, "has no \"catalogue\" list of names");
  bad = good;
  bad["index"] = 3;
  refused(bad, "says part 3 of 2");
}

}  // namespace
