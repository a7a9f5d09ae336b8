// The one bounded reader of JSON inputs (input_file.hpp's parse_input_json): depth and value count are bounded
// while parsing, and syntax errors name the file.

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <string>

#include <bankgate/gate/store/input_file.hpp>

namespace {

using namespace bankgate::gate;

std::string error_of(const std::string& text) {
  try {
    parse_input_json(text, "spec.json");
  } catch (const InputFileError& e) {
    return e.what();
  }
  return "";
}

TEST(InputJson, AFileOfBankgatesDepthAndSizeReads) {
  const nlohmann::json doc = parse_input_json(R"({"local": [{"gpus": [{"id": "0", "slots": 1}]}]})", "spec.json");
  EXPECT_EQ(doc["local"][0]["gpus"][0]["id"], "0");
}

TEST(InputJson, NestingBeyondSixteenLevelsIsRefusedWhileParsing) {
  const std::string deep = std::string(10000000, '[') + std::string(10000000, ']');
  EXPECT_EQ(error_of(deep), "spec.json: nests deeper than 16 levels, far beyond any file bankgate writes");
}

TEST(InputJson, MoreValuesThanAnyRealFileAreRefusedWhileParsing) {
  std::string many = "[";
  for (int i = 0; i < 2000001; ++i) many += "1,";
  many.back() = ']';
  EXPECT_EQ(error_of(many), "spec.json: holds more than 2000000 values, far beyond any file bankgate writes");
}

TEST(InputJson, ASyntaxErrorNamesTheFile) {
  EXPECT_TRUE(error_of("{\"local\": ").starts_with("spec.json is not JSON (")) << error_of("{\"local\": ");
}

}  // namespace
