// A case that launches several kernels (a library call) is recorded and gated kernel by kernel, each named by its
// function, while every existing record (one kernel per test) reads and writes exactly as before. The two kernels
// here are real H200 records of the catalogue (Reverse.multiBlockReverse and Reverse.staticReverse, committed in
// baselines/) taken as the two launches of one case.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include <bankgate/gate/store/baseline_folder.hpp>
#include <bankgate/gate/rules/baseline.hpp>
#include <bankgate/gate/rules/baseline_json.hpp>
#include <bankgate/gate/rules/comparison.hpp>
#include <bankgate/gate/reports/report.hpp>
#include <bankgate/gate/rules/runner_merge.hpp>

namespace {

namespace fs = std::filesystem;
using namespace bankgate::gate;

constexpr const char* load_wavefronts = "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum";
const fs::path source = BANKGATE_SOURCE_DIR;

std::string read_bytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

SuiteFile committed_reverse() {
  return read_suite_file(source / "baselines" / "sm_90" / "nvidia-h200" / "Reverse.json");
}

// The two committed reversals as the two kernels of one case.
TestRecord two_kernels() {
  const SuiteFile reverse = committed_reverse();
  TestRecord r = reverse.tests.at("multiBlockReverse");
  r.later_kernels.push_back(reverse.tests.at("staticReverse"));
  return r;
}

SuiteFile file_with(const std::string& test, const TestRecord& record) {
  SuiteFile f = committed_reverse();
  f.tests = {{test, record}};
  return f;
}

const Finding* finding(const std::vector<Finding>& findings, const std::string& kernel, const std::string& metric) {
  for (const Finding& f : findings)
    if (f.kernel == kernel && f.metric == metric) return &f;
  return nullptr;
}

TEST(MultiKernelRecord, EveryCommittedBaselineIsWrittenBackByteForByte) {
  std::size_t files = 0;
  for (const auto& entry : fs::recursive_directory_iterator(source / "baselines")) {
    if (entry.path().extension() != ".json") continue;
    const std::string text = read_bytes(entry.path());
    EXPECT_EQ(serialize_suite_file(parse_suite_file(text, entry.path().string()), Samples::drop), text) << entry.path();
    ++files;
  }
  EXPECT_GT(files, 10u);
}

TEST(MultiKernelRecord, ACaseOfTwoKernelsIsWrittenAsEachKernelsRecordAndReadBack) {
  const std::string text = serialize_suite_file(file_with("twoPass", two_kernels()), Samples::drop);
  EXPECT_NE(text.find("\"kernels\": ["), std::string::npos) << text;
  const SuiteFile back = parse_suite_file(text, "Reverse.json");
  const TestRecord& r = back.tests.at("twoPass");
  ASSERT_EQ(r.later_kernels.size(), 1u);
  EXPECT_EQ(r.kernel, "multiBlockReverse");
  EXPECT_EQ(r.later_kernels[0].kernel, "staticReverse");
  EXPECT_TRUE(r.correct);
  EXPECT_EQ(r.later_kernels[0].counters.at(load_wavefronts).value,
            two_kernels().later_kernels[0].counters.at(load_wavefronts).value);
  ASSERT_TRUE(r.later_kernels[0].timing.has_value());
  EXPECT_EQ(serialize_suite_file(back, Samples::drop), text);
}

TEST(MultiKernelRecord, TheReaderRefusesWhatIsNeitherForm) {
  const nlohmann::json written =
      nlohmann::json::parse(serialize_suite_file(file_with("twoPass", two_kernels()), Samples::drop));
  const auto refusal = [](const nlohmann::json& edited) {
    try {
      parse_suite_file(edited.dump(2), "Reverse.json");
    } catch (const BaselineError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  nlohmann::json one = written;  // one kernel under "kernels": a test of one kernel has one form only
  one["tests"]["twoPass"]["kernels"].erase(1);
  EXPECT_NE(refusal(one).find("field 'tests.twoPass.kernels' must list the records of two or more kernels"),
            std::string::npos)
      << refusal(one);
  nlohmann::json mixed = written;  // a kernel's name beside "kernels": the two forms mixed
  mixed["tests"]["twoPass"]["kernel"] = "multiBlockReverse";
  EXPECT_NE(refusal(mixed).find("field 'tests.twoPass.kernel' is not part of schema version"), std::string::npos)
      << refusal(mixed);
  nlohmann::json misspelt = written;  // a kernel's record is checked as a test's is
  misspelt["tests"]["twoPass"]["kernels"][1]["countres"] = nlohmann::json::object();
  EXPECT_NE(refusal(misspelt).find("field 'tests.twoPass.kernels[1].countres' is not part of schema version"),
            std::string::npos)
      << refusal(misspelt);
  EXPECT_EQ(refusal(written), "accepted");
}

TEST(MultiKernelRecord, EachKernelIsComparedWithItsOwnAndFindingsNameIt) {
  const TestRecord baseline = two_kernels();
  TestRecord measured = baseline;
  measured.later_kernels[0].counters[load_wavefronts].value *= 32;  // the second kernel's loads turned 32-way
  const std::vector<Finding> findings = compare(baseline, measured);
  const Finding* changed = finding(findings, "staticReverse", load_wavefronts);
  ASSERT_NE(changed, nullptr);
  EXPECT_EQ(changed->verdict, Verdict::counter_changed);
  EXPECT_EQ(&findings.front(), changed);  // and it leads
  const Finding* same = finding(findings, "multiBlockReverse", load_wavefronts);
  ASSERT_NE(same, nullptr);
  EXPECT_EQ(same->verdict, Verdict::pass);
  EXPECT_NE(finding(findings, "staticReverse", duration_metric), nullptr);

  const TestLocation where{"Reverse", "twoPass", "baselines/sm_90/nvidia-h200/Reverse.json", {}};
  const std::string text = format_failure(where, *changed, measured, baseline);
  EXPECT_NE(text.find("Reverse.twoPass (kernel staticReverse): shared load transactions CHANGED"), std::string::npos)
      << text;
}

TEST(MultiKernelRecord, AKernelLaunchedOnlyOnOneSideIsNotMeasuredOrNew) {
  const TestRecord baseline = two_kernels();
  TestRecord measured = baseline;
  measured.later_kernels.clear();  // the library call now launches one kernel
  const std::vector<Finding> findings = compare(baseline, measured);
  const Finding* gone = finding(findings, "staticReverse", load_wavefronts);
  ASSERT_NE(gone, nullptr);
  EXPECT_EQ(gone->verdict, Verdict::not_measured);
  EXPECT_EQ(finding(findings, "multiBlockReverse", load_wavefronts)->verdict, Verdict::pass);
  const Finding* fresh = finding(compare(measured, baseline), "staticReverse", load_wavefronts);
  ASSERT_NE(fresh, nullptr);
  EXPECT_EQ(fresh->verdict, Verdict::not_in_baseline);
  // A test of one kernel against its own baseline: findings name no kernel, as always.
  for (const Finding& f : compare(measured, measured)) EXPECT_EQ(f.kernel, "");
}

TEST(MultiKernelRecord, ALaunchRepeatedIsToldApartByItsPlace) {
  TestRecord twice = committed_reverse().tests.at("staticReverse");
  twice.later_kernels.push_back(twice);
  EXPECT_EQ(kernel_labels(twice), (std::vector<std::string>{"staticReverse", "staticReverse (launch 2)"}));
  TestRecord measured = twice;
  measured.later_kernels[0].counters[load_wavefronts].value += 1;
  const Finding* changed = finding(compare(twice, measured), "staticReverse (launch 2)", load_wavefronts);
  ASSERT_NE(changed, nullptr);
  EXPECT_EQ(changed->verdict, Verdict::counter_changed);
}

TEST(MultiKernelRecord, RunnersAreMergedKernelByKernel) {
  TestRecord first = two_kernels();
  for (KernelRecord* k : first.kernels()) k->samples_ns.assign(40, k->timing->median_ns);
  TestRecord other = first;
  for (KernelRecord* k : other.kernels()) k->samples_ns.assign(40, k->timing->median_ns * 1.01);
  const std::map<std::string, SuiteFile> merged =
      merge_runners({{"runner-a", {{"Reverse", file_with("twoPass", first)}}},
                     {"runner-b", {{"Reverse", file_with("twoPass", other)}}}},
                    {});
  const TestRecord& r = merged.at("Reverse").tests.at("twoPass");
  ASSERT_EQ(r.later_kernels.size(), 1u);
  EXPECT_EQ(r.later_kernels[0].samples_ns.size(), 80u);  // the second kernel's samples of both runners, pooled
  EXPECT_NE(r.later_kernels[0].timing->tolerance.reason.find("merged from 2 runners"), std::string::npos);
}

}  // namespace
