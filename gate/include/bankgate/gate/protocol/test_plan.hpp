#pragma once
// A suite's plan: the tests one measuring run (bankgate run-suite, per suite and shard) is about to run, written
// before it starts any suite process. The filter the command was given is resolved once, by the suite program's
// own listing; what follows (the suite processes' explicit lists, the records, the summary) goes by this list.
// With the result records it is what a gate's verdict is made of: a planned test without a record was not
// measured, whatever any other report says; a record that no plan names is refused.
//
//   <results>/<suite program>.<shard>.plan.json
//   {"schema": "bankgate-test-plan", "schema_version": 1, "program", "shard", "filter", "tests": [...],
//    "problem": ""}
//
// "problem" is why the run could not start its tests (the program is missing, cannot list them): its tests are
// then unknown, and the run as a whole is not measured.

#include <filesystem>
#include <string>
#include <vector>

namespace bankgate::gate {

inline constexpr const char* test_plan_schema = "bankgate-test-plan";
inline constexpr int test_plan_schema_version = 1;
inline constexpr const char* test_plan_suffix = ".plan.json";

struct TestPlan {
  std::string program;             // the suite program's file name
  int shard = 0;                   // which of the suite's measuring runs
  std::string filter;              // the command's filter, as given; empty for all tests
  std::vector<std::string> tests;  // "Suite.test", in the order they run
  std::string problem;             // why none could be run; empty where the plan holds
};

std::filesystem::path test_plan_path(const std::filesystem::path& results, const std::string& program, int shard);

std::string plan_json(const TestPlan& plan);
// Strict, like the result record's reader: throws ResultRecordError (test_result.hpp) naming `origin` and the field.
TestPlan parse_plan(const std::string& text, const std::string& origin);
// Written through a temporary file and a rename.
void write_plan(const std::filesystem::path& results, const TestPlan& plan);

}  // namespace bankgate::gate
