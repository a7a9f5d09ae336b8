// The kernel's stated ratios against what was measured: only what does not hold is said, and what is said never
// reads as holding. On the committed H200 record of AsyncCopy.Async16 (4 cp.async transactions per request, as
// its source says), and that record with one warp's 8 cp.async writes made 2-way conflicting, as a planted
// regression does: 8 more transactions on 131072, a ratio of 4.0002 that three decimals show as 4.

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include <bankgate/gate/store/baseline_folder.hpp>
#include <bankgate/gate/rules/baseline.hpp>
#include <bankgate/gate/rules/expectation_check.hpp>

namespace {

using namespace bankgate::gate;

constexpr const char* cp_async_wavefronts = "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum";
constexpr const char* cp_async_ratio = "cp_async_transactions_per_request";

TestRecord committed_async16() {
  const SuiteFile file = read_suite_file(std::filesystem::path(BANKGATE_SOURCE_DIR) / "baselines" / "sm_90" /
                                         "nvidia-h200" / "AsyncCopy.json");
  return file.tests.at("Async16");
}

// The record as the suite makes it from the counters: the ratio derived from the two counts.
TestRecord with_cp_async_wavefronts(TestRecord r, double wavefronts) {
  r.counters[cp_async_wavefronts].value = wavefronts;
  r.derived[cp_async_ratio] = wavefronts / r.counters.at("smsp__sass_inst_executed_op_ldgsts.sum").value;
  return r;
}

TEST(ExpectationCheck, AnExpectationThatHoldsIsNotMentioned) {
  const TestRecord r = committed_async16();
  ASSERT_TRUE(r.expected.has_value());
  ASSERT_EQ(r.expected->ratios.at(cp_async_ratio), 4.0);
  EXPECT_TRUE(unmet_expectations(r).empty());
}

TEST(ExpectationCheck, AnUnmetRatioShowsTheDigitsThatDifferAndTheCountsBehindIt) {
  const TestRecord r = with_cp_async_wavefronts(committed_async16(), 131072 + 8);
  const std::vector<std::string> unmet = unmet_expectations(r);
  ASSERT_EQ(unmet.size(), 1u);  // the other five stated ratios still hold
  const std::string& text = unmet.front();
  EXPECT_NE(text.find("cp.async shared transactions per request is 4.0002 "), std::string::npos) << text;
  EXPECT_NE(text.find("(131080 cp.async shared transactions / 32768 cp.async requests)"), std::string::npos) << text;
  EXPECT_NE(text.find("the kernel's source says 4: "), std::string::npos) << text;
  EXPECT_EQ(text.find("is 4,"), std::string::npos) << text;
}

TEST(ExpectationCheck, ARatioTheRecordLacksIsNamed) {
  TestRecord r = committed_async16();
  r.derived.erase(cp_async_ratio);
  const std::vector<std::string> unmet = unmet_expectations(r);
  ASSERT_EQ(unmet.size(), 1u);
  EXPECT_NE(unmet.front().find(
                "states cp_async_transactions_per_request, which is not a ratio of the metric table or was not "
                "measured"),
            std::string::npos);
}

TEST(ExpectationCheck, NumbersAreWrittenApartOnlyWhereThreeDecimalsHideTheDifference) {
  EXPECT_EQ(format_apart(4.000244140625, 4), "4.0002");
  EXPECT_EQ(format_apart(1.0009460160517563, 1), "1.001");
  EXPECT_EQ(format_apart(4, 4), "4");
  EXPECT_EQ(format_apart(0.72727272727, 0.7272727), "0.72727273");
}

}  // namespace
