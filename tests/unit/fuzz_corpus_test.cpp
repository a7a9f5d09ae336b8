// The fuzzers' seeds must stay in step with their readers: libFuzzer mutates from them, and seeds a reader rejects
// at the first field (an old schema_version, say) would leave the rest of it unexplored. Of the baseline reader's
// (tests/fuzz/corpus), files named valid*.json must be accepted and every other seed rejected with a BaselineError,
// the one way the reader may refuse input; each of the run files' (tests/fuzz/corpus-run-files) is a plan
// (plan*.json) or a result record that its reader accepts.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <bankgate/gate/rules/baseline.hpp>
#include <bankgate/gate/rules/baseline_json.hpp>
#include <bankgate/gate/protocol/test_plan.hpp>
#include <bankgate/gate/protocol/test_result.hpp>
#include <bankgate/metrics.hpp>

namespace {

namespace fs = std::filesystem;
using namespace bankgate::gate;

std::vector<fs::path> seeds(const char* folder = BANKGATE_FUZZ_CORPUS_DIR) {
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(folder))
    if (entry.is_regular_file()) files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

std::string text_of(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

bool is_valid_seed(const fs::path& path) { return path.filename().string().rfind("valid", 0) == 0; }

TEST(FuzzCorpus, ValidSeedsAreAcceptedAndRoundTrip) {
  const auto names = bankgate::default_metric_names();
  const std::set<std::string> known(names.begin(), names.end());
  int valid = 0;
  for (const auto& path : seeds()) {
    if (!is_valid_seed(path)) continue;
    SCOPED_TRACE(path.string());
    ++valid;
    SuiteFile file;
    ASSERT_NO_THROW(file = parse_suite_file(text_of(path), path.string(), &known));
    EXPECT_EQ(file.schema_version, current_schema_version);
    const std::string written = serialize_suite_file(file, Samples::keep);
    EXPECT_EQ(serialize_suite_file(parse_suite_file(written, "round trip", &known), Samples::keep), written);
  }
  EXPECT_GE(valid, 1) << "no valid*.json seed in " << BANKGATE_FUZZ_CORPUS_DIR;
}

TEST(FuzzCorpus, OtherSeedsAreRejectedWithABaselineError) {
  for (const auto& path : seeds()) {
    if (is_valid_seed(path)) continue;
    SCOPED_TRACE(path.string());
    EXPECT_THROW(parse_suite_file(text_of(path), path.string()), BaselineError);
  }
}

// Each optional or newer part of the schema appears in some accepted seed, so mutations start from documents
// that reach it. Extend this list with the schema.
TEST(FuzzCorpus, ValidSeedsCoverTheSchemasFields) {
  std::string all;
  for (const auto& path : seeds())
    if (is_valid_seed(path)) all += text_of(path);
  for (const char* field : {"\"derived\"", "\"expected\"", "\"why\"", "\"timing\"", "\"samples_ns\"",
                            "\"median_se_ns\"", "\"l2\": \"cold\"", "\"l2\": \"warm\"", "\"launches_per_sample\"",
                            "\"warmup_launches\"", "\"dropped_samples\"", "\"sm_clock_mhz\"", "\"driver_release\"",
                            "\"kind\": \"absolute\"", "\"kind\": \"relative\"", "\"kind\": \"exact\""})
    EXPECT_NE(all.find(field), std::string::npos) << "no valid seed holds " << field;
}

TEST(FuzzCorpus, RunFileSeedsAreAPlanAndARecordTheirReadersAccept) {
  int plans = 0, records = 0;
  for (const auto& path : seeds(BANKGATE_RUN_FILES_CORPUS_DIR)) {
    SCOPED_TRACE(path.string());
    if (path.filename().string().rfind("plan", 0) == 0) {
      ++plans;
      EXPECT_FALSE(parse_plan(text_of(path), path.string()).tests.empty());
    } else {
      ++records;
      EXPECT_FALSE(parse_result_record(text_of(path), path.string()).test.empty());
    }
  }
  EXPECT_GE(plans, 1) << "no plan*.json seed in " << BANKGATE_RUN_FILES_CORPUS_DIR;
  EXPECT_GE(records, 1) << "no result record seed in " << BANKGATE_RUN_FILES_CORPUS_DIR;
}

}  // namespace
