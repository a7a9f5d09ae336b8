// A test's result record between the suite process and what reads it (verdict, summary): what the suite process
// writes is read back whole, whatever bytes a message holds; a file that is no record is refused, naming the
// field at fault; and the outcome follows from how GoogleTest ended the test and how far the gate got.

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <bankgate/gate/protocol/test_result.hpp>

namespace {

namespace fs = std::filesystem;
using namespace bankgate::gate;

TestResultRecord regressed_record() {
  TestResultRecord r;
  r.suite = "Transpose";
  r.test = "Swizzled/Square.t/3";
  r.outcome = Outcome::regressed;
  r.seconds = 0.75;
  r.messages = {"shared load transactions CHANGED\n  measured 1024\n  baseline 32", "a second failure"};
  r.properties = {{"device", "0 (0000:19:00.0)"}, {"median_ns", "2048"}};
  r.wrong_output = true;
  Finding counter{.metric = "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
                  .measured = 1024,
                  .baseline = 32,
                  .tolerance = "exact",
                  .verdict = Verdict::counter_changed,
                  .kernel = "first"};
  Finding duration{.metric = duration_metric,
                   .timing = true,
                   .measured = 2100.5,
                   .baseline = 2000,
                   .tolerance = "+3% +64 ns, significant at 99%",
                   .verdict = Verdict::slower,
                   .detail = "ratio 1.050 (99% interval 1.04..1.06)"};
  Finding missing{.metric = "launch__registers_per_thread", .baseline = 32, .verdict = Verdict::not_measured};
  r.findings = {counter, duration, missing};
  return r;
}

std::string refusal(const std::string& text) {
  try {
    parse_result_record(text, "/r/T.t.result.json");
  } catch (const ResultRecordError& e) {
    return e.what();
  }
  ADD_FAILURE() << "accepted: " << text;
  return "";
}

// The record as written, with `edit` applied to its text.
std::string edited(const std::string& from, const std::string& to) {
  std::string text = result_record_json(regressed_record());
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

TEST(TestResult, WhatTheSuiteProcessWritesIsReadBackWhole) {
  const TestResultRecord r = regressed_record();
  const TestResultRecord back = parse_result_record(result_record_json(r), "test");
  EXPECT_EQ(back.suite, r.suite);
  EXPECT_EQ(back.test, r.test);
  EXPECT_EQ(back.outcome, Outcome::regressed);
  EXPECT_DOUBLE_EQ(back.seconds, 0.75);
  EXPECT_EQ(back.messages, r.messages);
  EXPECT_EQ(back.properties, r.properties);
  EXPECT_TRUE(back.wrong_output);
  ASSERT_EQ(back.findings.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(back.findings[i].metric, r.findings[i].metric);
    EXPECT_EQ(back.findings[i].timing, r.findings[i].timing);
    EXPECT_DOUBLE_EQ(back.findings[i].measured, r.findings[i].measured);
    EXPECT_DOUBLE_EQ(back.findings[i].baseline, r.findings[i].baseline);
    EXPECT_EQ(back.findings[i].tolerance, r.findings[i].tolerance);
    EXPECT_EQ(back.findings[i].verdict, r.findings[i].verdict);
    EXPECT_EQ(back.findings[i].detail, r.findings[i].detail);
    EXPECT_EQ(back.findings[i].kernel, r.findings[i].kernel);
  }
}

// A test prints what it likes: bytes that are not UTF-8 are written as U+FFFD, and the record still reads.
TEST(TestResult, AMessageOfAnyBytesIsWrittenAsUtf8) {
  TestResultRecord r = regressed_record();
  r.messages = {std::string("cut short \xff\xfe and \xe2\x82"), std::string("escape \x1b[2J and a nul \0 byte", 28)};
  const TestResultRecord back = parse_result_record(result_record_json(r), "test");
  EXPECT_EQ(back.messages[0], "cut short \xEF\xBF\xBD\xEF\xBF\xBD and \xEF\xBF\xBD");
  EXPECT_EQ(back.messages[1], std::string("escape \x1b[2J and a nul \0 byte", 28));
}

TEST(TestResult, ARecordThatIsNoneIsRefusedNamingTheField) {
  EXPECT_NE(refusal("not json").find("/r/T.t.result.json is not a JSON object"), std::string::npos);
  EXPECT_NE(refusal("[1]").find("is not a JSON object"), std::string::npos);
  EXPECT_NE(refusal(edited("\"wrong_output\"", "\"extra\": 1, \"wrong_output\"")).find("unknown field \"extra\""),
            std::string::npos);
  EXPECT_NE(refusal(edited("bankgate-test-result", "bankgate-summary")).find("no test result record"),
            std::string::npos);
  EXPECT_NE(refusal(edited("\"schema_version\": 1", "\"schema_version\": 2")).find("another schema version"),
            std::string::npos);
  EXPECT_NE(refusal(edited("\"regressed\"", "\"fine\"")).find("outcome \"fine\""), std::string::npos);
  EXPECT_NE(refusal(edited("\"seconds\": 0.75", "\"seconds\": -1")).find("\"seconds\""), std::string::npos);
  EXPECT_NE(refusal(edited("\"seconds\": 0.75", "\"seconds\": \"0.75\"")).find("\"seconds\""), std::string::npos);
  EXPECT_NE(refusal(edited("\"a second failure\"", "7")).find("message that is not text"), std::string::npos);
  EXPECT_NE(refusal(edited("\"2048\"", "2048")).find("property \"median_ns\""), std::string::npos);
  EXPECT_NE(refusal(edited("\"counter_changed\"", "\"worse\"")).find("verdict \"worse\""), std::string::npos);
  EXPECT_NE(refusal(edited("\"tolerance\": \"exact\"", "\"tolerance\": 0")).find("\"tolerance\""), std::string::npos);
  EXPECT_NE(refusal(edited("\"detail\": \"\"", "\"detail\": \"\", \"why\": 1")).find("unknown field \"why\""),
            std::string::npos);
  // Every refusal says where a good record comes from.
  EXPECT_NE(refusal("{}").find("run the tests again"), std::string::npos);
}

TEST(TestResult, TheOutcomeFollowsFromTheEndAndHowFarTheGateGot) {
  EXPECT_EQ(outcome_of(TestEnd::passed, true, true), Outcome::passed);
  EXPECT_EQ(outcome_of(TestEnd::skipped, false, false), Outcome::skipped);
  EXPECT_EQ(outcome_of(TestEnd::failed, true, true), Outcome::regressed);
  EXPECT_EQ(outcome_of(TestEnd::failed, true, false), Outcome::not_measured);  // no usable baseline
  EXPECT_EQ(outcome_of(TestEnd::failed, false, false), Outcome::not_measured);
  for (const Outcome o : {Outcome::passed, Outcome::regressed, Outcome::not_measured, Outcome::skipped})
    EXPECT_EQ(outcome_from_id(outcome_id(o)), o);
  EXPECT_FALSE(outcome_from_id("REGRESSED"));
}

class ResultFolder : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("bankgate-test-result-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "results");
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

TEST_F(ResultFolder, ARecordIsWrittenWholeAndReadFromItsPath) {
  const TestResultRecord r = regressed_record();
  write_result_record(dir_ / "results", r);
  const fs::path path = test_result_path(dir_ / "results", r.suite, r.test);
  EXPECT_EQ(path.filename(), "Transpose.Swizzled_Square.t_3.result.json");
  const auto back = read_result_record(path);
  ASSERT_TRUE(back);
  EXPECT_EQ(back->messages, r.messages);
  EXPECT_FALSE(read_result_record(dir_ / "results" / "Other.test.result.json"));
  EXPECT_FALSE(read_result_record(dir_ / "no-such-folder" / "Other.test.result.json"));
}

// A pull request's test writes the record: a FIFO in its place or a link out of the folder is refused at once.
TEST_F(ResultFolder, AFifoOrALinkOutOfTheFolderIsRefused) {
  ASSERT_EQ(::mkfifo((dir_ / "results" / "Fifo.t.result.json").c_str(), 0600), 0);
  EXPECT_THROW(read_result_record(dir_ / "results" / "Fifo.t.result.json"), ResultRecordError);
  std::ofstream(dir_ / "outside.json") << result_record_json(regressed_record());
  fs::create_symlink(dir_ / "outside.json", dir_ / "results" / "Linked.t.result.json");
  try {
    read_result_record(dir_ / "results" / "Linked.t.result.json");
    ADD_FAILURE() << "a link out of the results folder was read";
  } catch (const ResultRecordError& e) {
    EXPECT_NE(std::string(e.what()).find("leads outside"), std::string::npos) << e.what();
  }
}

}  // namespace
