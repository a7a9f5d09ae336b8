// The fuzzer's seeds (tests/fuzz/corpus) must stay in step with the schema: libFuzzer mutates from them, and
// seeds the reader rejects at the first field (an old schema_version, say) would leave the rest of the reader
// unexplored. Files named valid*.json must be accepted; every other seed must be rejected with a
// BaselineError, the one way the reader may refuse input.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <bankgate/gate/rules/baseline.hpp>
#include <bankgate/metrics.hpp>

namespace {

namespace fs = std::filesystem;
using namespace bankgate::gate;

std::vector<fs::path> seeds() {
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(BANKGATE_FUZZ_CORPUS_DIR))
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

}  // namespace
