// The baseline schema on disk: round trips, deterministic text, rejection of every malformed input with the
// file and the field named, atomic writes and the per-test candidate files.

#include <gtest/gtest.h>

#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <bankgate/gate/store/baseline_folder.hpp>
#include <bankgate/gate/store/atomic_file.hpp>
#include <bankgate/gate/rules/baseline.hpp>
#include <bankgate/gate/rules/baseline_json.hpp>
#include <bankgate/gate/store/candidates.hpp>
#include <bankgate/gate/rules/comparison.hpp>

namespace {

namespace fs = std::filesystem;
using namespace bankgate::gate;

constexpr const char* load_wavefronts = "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum";
constexpr const char* load_requests = "smsp__sass_inst_executed_op_shared_ld.sum";
constexpr const char* origin = "baselines/sm_90/nvidia-h200/SquareTile.json";

::testing::AssertionResult mentions(const std::string& text, const std::string& part) {
  if (text.find(part) != std::string::npos) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "\"" << text << "\" does not mention \"" << part << "\"";
}

std::string replaced(const std::string& text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  if (at == std::string::npos || text.find(from, at + 1) != std::string::npos) {
    ADD_FAILURE() << "the fixture should hold \"" << from << "\" exactly once";
    return text;
  }
  return text.substr(0, at) + to + text.substr(at + from.size());
}

std::string read_bytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<std::string> folder_entries(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir)) names.push_back(entry.path().filename().string());
  return names;
}

Provenance sample_provenance() {
  return {.gpu_name = "NVIDIA H200",
          .chip = "GH100",
          .compute_capability = "9.0",
          .multiprocessor_count = 132,
          .driver_version = 13000,
          .driver_release = "580.159.04",
          .cuda_runtime_version = 13000,
          .cupti_version = 130000,
          .git_commit = "0123abcd",
          .git_dirty = true,
          .date = "2001-02-03T04:05:06Z",
          .command = "tools/refresh-baselines.sh"};
}

TestRecord row_read_record() {
  TestRecord r;
  r.kernel = "setRowReadRow";
  r.correct = true;
  r.counters[load_wavefronts] = {1024, {}};
  r.counters[load_requests] = {1024, {Tolerance::Kind::relative, 0.05, "replays vary with warp scheduling"}};
  r.derived["shared_load_transactions_per_request"] = 1;
  r.expected = ExpectedRatios{{{"shared_load_transactions_per_request", 1}, {"global_store_sectors_per_request", 4}},
                              "row-major: 32 consecutive words, one per bank"};
  // The summary of the samples below (summarize_durations): a candidate's must be its samples'.
  r.timing = TimingSummary{
      .median_ns = 2048,
      .mad_ns = 8,
      .p10_ns = 2025.6,
      .p90_ns = 2086.6,
      .min_ns = 2016,
      .samples = 5,
      .median_se_ns = 12.5,
      .tolerance = {.relative = 0.05, .absolute_ns = 64, .reason = "shared runner", .compare_floor = 0.02},
      .l2 = "warm",
      .launches_per_sample = 1,
      .warmup_launches = 40,
      .dropped_samples = 0,
      .sm_clock_mhz = 1980};
  r.samples_ns = {2016, 2040, 2048, 2048.5, 2112};
  return r;
}

TestRecord col_read_record() {
  TestRecord r;
  r.kernel = "setColReadCol";
  r.correct = false;
  r.counters[load_wavefronts] = {32768, {Tolerance::Kind::absolute, 2, "one retried wavefront per block"}};
  r.derived["shared_load_transactions_per_request"] = 32;
  r.derived["shared_store_transactions_per_request"] = 1.25;
  r.timing = TimingSummary{.median_ns = 40960.25,
                           .mad_ns = 39.75,
                           .p10_ns = 40883.25,
                           .p90_ns = 40992.05,
                           .min_ns = 40864,
                           .samples = 3,
                           .median_se_ns = 0.5,
                           .tolerance = {.relative = 0.1, .absolute_ns = 32, .reason = "cold L2 varies"},
                           .l2 = "cold",
                           .launches_per_sample = 16,
                           .warmup_launches = 7,
                           .dropped_samples = 2,
                           .sm_clock_mhz = 1755.5};
  r.samples_ns = {40864, 40960.25, 41000};
  return r;
}

SuiteFile sample_suite() {
  SuiteFile f;
  f.suite = "SquareTile";
  f.gpu = {"sm_90", "nvidia-h200"};
  f.provenance = sample_provenance();
  f.tests["rowRead"] = row_read_record();
  f.tests["colRead"] = col_read_record();
  return f;
}

void expect_same_provenance(const Provenance& got, const Provenance& want) {
  EXPECT_EQ(got.gpu_name, want.gpu_name);
  EXPECT_EQ(got.chip, want.chip);
  EXPECT_EQ(got.compute_capability, want.compute_capability);
  EXPECT_EQ(got.multiprocessor_count, want.multiprocessor_count);
  EXPECT_EQ(got.driver_version, want.driver_version);
  EXPECT_EQ(got.driver_release, want.driver_release);
  EXPECT_EQ(got.cuda_runtime_version, want.cuda_runtime_version);
  EXPECT_EQ(got.cupti_version, want.cupti_version);
  EXPECT_EQ(got.git_commit, want.git_commit);
  EXPECT_EQ(got.git_dirty, want.git_dirty);
  EXPECT_EQ(got.date, want.date);
  EXPECT_EQ(got.command, want.command);
}

void expect_same_record(const TestRecord& got, const TestRecord& want) {
  EXPECT_EQ(got.kernel, want.kernel);
  EXPECT_EQ(got.correct, want.correct);
  ASSERT_EQ(got.counters.size(), want.counters.size());
  for (const auto& [name, counter] : want.counters) {
    SCOPED_TRACE(name);
    const auto it = got.counters.find(name);
    ASSERT_NE(it, got.counters.end());
    EXPECT_EQ(it->second.value, counter.value);
    EXPECT_EQ(it->second.tolerance.kind, counter.tolerance.kind);
    EXPECT_EQ(it->second.tolerance.amount, counter.tolerance.amount);
    EXPECT_EQ(it->second.tolerance.reason, counter.tolerance.reason);
  }
  EXPECT_EQ(got.derived, want.derived);
  ASSERT_EQ(got.expected.has_value(), want.expected.has_value());
  if (want.expected) {
    EXPECT_EQ(got.expected->ratios, want.expected->ratios);
    EXPECT_EQ(got.expected->why, want.expected->why);
  }
  ASSERT_EQ(got.timing.has_value(), want.timing.has_value());
  if (want.timing) {
    EXPECT_EQ(got.timing->median_ns, want.timing->median_ns);
    EXPECT_EQ(got.timing->mad_ns, want.timing->mad_ns);
    EXPECT_EQ(got.timing->p10_ns, want.timing->p10_ns);
    EXPECT_EQ(got.timing->p90_ns, want.timing->p90_ns);
    EXPECT_EQ(got.timing->min_ns, want.timing->min_ns);
    EXPECT_EQ(got.timing->samples, want.timing->samples);
    EXPECT_EQ(got.timing->tolerance.relative, want.timing->tolerance.relative);
    EXPECT_EQ(got.timing->tolerance.absolute_ns, want.timing->tolerance.absolute_ns);
    EXPECT_EQ(got.timing->tolerance.reason, want.timing->tolerance.reason);
    EXPECT_EQ(got.timing->tolerance.modes_ns, want.timing->tolerance.modes_ns);
    EXPECT_EQ(got.timing->tolerance.compare_floor, want.timing->tolerance.compare_floor);
    EXPECT_EQ(got.timing->median_se_ns, want.timing->median_se_ns);
    EXPECT_EQ(got.timing->l2, want.timing->l2);
    EXPECT_EQ(got.timing->launches_per_sample, want.timing->launches_per_sample);
    EXPECT_EQ(got.timing->warmup_launches, want.timing->warmup_launches);
    EXPECT_EQ(got.timing->dropped_samples, want.timing->dropped_samples);
    EXPECT_EQ(got.timing->sm_clock_mhz, want.timing->sm_clock_mhz);
  }
  EXPECT_EQ(got.samples_ns, want.samples_ns);
}

void expect_same_suite(const SuiteFile& got, const SuiteFile& want) {
  EXPECT_EQ(got.schema_version, want.schema_version);
  EXPECT_EQ(got.suite, want.suite);
  EXPECT_EQ(got.gpu, want.gpu);
  expect_same_provenance(got.provenance, want.provenance);
  ASSERT_EQ(got.tests.size(), want.tests.size());
  for (const auto& [name, record] : want.tests) {
    SCOPED_TRACE("test " + name);
    const auto it = got.tests.find(name);
    ASSERT_NE(it, got.tests.end());
    expect_same_record(it->second, record);
  }
}

// A hand-written file, so that each rejection test below breaks exactly one thing in text a person could write.
const std::string head = R"({
  "schema_version": 4,
  "suite": "SquareTile",
  "gpu": {"arch": "sm_90", "model": "nvidia-h200"},
  "provenance": {"gpu_name": "NVIDIA H200", "chip": "GH100", "compute_capability": "9.0", "multiprocessor_count": 132,
                 "driver_version": 13000, "driver_release": "580.159.04", "cuda_runtime_version": 13000, "cupti_version": 130000,
                 "git_commit": "0123abcd", "git_dirty": false, "date": "2026-11-21T23:59:00Z", "command": "by hand"},
)";

const std::string row_read_body = R"({
      "kernel": "setRowReadRow",
      "correct": true,
      "counters": {
        "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum": {"value": 1024, "tolerance": {"kind": "exact"}},
        "smsp__sass_inst_executed_op_shared_ld.sum": {"value": 1024, "tolerance": {"kind": "relative", "amount": 0.05, "reason": "replays"}}
      },
      "timing": {"median_ns": 2048, "mad_ns": 32, "p10_ns": 2016, "p90_ns": 2112, "min_ns": 2000, "samples": 5,
                 "median_se_ns": 10, "l2": "warm", "launches_per_sample": 1, "warmup_launches": 30,
                 "dropped_samples": 0, "sm_clock_mhz": 1980, "tolerance": {"relative": 0.05, "absolute_ns": 64, "reason": "shared runner"}}
    })";

std::string document_with_tests(const std::string& tests) { return head + "  \"tests\": {" + tests + "}\n}\n"; }
std::string valid_document() { return document_with_tests("\"rowRead\": " + row_read_body); }

// The message of the BaselineError that parsing `text` must raise; any other exception fails the test.
std::string rejection(const std::string& text, const std::set<std::string>* known_metrics = nullptr) {
  try {
    parse_suite_file(text, origin, known_metrics);
  } catch (const BaselineError& e) {
    return e.what();
  }
  ADD_FAILURE() << "parse_suite_file accepted invalid input:\n" << text;
  return {};
}

// A fresh folder per test, removed afterwards.
class TempDir : public ::testing::Test {
 protected:
  void SetUp() override {
    const ::testing::TestInfo* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() /
           ("bankgate-unit-" + std::to_string(::getpid()) + "-" + info->test_suite_name() + "-" + info->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ignored;
    fs::remove_all(dir_, ignored);
  }
  fs::path dir_;
};

// ---------------------------------------------------------------------------------------------------------------
// Schema round trip and deterministic text

TEST(BaselineSchema, RoundTripKeepsEveryField) {
  const SuiteFile original = sample_suite();
  const SuiteFile parsed = parse_suite_file(serialize_suite_file(original, Samples::keep), "round trip");
  expect_same_suite(parsed, original);
}

TEST(BaselineSchema, DroppingSamplesRemovesOnlyTheRawDurations) {
  const SuiteFile original = sample_suite();
  const std::string text = serialize_suite_file(original, Samples::drop);
  EXPECT_EQ(text.find("samples_ns"), std::string::npos) << text;

  SuiteFile expected = original;
  for (auto& [name, record] : expected.tests) record.samples_ns.clear();
  expect_same_suite(parse_suite_file(text, "dropped samples"), expected);
}

TEST(BaselineSchema, SerializationIsDeterministic) {
  const SuiteFile original = sample_suite();
  const std::string first = serialize_suite_file(original, Samples::keep);
  EXPECT_EQ(serialize_suite_file(original, Samples::keep), first);
  EXPECT_EQ(serialize_suite_file(parse_suite_file(first, "again"), Samples::keep), first);
}

TEST(BaselineSchema, KeysComeOutSorted) {
  const std::string text = serialize_suite_file(sample_suite(), Samples::keep);
  const std::vector<std::string> top = {"\"gpu\"", "\"provenance\"", "\"schema_version\"", "\"suite\"", "\"tests\""};
  for (std::size_t i = 1; i < top.size(); ++i)
    EXPECT_LT(text.find(top[i - 1]), text.find(top[i])) << top[i] << "\n" << text;
  EXPECT_LT(text.find("\"colRead\""), text.find("\"rowRead\""));
  const auto row = text.find("\"rowRead\"");
  const std::vector<std::string> record = {"\"correct\"", "\"counters\"",   "\"derived\"",
                                           "\"kernel\"",  "\"samples_ns\"", "\"timing\""};
  for (std::size_t i = 1; i < record.size(); ++i)
    EXPECT_LT(text.find(record[i - 1], row), text.find(record[i], row)) << record[i] << "\n" << text;
}

TEST(BaselineSchema, IntegralValuesHaveNoFraction) {
  const std::string text = serialize_suite_file(sample_suite(), Samples::keep);
  EXPECT_TRUE(mentions(text, "\"value\": 1024\n"));
  EXPECT_TRUE(mentions(text, "\"value\": 32768\n"));
  EXPECT_TRUE(mentions(text, "\"median_ns\": 2048,"));
  EXPECT_TRUE(mentions(text, "\"median_ns\": 40960.25,"));
  EXPECT_TRUE(mentions(text, "\"relative\": 0.05"));
  EXPECT_EQ(text.find(".0,"), std::string::npos) << text;
  EXPECT_EQ(text.find(".0\n"), std::string::npos) << text;
}

TEST(BaselineSchema, TextUsesTwoSpaceIndentAndEndsWithNewline) {
  const std::string text = serialize_suite_file(sample_suite(), Samples::keep);
  ASSERT_FALSE(text.empty());
  EXPECT_EQ(text.back(), '\n');
  EXPECT_EQ(text.rfind("\n}\n"), text.size() - 3);
  EXPECT_TRUE(mentions(text, "{\n  \"gpu\": {\n    \"arch\": \"sm_90\","));
}

TEST(BaselineSchema, HandWrittenFixtureIsValid) {
  // The rejection tests below each break this one file in one place; it must parse as it stands.
  const std::set<std::string> known = {load_wavefronts, load_requests};
  const SuiteFile file = parse_suite_file(valid_document(), origin, &known);
  ASSERT_EQ(file.tests.count("rowRead"), 1u);
  const TestRecord& r = file.tests.at("rowRead");
  EXPECT_EQ(r.counters.at(load_wavefronts).value, 1024.0);
  EXPECT_EQ(r.counters.at(load_requests).tolerance.kind, Tolerance::Kind::relative);
  EXPECT_EQ(r.counters.at(load_requests).tolerance.reason, "replays");
  ASSERT_TRUE(r.timing.has_value());
  EXPECT_EQ(r.timing->median_ns, 2048.0);
  EXPECT_TRUE(r.derived.empty());
  EXPECT_TRUE(r.samples_ns.empty());
}

// ---------------------------------------------------------------------------------------------------------------
// Rejected inputs: each error names the file and the field

TEST(BaselineErrors, TextThatIsNotJsonIsRejected) {
  const std::string message = rejection("this is not a baseline");
  EXPECT_TRUE(mentions(message, origin));
  EXPECT_TRUE(mentions(message, "not valid JSON"));
}

TEST(BaselineErrors, TruncatedFileIsRejected) {
  const std::string text = serialize_suite_file(sample_suite(), Samples::keep);
  const std::string message = rejection(text.substr(0, text.size() / 2));
  EXPECT_TRUE(mentions(message, origin));
  EXPECT_TRUE(mentions(message, "not valid JSON"));
}

// A file of the previous schema lacks the whole memory path: it is refused with its own error, which the
// refresh catches to replace the file, and a message that names the refresh.
TEST(BaselineErrors, PreviousSchemaVersionNamesTheRefresh) {
  const std::string old = replaced(valid_document(), "\"schema_version\": 4", "\"schema_version\": 3");
  try {
    parse_suite_file(old, origin);
    FAIL() << "a schema 3 file was accepted";
  } catch (const OldSchemaError& e) {
    EXPECT_EQ(e.version(), 3);
    EXPECT_TRUE(mentions(e.what(), origin));
    EXPECT_TRUE(mentions(e.what(), "field 'schema_version' is 3; this bankgate reads version 4"));
    EXPECT_TRUE(mentions(e.what(), "bankgate refresh --build"));
  }
}

TEST(BaselineErrors, UnknownExpectedRatioIsRejected) {
  const std::string text =
      replaced(valid_document(), "\"correct\": true,",
               "\"correct\": true, \"expected\": {\"ratios\": {\"bogus_per_request\": 1}, \"why\": \"x\"},");
  EXPECT_TRUE(mentions(rejection(text), "'tests.rowRead.expected.ratios.bogus_per_request' is not a ratio"));
}

TEST(BaselineErrors, OtherSchemaVersionIsRejected) {
  const std::string message = rejection(replaced(valid_document(), "\"schema_version\": 4", "\"schema_version\": 1"));
  EXPECT_TRUE(mentions(message, origin));
  EXPECT_TRUE(mentions(message, "'schema_version'"));
  EXPECT_TRUE(mentions(message, "is 1"));
  EXPECT_TRUE(mentions(message, "bankgate refresh"));
}

TEST(BaselineErrors, SchemaVersionBeyondIntRangeIsRejectedNotWrapped) {
  const std::string message =
      rejection(replaced(valid_document(), "\"schema_version\": 4,", "\"schema_version\": 4294967297,"));
  EXPECT_TRUE(mentions(message, origin));
  EXPECT_TRUE(mentions(message, "'schema_version'"));
}

TEST(BaselineErrors, UnknownMetricIsRejectedWhenTheKnownSetIsGiven) {
  const std::set<std::string> known = {load_wavefronts};  // the file also holds load_requests
  const std::string message = rejection(valid_document(), &known);
  EXPECT_TRUE(mentions(message, origin));
  EXPECT_TRUE(mentions(message, std::string("tests.rowRead.counters.") + load_requests));
  EXPECT_TRUE(mentions(message, "unknown metric"));
  EXPECT_NO_THROW(parse_suite_file(valid_document(), origin)) << "without a known set any metric name is accepted";
}

TEST(BaselineErrors, MissingFieldIsNamedByItsPath) {
  const std::string message = rejection(replaced(valid_document(), "\"median_ns\": 2048, ", ""));
  EXPECT_TRUE(mentions(message, origin));
  EXPECT_TRUE(mentions(message, "'tests.rowRead.timing.median_ns' is missing"));
}

TEST(BaselineErrors, NegativeValueIsRejected) {
  const std::string message = rejection(replaced(valid_document(), "\"p10_ns\": 2016", "\"p10_ns\": -2016"));
  EXPECT_TRUE(mentions(message, origin));
  EXPECT_TRUE(mentions(message, "tests.rowRead.timing.p10_ns"));
  EXPECT_TRUE(mentions(message, "negative"));
}

TEST(BaselineErrors, NegativeCounterIsRejected) {
  const std::string message =
      rejection(replaced(valid_document(), "{\"value\": 1024, \"tolerance\": {\"kind\": \"exact\"}}",
                         "{\"value\": -1, \"tolerance\": {\"kind\": \"exact\"}}"));
  EXPECT_TRUE(mentions(message, origin));
  EXPECT_TRUE(mentions(message, std::string("tests.rowRead.counters.") + load_wavefronts + ".value"));
}

TEST(BaselineErrors, NonNumericValueIsRejected) {
  // JSON has no spelling for infinity or NaN; a file that tries one writes it as a string or as null.
  for (const std::string spelling : {"\"inf\"", "\"NaN\"", "null"}) {
    SCOPED_TRACE(spelling);
    const std::string message = rejection(replaced(valid_document(), "\"mad_ns\": 32", "\"mad_ns\": " + spelling));
    EXPECT_TRUE(mentions(message, origin));
    EXPECT_TRUE(mentions(message, "'tests.rowRead.timing.mad_ns' must be a number"));
  }
}

TEST(BaselineErrors, NumberBeyondDoubleRangeIsABaselineError) {
  const std::string message = rejection(replaced(valid_document(), "\"median_ns\": 2048", "\"median_ns\": 1e999"));
  EXPECT_TRUE(mentions(message, origin));
  EXPECT_TRUE(mentions(message, "1e999"));
}

TEST(BaselineErrors, DuplicateTestNameIsRejected) {
  const std::string message =
      rejection(document_with_tests("\"rowRead\": " + row_read_body + ",\n    \"rowRead\": " + row_read_body));
  EXPECT_TRUE(mentions(message, origin));
  EXPECT_TRUE(mentions(message, "'tests.rowRead'"));
  EXPECT_TRUE(mentions(message, "twice"));
}

TEST(BaselineErrors, DuplicateKeyErrorNamesItsJsonPath) {
  // Two tests; the second repeats "kernel". The message must point at tests.rowRead, not just at 'kernel'.
  const std::string broken = replaced(row_read_body, "\"kernel\": \"setRowReadRow\",",
                                      "\"kernel\": \"setRowReadRow\", \"kernel\": \"setRowReadRow\",");
  const std::string message =
      rejection(document_with_tests("\"colRead\": " + row_read_body + ",\n    \"rowRead\": " + broken));
  EXPECT_TRUE(mentions(message, origin));
  EXPECT_TRUE(mentions(message, "tests.rowRead.kernel"));
}

TEST(BaselineErrors, MisspeltFieldIsRejected) {
  const std::string message = rejection(replaced(valid_document(), "\"mad_ns\"", "\"mad_nss\""));
  EXPECT_TRUE(mentions(message, origin));
  EXPECT_TRUE(mentions(message, "'tests.rowRead.timing.mad_nss' is not part of schema version 4"));
}

TEST(BaselineErrors, UnexpectedTopLevelFieldIsRejected) {
  const std::string message =
      rejection(replaced(valid_document(), "\"schema_version\": 4,", "\"schema_version\": 4, \"notes\": \"x\","));
  EXPECT_TRUE(mentions(message, origin));
  EXPECT_TRUE(mentions(message, "'notes'"));
}

TEST(BaselineErrors, LooseToleranceWithoutReasonIsRejected) {
  const std::string message = rejection(replaced(valid_document(), ", \"reason\": \"replays\"", ""));
  EXPECT_TRUE(mentions(message, origin));
  EXPECT_TRUE(mentions(message, std::string("tests.rowRead.counters.") + load_requests + ".tolerance"));
  EXPECT_TRUE(mentions(message, "without a reason"));
}

TEST(BaselineErrors, LooseToleranceWithEmptyReasonIsRejected) {
  const std::string message = rejection(replaced(valid_document(), "\"reason\": \"replays\"", "\"reason\": \"\""));
  EXPECT_TRUE(mentions(message, "without a reason"));
}

TEST(BaselineErrors, ExactToleranceWithAmountIsRejected) {
  const std::string message =
      rejection(replaced(valid_document(), "{\"kind\": \"exact\"}", "{\"kind\": \"exact\", \"amount\": 3}"));
  EXPECT_TRUE(mentions(message, origin));
  EXPECT_TRUE(mentions(message, std::string("tests.rowRead.counters.") + load_wavefronts + ".tolerance.amount"));
}

TEST(BaselineErrors, UnknownL2StateIsRejected) {
  const std::string message = rejection(replaced(valid_document(), "\"l2\": \"warm\"", "\"l2\": \"lukewarm\""));
  EXPECT_TRUE(mentions(message, "'tests.rowRead.timing.l2' must be \"warm\" or \"cold\""));
}

TEST(BaselineErrors, ZeroLaunchesPerSampleIsRejected) {
  const std::string message =
      rejection(replaced(valid_document(), "\"launches_per_sample\": 1", "\"launches_per_sample\": 0"));
  EXPECT_TRUE(mentions(message, "'tests.rowRead.timing.launches_per_sample' must be between 1 and 4096"));
}

// One edited number must not turn the timing gate off: loosened timing needs a reason, and no reason makes a
// tolerance of 1e300 acceptable.
TEST(BaselineErrors, LoosenedTimingWithoutReasonIsRejected) {
  const std::string loose = replaced(valid_document(), ", \"reason\": \"shared runner\"}}", "}}");
  EXPECT_TRUE(mentions(rejection(loose), "'tests.rowRead.timing.tolerance' loosens the timing gate"));
  const std::string default_tolerance = replaced(loose, "\"relative\": 0.05", "\"relative\": 0.03");
  EXPECT_NO_THROW(parse_suite_file(default_tolerance, origin));
}

TEST(BaselineErrors, TimingToleranceBeyondItsBoundIsRejectedEvenWithAReason) {
  EXPECT_TRUE(mentions(rejection(replaced(valid_document(), "\"relative\": 0.05", "\"relative\": 1e300")),
                       "'tests.rowRead.timing.tolerance.relative' is above 50%"));
  EXPECT_TRUE(mentions(rejection(replaced(valid_document(), "\"absolute_ns\": 64", "\"absolute_ns\": 1e300")),
                       "'tests.rowRead.timing.tolerance.absolute_ns' is above 1 ms"));
}

// A test's own comparison floor is bounded and, like any loosening, needs its reason.
TEST(BaselineErrors, ACompareFloorBeyondItsBoundOrWithoutAReasonIsRejected) {
  const std::string with_floor = replaced(valid_document(), "\"reason\": \"shared runner\"}}",
                                          "\"reason\": \"shared runner\", \"compare_floor\": 0.015}}");
  EXPECT_DOUBLE_EQ(parse_suite_file(with_floor, origin).tests.at("rowRead").timing->tolerance.compare_floor, 0.015);
  EXPECT_TRUE(mentions(rejection(replaced(with_floor, "0.015", "0.2")),
                       "'tests.rowRead.timing.tolerance.compare_floor' is above 10%"));
  EXPECT_TRUE(
      mentions(rejection(replaced(with_floor, "0.015", "-0.01")), "tests.rowRead.timing.tolerance.compare_floor"));
  const std::string unexplained =
      replaced(replaced(with_floor, ", \"reason\": \"shared runner\"", ""), "\"relative\": 0.05", "\"relative\": 0.03");
  EXPECT_TRUE(mentions(rejection(unexplained), "'tests.rowRead.timing.tolerance.compare_floor' needs the tolerance's"));
}

TEST(BaselineErrors, ImpossibleTimingNumbersAreRejected) {
  EXPECT_TRUE(mentions(rejection(replaced(valid_document(), "\"median_se_ns\": 10", "\"median_se_ns\": 1e300")),
                       "'tests.rowRead.timing.median_se_ns' is larger than the median"));
  EXPECT_TRUE(mentions(rejection(replaced(valid_document(), "\"p90_ns\": 2112", "\"p90_ns\": 1000")),
                       "min_ns <= p10_ns <= median_ns <= p90_ns"));
  EXPECT_TRUE(mentions(rejection(replaced(valid_document(), "\"sm_clock_mhz\": 1980", "\"sm_clock_mhz\": 1e9")),
                       "'tests.rowRead.timing.sm_clock_mhz' is beyond any GPU's clock"));
}

TEST(BaselineErrors, CounterToleranceBeyondItsBoundIsRejected) {
  EXPECT_TRUE(mentions(rejection(replaced(valid_document(), "\"amount\": 0.05", "\"amount\": 5")),
                       "is a relative tolerance above 50%"));
  EXPECT_TRUE(mentions(rejection(replaced(valid_document(), "{\"value\": 1024, \"tolerance\": {\"kind\": \"exact\"}}",
                                          "{\"value\": 1e300, \"tolerance\": {\"kind\": \"exact\"}}")),
                       "is beyond any kernel's count"));
}

// Suite, GPU and test names become paths under the baselines folder: none may leave it.
TEST(BaselineErrors, NamesThatWouldLeaveTheBaselinesFolderAreRejected) {
  EXPECT_TRUE(
      mentions(rejection(replaced(valid_document(), "\"suite\": \"SquareTile\"", "\"suite\": \"../../../escaped\"")),
               "'suite' must be a GoogleTest suite name"));
  EXPECT_TRUE(
      mentions(rejection(replaced(valid_document(), "\"suite\": \"SquareTile\"", "\"suite\": \"/tmp/escaped\"")),
               "'suite' must be a GoogleTest suite name"));
  EXPECT_TRUE(mentions(rejection(replaced(valid_document(), "\"model\": \"nvidia-h200\"", "\"model\": \"../x\"")),
                       "'gpu.model' must be letters, digits"));
  EXPECT_TRUE(mentions(rejection(replaced(valid_document(), "\"rowRead\":", "\"../rowRead\":")),
                       "is not a GoogleTest test name"));
  EXPECT_TRUE(is_valid_test_name("Prefix/Suite"));  // parameterised suites
  EXPECT_FALSE(is_valid_test_name("a//b"));
  EXPECT_FALSE(is_valid_test_name(".."));
  EXPECT_FALSE(is_valid_gpu_name("-rf"));
}

TEST(BaselineErrors, ExpectedRatiosNeedTheirReason) {
  const std::string with_expected =
      replaced(valid_document(), "\"correct\": true,",
               "\"correct\": true, \"expected\": {\"ratios\": {\"shared_load_transactions_per_request\": 1}},");
  EXPECT_TRUE(mentions(rejection(with_expected), "'tests.rowRead.expected.why' is missing"));
}

TEST(BaselineErrors, ZeroSamplesIsRejected) {
  const std::string message = rejection(replaced(valid_document(), "\"samples\": 5", "\"samples\": 0"));
  EXPECT_TRUE(mentions(message, "'tests.rowRead.timing.samples' must be at least 1"));
}

// ---------------------------------------------------------------------------------------------------------------
// Hostile baselines: a baseline folder arrives in pull requests, so each file is read as untrusted input.

// A document whose "tests" object holds `count` keys; `last` names the last key (a duplicate of the first when
// it repeats it). Every value is 0, so a parse that gets through the keys fails on the schema.
std::string document_of_many_keys(std::size_t count, const std::string& last) {
  std::string tests;
  tests.reserve(count * 20);
  char key[32];
  for (std::size_t i = 0; i + 1 < count; ++i) {
    std::snprintf(key, sizeof key, "\"test_%06zu\": 0,\n", i);
    tests += key;
  }
  tests += "\"" + last + "\": 0";
  return document_with_tests(tests);
}

double seconds_to_reject(const std::string& text, std::string& message) {
  const auto start = std::chrono::steady_clock::now();
  message = rejection(text);
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Duplicate keys were found by comparing each key with every earlier one of its object: 84 s for this size.
TEST(HostileBaseline, ObjectOfManyKeysIsReadInLinearTime) {
  const std::string distinct = document_of_many_keys(120000, "test_999999");
  ASSERT_GT(distinct.size(), 1500000u);
  std::string message;
  EXPECT_LT(seconds_to_reject(distinct, message), 5.0);
  EXPECT_TRUE(mentions(message, "'tests.test_000000' must be a JSON object")) << "the keys pass, the schema does not";

  const std::string repeated = document_of_many_keys(120000, "test_000000");
  EXPECT_LT(seconds_to_reject(repeated, message), 5.0);
  EXPECT_TRUE(mentions(message, origin));
  EXPECT_TRUE(mentions(message, "key 'tests.test_000000' appears twice"));
}

// nlohmann stops at a NUL byte: whatever follows it went unread.
TEST(HostileBaseline, NulByteIsRejected) {
  const std::string hidden = valid_document() + std::string(1, '\0') + "{\"anything\": 1}";
  const std::string message = rejection(hidden);
  EXPECT_TRUE(mentions(message, origin));
  EXPECT_TRUE(mentions(message, "NUL byte at byte " + std::to_string(valid_document().size())));
  EXPECT_TRUE(mentions(rejection(std::string(1, '\0') + valid_document()), "NUL byte at byte 0"));
}

TEST(HostileBaseline, TextAfterTheDocumentIsRejected) {
  const std::string message = rejection(valid_document() + "garbage");
  EXPECT_TRUE(mentions(message, origin));
  EXPECT_TRUE(mentions(message,
                       "text follows the end of the JSON document at byte " + std::to_string(valid_document().size())));
  EXPECT_TRUE(mentions(rejection(valid_document() + valid_document()), "text follows the end of the JSON document"));
  EXPECT_NO_THROW(parse_suite_file(valid_document() + " \n\t\r\n", origin)) << "trailing whitespace is fine";
}

TEST(HostileBaseline, FractionalCounterIsRejected) {
  const std::string exact = "{\"value\": 1024, \"tolerance\": {\"kind\": \"exact\"}}";
  const std::string field = std::string("'tests.rowRead.counters.") + load_wavefronts + ".value'";
  for (const std::string value : {"1.5", "1024.5", "3.0", "1e3"}) {
    SCOPED_TRACE(value);
    const std::string message = rejection(
        replaced(valid_document(), exact, "{\"value\": " + value + ", \"tolerance\": {\"kind\": \"exact\"}}"));
    EXPECT_TRUE(mentions(message, origin));
    EXPECT_TRUE(mentions(message, field + " must be a whole number"));
  }
}

TEST(HostileBaseline, BlankReasonIsRejected) {
  for (const std::string blank : {" ", "   ", "\u00a0", "\u2003\u200b"}) {
    SCOPED_TRACE(blank);
    EXPECT_TRUE(
        mentions(rejection(replaced(valid_document(), "\"reason\": \"replays\"", "\"reason\": \"" + blank + "\"")),
                 std::string("'tests.rowRead.counters.") + load_requests + ".tolerance.reason' is blank"));
    EXPECT_TRUE(mentions(
        rejection(replaced(valid_document(), "\"reason\": \"shared runner\"", "\"reason\": \"" + blank + "\"")),
        "'tests.rowRead.timing.tolerance.reason' is blank"));
    const std::string expected =
        replaced(valid_document(), "\"correct\": true,",
                 "\"correct\": true, \"expected\": {\"ratios\": {\"shared_load_transactions_per_request\": 1}, "
                 "\"why\": \"" +
                     blank + "\"},");
    EXPECT_TRUE(mentions(rejection(expected), "'tests.rowRead.expected.why' is blank"));
  }
  EXPECT_NO_THROW(
      parse_suite_file(replaced(valid_document(), "\"reason\": \"replays\"", "\"reason\": \" x \""), origin));
}

// An escape sequence in a kernel name or a reason would reach the terminal that prints it; a newline could
// forge a line of the gate's log. Each is refused, and the message never carries the raw character.
TEST(HostileBaseline, ControlCharactersInStringsAreRejected) {
  for (const std::string escaped :
       {"\\u001b[2J", "\\n[  PASSED  ] 1 test", "\\r", "\\t", "\\u0000", "\\u007f", "\\u009b31m", "\\u202e"}) {
    SCOPED_TRACE(escaped);
    const std::string kernel = rejection(replaced(valid_document(), "\"setRowReadRow\"", "\"setRow" + escaped + "\""));
    EXPECT_TRUE(mentions(kernel, origin));
    EXPECT_TRUE(mentions(kernel, "'tests.rowRead.kernel' holds the control character U+"));
    EXPECT_TRUE(mentions(rejection(replaced(valid_document(), "\"replays\"", "\"replays" + escaped + "\"")),
                         "tolerance.reason' holds the control character"));
    EXPECT_TRUE(mentions(rejection(replaced(valid_document(), "\"by hand\"", "\"" + escaped + "\"")),
                         "'provenance.command' holds the control character"));
  }
  const std::string message = rejection(replaced(valid_document(), "\"setRowReadRow\"", "\"set\\u001b[31mRed\""));
  EXPECT_TRUE(mentions(message, "U+001B at byte 3"));
  EXPECT_EQ(message.find('\x1b'), std::string::npos) << "the message itself must not carry the escape";
}

TEST(HostileBaseline, ControlCharactersInKeysAreRejected) {
  const std::string message = rejection(
      replaced(valid_document(), "\"smsp__sass_inst_executed_op_shared_ld.sum\"", "\"smsp__sass\\u001b[2Jinst.sum\""));
  EXPECT_TRUE(mentions(message, origin));
  EXPECT_TRUE(
      mentions(message, "tests.rowRead.counters.\"smsp__sass\\u001b[2Jinst.sum\"' holds the control character U+001B"));
  EXPECT_EQ(message.find('\x1b'), std::string::npos) << "the message itself must not carry the escape";
}

TEST(HostileBaseline, PrintableUnicodeIsKept) {
  const std::string text = replaced(valid_document(), "\"replays\"", "\"replays vary ±2 % — µs, ≠ 0\"");
  const SuiteFile file = parse_suite_file(text, origin);
  EXPECT_EQ(file.tests.at("rowRead").counters.at(load_requests).tolerance.reason, "replays vary ±2 % — µs, ≠ 0");
}

// nlohmann's parser checks UTF-8 in every string: malformed bytes and lone surrogates never reach the reader.
TEST(HostileBaseline, InvalidUtf8IsRejected) {
  for (const std::string& bad : {std::string("\xff"), std::string("\xc0\xaf"), std::string("\xe2\x82"),
                                 std::string("\xed\xa0\x80"), std::string("\\ud800")}) {
    SCOPED_TRACE(::testing::PrintToString(bad));
    EXPECT_TRUE(mentions(rejection(replaced(valid_document(), "\"setRowReadRow\"", "\"set" + bad + "Row\"")),
                         "not valid JSON"));
    EXPECT_TRUE(
        mentions(rejection(replaced(valid_document(), "\"rowRead\":", "\"row" + bad + "Read\":")), "not valid JSON"));
  }
}

// The attack: a baseline whose median_se_ns equals its median. The comparison then takes a 5x slower run for
// noise (its 99% interval of the ratio spans 0.08x to 13x) and judges it ok.
TEST(HostileBaseline, StandardErrorBeyondTheSpreadIsRejected) {
  const std::string many_samples = replaced(valid_document(), "\"samples\": 5", "\"samples\": 50");
  ASSERT_NO_THROW(parse_suite_file(many_samples, origin));
  const std::string message = rejection(replaced(many_samples, "\"median_se_ns\": 10", "\"median_se_ns\": 2048"));
  EXPECT_TRUE(mentions(message, origin));
  EXPECT_TRUE(mentions(message, "'tests.rowRead.timing.median_se_ns' is 2048 ns, more than 10% of the median"));
  const std::string beyond_spread = rejection(replaced(many_samples, "\"median_se_ns\": 10", "\"median_se_ns\": 97"));
  EXPECT_TRUE(mentions(beyond_spread,
                       "'tests.rowRead.timing.median_se_ns' is 97 ns, more than the samples it comes from allow"));
  EXPECT_TRUE(mentions(beyond_spread, "at most 96 ns"));  // p90_ns - p10_ns = 2112 - 2016
  EXPECT_NO_THROW(parse_suite_file(replaced(many_samples, "\"median_se_ns\": 10", "\"median_se_ns\": 96"), origin));

  // With no spread at all one step of the timer is left for rounding: 32 ns over the launches per sample.
  const std::string no_spread = replaced(
      replaced(replaced(many_samples, "\"p10_ns\": 2016", "\"p10_ns\": 2048"), "\"p90_ns\": 2112", "\"p90_ns\": 2048"),
      "\"mad_ns\": 32", "\"mad_ns\": 0");
  EXPECT_NO_THROW(parse_suite_file(replaced(no_spread, "\"median_se_ns\": 10", "\"median_se_ns\": 32"), origin));
  EXPECT_TRUE(
      mentions(rejection(replaced(no_spread, "\"median_se_ns\": 10", "\"median_se_ns\": 33")), "at most 32 ns"));

  // Below the comparison's minimum sample count the standard error decides nothing, and is not bounded.
  EXPECT_NO_THROW(
      parse_suite_file(replaced(valid_document(), "\"median_se_ns\": 10", "\"median_se_ns\": 2048"), origin));
}

// A measured kernel whose samples around the median fall on a few timer steps (8 launches a sample: 4 ns steps):
// the bootstrap's median moves by whole steps, and a standard error of two of them is what was measured, not an
// edit. Far beyond the steps it is still refused.
TEST(HostileBaseline, StandardErrorOfTiedQuantilesIsTheTimersSteps) {
  std::string quantiles = "[";
  for (int i = 0; i <= 20; ++i)
    quantiles += (i ? ", " : "") + std::to_string(i < 8 ? 1150 + 3 * i : i <= 12 ? 1175 : 1180 + 3 * i);
  quantiles += "]";
  const std::string tied = replaced(
      replaced(replaced(replaced(replaced(replaced(replaced(valid_document(), "\"samples\": 5", "\"samples\": 400"),
                                                   "\"launches_per_sample\": 1", "\"launches_per_sample\": 8"),
                                          "\"median_ns\": 2048", "\"median_ns\": 1175"),
                                 "\"p10_ns\": 2016", "\"p10_ns\": 1156"),
                        "\"p90_ns\": 2112", "\"p90_ns\": 1234"),
               "\"min_ns\": 2000", "\"min_ns\": 1150"),
      "\"dropped_samples\": 0", "\"dropped_samples\": 0, \"quantiles_ns\": " + quantiles);
  const std::string at =
      replaced(replaced(tied, "\"mad_ns\": 32", "\"mad_ns\": 8"), "\"median_se_ns\": 10", "\"median_se_ns\": 8");
  EXPECT_NO_THROW(parse_suite_file(at, origin));
  EXPECT_TRUE(mentions(rejection(replaced(at, "\"median_se_ns\": 8", "\"median_se_ns\": 17")), "four timer steps"));
}

// The largest standard error the reader lets through still leaves the gate able to see a 5x slowdown.
TEST(HostileBaseline, StandardErrorAtItsBoundStillLetsTheGateCatchAFiveFoldSlowdown) {
  const std::string text = replaced(replaced(valid_document(), "\"samples\": 5", "\"samples\": 50"),
                                    "\"median_se_ns\": 10", "\"median_se_ns\": 96");
  const TestRecord baseline = parse_suite_file(text, origin).tests.at("rowRead");
  TestRecord slower = baseline;
  slower.timing->median_ns *= 5;
  slower.timing->median_se_ns = 0;
  bool judged = false;
  for (const Finding& f : compare(baseline, slower))
    if (f.timing) {
      judged = true;
      EXPECT_EQ(f.verdict, Verdict::slower) << f.detail;
    }
  EXPECT_TRUE(judged);
}

TEST(HostileBaseline, MadBeyondTheSpreadIsRejected) {
  const std::string message = rejection(replaced(valid_document(), "\"mad_ns\": 32", "\"mad_ns\": 65"));
  EXPECT_TRUE(mentions(message, origin));
  EXPECT_TRUE(
      mentions(message, "'tests.rowRead.timing.mad_ns' is 65 ns, more than the samples' spread allows (at most 64 ns"));
  EXPECT_NO_THROW(parse_suite_file(replaced(valid_document(), "\"mad_ns\": 32", "\"mad_ns\": 64"), origin));
}

// min_ns, p10_ns, median_ns and p90_ns are the 0th, 10th, 50th and 90th percentiles in quantiles_ns too.
TEST(HostileBaseline, SummaryMustAgreeWithItsQuantiles) {
  const std::string quantiles =
      "[2000, 2008, 2016, 2020, 2024, 2028, 2032, 2036, 2040, 2044, 2048, 2052, 2056, 2060, "
      "2064, 2072, 2080, 2096, 2112, 2120, 2128]";
  const std::string with_quantiles = replaced(valid_document(), "\"sm_clock_mhz\": 1980,",
                                              "\"sm_clock_mhz\": 1980, \"quantiles_ns\": " + quantiles + ",");
  ASSERT_NO_THROW(parse_suite_file(with_quantiles, origin));
  struct Edit {
    std::string from, to, message;
  };
  for (const Edit& e :
       {Edit{"[2000,", "[1999,", "'tests.rowRead.timing.min_ns' is 2000 but quantiles_ns[0]"},
        Edit{"2008, 2016,", "2008, 2017,", "'tests.rowRead.timing.p10_ns' is 2016 but quantiles_ns[2]"},
        Edit{"2044, 2048,", "2044, 2050,", "'tests.rowRead.timing.median_ns' is 2048 but quantiles_ns[10]"},
        Edit{"2096, 2112,", "2096, 2110,", "'tests.rowRead.timing.p90_ns' is 2112 but quantiles_ns[18]"}}) {
    SCOPED_TRACE(e.to);
    const std::string message = rejection(replaced(with_quantiles, e.from, e.to));
    EXPECT_TRUE(mentions(message, origin));
    EXPECT_TRUE(mentions(message, e.message));
  }
  EXPECT_NO_THROW(parse_suite_file(replaced(with_quantiles, "2044, 2048,", "2044, 2048.000001,"), origin))
      << "a difference of rounding is no edit";
}

// Every committed baseline and fixture still reads under the rules above. Their standard errors stay under half
// the spread, the most a bootstrap of 20 or more samples gives (reached by two equal clusters; the reader's
// bound is twice that): the largest committed is 0.31 of the spread, bimodal H200 kernels.
TEST(HostileBaseline, CommittedBaselinesAndFixturesStillRead) {
  const fs::path source = BANKGATE_SOURCE_DIR;
  int files = 0;
  for (const fs::path& folder :
       {source / "baselines", source / "examples" / "adopt" / "baselines", source / "tests" / "unit" / "fixtures"})
    for (const auto& entry : fs::recursive_directory_iterator(folder)) {
      const std::string name = entry.path().filename().string();
      const bool run_file = name.ends_with(".result.json") || name.ends_with(".plan.json");  // records and plans
      if (!entry.is_regular_file() || entry.path().extension() != ".json" || run_file) continue;
      SCOPED_TRACE(entry.path().string());
      ++files;
      SuiteFile file;
      ASSERT_NO_THROW(file = read_suite_file(entry.path()));
      for (const auto& [test, record] : file.tests) {
        if (!record.timing || record.timing->samples < min_timing_samples) continue;
        const double spread = record.timing->p90_ns - record.timing->p10_ns;
        EXPECT_LE(record.timing->median_se_ns, 0.51 * spread) << test;
      }
    }
  EXPECT_GE(files, 20);
}

// ---------------------------------------------------------------------------------------------------------------
// Files on disk

using BaselineFiles = TempDir;

TEST_F(BaselineFiles, SuiteFilePathIsArchModelSuite) {
  EXPECT_EQ(suite_file_path("baselines", {"sm_90", "nvidia-h200"}, "SquareTile"),
            fs::path("baselines") / "sm_90" / "nvidia-h200" / "SquareTile.json");
}

TEST_F(BaselineFiles, WrittenFileReadsBackEqual) {
  const SuiteFile original = sample_suite();
  const fs::path path = suite_file_path(dir_ / "baselines", original.gpu, original.suite);
  write_suite_file(path, original, Samples::drop);
  SuiteFile expected = original;
  for (auto& [name, record] : expected.tests) record.samples_ns.clear();
  expect_same_suite(read_suite_file(path), expected);
  EXPECT_EQ(read_bytes(path), serialize_suite_file(original, Samples::drop));
}

TEST_F(BaselineFiles, WriteRefusesNaNAndLeavesTheExistingFileUntouched) {
  const fs::path path = dir_ / "SquareTile.json";
  write_suite_file(path, sample_suite(), Samples::drop);
  const std::string before = read_bytes(path);

  SuiteFile poisoned = sample_suite();
  poisoned.tests["rowRead"].timing->median_ns = std::numeric_limits<double>::quiet_NaN();
  try {
    write_suite_file(path, poisoned, Samples::drop);
    FAIL() << "a record holding NaN was written";
  } catch (const BaselineError& e) {
    EXPECT_TRUE(mentions(e.what(), path.string()));
    EXPECT_TRUE(mentions(e.what(), "tests.rowRead.timing.median_ns"));
  }
  EXPECT_EQ(read_bytes(path), before);
  EXPECT_EQ(folder_entries(dir_), std::vector<std::string>{"SquareTile.json"});
}

TEST_F(BaselineFiles, WriteRefusesInfiniteCounter) {
  SuiteFile poisoned = sample_suite();
  poisoned.tests["colRead"].counters[load_wavefronts].value = std::numeric_limits<double>::infinity();
  EXPECT_THROW(write_suite_file(dir_ / "SquareTile.json", poisoned, Samples::keep), BaselineError);
  EXPECT_FALSE(fs::exists(dir_ / "SquareTile.json"));
}

TEST_F(BaselineFiles, ReadingAMissingFileNamesThePath) {
  const fs::path path = dir_ / "sm_90" / "nvidia-h200" / "Absent.json";
  try {
    read_suite_file(path);
    FAIL() << "a missing file was read";
  } catch (const BaselineError& e) {
    EXPECT_TRUE(mentions(e.what(), path.string()));
  }
}

TEST_F(BaselineFiles, ReadErrorNamesTheFilePath) {
  const fs::path path = dir_ / "Broken.json";
  std::ofstream(path) << replaced(valid_document(), "\"samples\": 5", "\"samples\": \"five\"");
  try {
    read_suite_file(path);
    FAIL() << "a broken file was read";
  } catch (const BaselineError& e) {
    EXPECT_TRUE(mentions(e.what(), path.string()));
    EXPECT_TRUE(mentions(e.what(), "tests.rowRead.timing.samples"));
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Atomic replacement

using AtomicFile = TempDir;

TEST_F(AtomicFile, ReplacesContentAndCreatesMissingFolders) {
  const fs::path path = dir_ / "a" / "b" / "file.txt";
  write_file_atomically(path, [](std::ostream& out) { out << "first"; });
  EXPECT_EQ(read_bytes(path), "first");
  write_file_atomically(path, [](std::ostream& out) { out << "second"; });
  EXPECT_EQ(read_bytes(path), "second");
  EXPECT_EQ(folder_entries(path.parent_path()), std::vector<std::string>{"file.txt"});
}

TEST_F(AtomicFile, ThrowingWriterLeavesOldContentAndNoTemporary) {
  const fs::path path = dir_ / "SquareTile.json";
  std::ofstream(path, std::ios::binary) << "old content\n";
  const auto half_then_throw = [](std::ostream& out) {
    out << "{\"schema_version\": 1, \"sui";
    out.flush();
    throw std::runtime_error("writer died half way");
  };
  EXPECT_THROW(write_file_atomically(path, half_then_throw), std::runtime_error);
  EXPECT_EQ(read_bytes(path), "old content\n");
  EXPECT_EQ(folder_entries(dir_), std::vector<std::string>{"SquareTile.json"});
}

TEST_F(AtomicFile, FailedStreamLeavesOldContentAndNoTemporary) {
  const fs::path path = dir_ / "SquareTile.json";
  std::ofstream(path, std::ios::binary) << "old content\n";
  const auto write_then_fail = [](std::ostream& out) {
    out << "partial";
    out.setstate(std::ios::badbit);  // what a full disk looks like to the caller
  };
  EXPECT_THROW(write_file_atomically(path, write_then_fail), std::runtime_error);
  EXPECT_EQ(read_bytes(path), "old content\n");
  EXPECT_EQ(folder_entries(dir_), std::vector<std::string>{"SquareTile.json"});
}

// ---------------------------------------------------------------------------------------------------------------
// Candidates

using Candidates = TempDir;

TEST_F(Candidates, PathIsArchModelSuiteTest) {
  EXPECT_EQ(candidate_path("build/candidates", {"sm_90", "nvidia-h200"}, "SquareTile", "rowRead"),
            fs::path("build/candidates") / "sm_90" / "nvidia-h200" / "SquareTile" / "rowRead.json");
}

TEST_F(Candidates, PerTestFilesOfOneSuiteMergeIntoOneSuiteFile) {
  const GpuKey gpu{"sm_90", "nvidia-h200"};
  write_candidate(dir_, gpu, sample_provenance(), "SquareTile", "rowRead", row_read_record());
  write_candidate(dir_, gpu, sample_provenance(), "SquareTile", "colRead", col_read_record());
  write_candidate(dir_, gpu, sample_provenance(), "Reduction", "warpShuffle", row_read_record());
  // Another GPU's candidates are not this GPU's.
  write_candidate(dir_, {"sm_80", "nvidia-a100"}, sample_provenance(), "SquareTile", "diagonal", row_read_record());

  EXPECT_TRUE(fs::exists(candidate_path(dir_, gpu, "SquareTile", "rowRead")));
  EXPECT_TRUE(fs::exists(candidate_path(dir_, gpu, "SquareTile", "colRead")));

  const std::map<std::string, SuiteFile> suites = read_candidates(dir_, gpu);
  ASSERT_EQ(suites.size(), 2u);
  ASSERT_EQ(suites.count("SquareTile"), 1u);
  const SuiteFile& square = suites.at("SquareTile");
  EXPECT_EQ(square.suite, "SquareTile");
  EXPECT_EQ(square.gpu, gpu);
  ASSERT_EQ(square.tests.size(), 2u);
  {
    SCOPED_TRACE("rowRead");
    ASSERT_EQ(square.tests.count("rowRead"), 1u);
    expect_same_record(square.tests.at("rowRead"), row_read_record());  // raw samples kept
  }
  {
    SCOPED_TRACE("colRead");
    ASSERT_EQ(square.tests.count("colRead"), 1u);
    expect_same_record(square.tests.at("colRead"), col_read_record());
  }
  ASSERT_EQ(suites.count("Reduction"), 1u);
  EXPECT_EQ(suites.at("Reduction").tests.size(), 1u);
  EXPECT_EQ(suites.at("Reduction").tests.count("warpShuffle"), 1u);
}

TEST_F(Candidates, CandidateRecordsWhatProducedIt) {
  const GpuKey gpu{"sm_90", "nvidia-h200"};
  write_candidate(dir_, gpu, sample_provenance(), "SquareTile", "rowRead", row_read_record());
  const SuiteFile file = read_suite_file(candidate_path(dir_, gpu, "SquareTile", "rowRead"));
  EXPECT_EQ(file.provenance.gpu_name, "NVIDIA H200");
  EXPECT_TRUE(mentions(file.provenance.command, "SquareTile.rowRead"));
  EXPECT_NE(file.provenance.date, sample_provenance().date);
  EXPECT_EQ(file.provenance.date.size(), sample_provenance().date.size());
  EXPECT_EQ(file.provenance.date.back(), 'Z');
}

TEST_F(Candidates, NoFolderMeansNoCandidates) {
  EXPECT_TRUE(read_candidates(dir_ / "never-written", {"sm_90", "nvidia-h200"}).empty());
}

TEST_F(Candidates, UnreadableCandidateIsABaselineErrorNamingIt) {
  const GpuKey gpu{"sm_90", "nvidia-h200"};
  const fs::path broken = candidate_path(dir_, gpu, "SquareTile", "rowRead");
  fs::create_directories(broken.parent_path());
  const std::string text = serialize_suite_file(sample_suite(), Samples::keep);
  std::ofstream(broken, std::ios::binary) << text.substr(0, text.size() / 2);
  try {
    read_candidates(dir_, gpu);
    FAIL() << "a truncated candidate was read";
  } catch (const BaselineError& e) {
    EXPECT_TRUE(mentions(e.what(), broken.string()));
  }
}

}  // namespace
