// What a change did to the baselines (baseline_changes.hpp): every field the judgement reads is compared, for every
// kernel of a test, and a field no rule classifies fails closed.

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include <bankgate/gate/rules/baseline_changes.hpp>
#include <bankgate/gate/rules/suite_file_table.hpp>

namespace {

using namespace bankgate::gate;

TimingSummary timing(double median_ns, double se_ns = 10.0) {
  TimingSummary t;
  t.median_ns = median_ns;
  t.mad_ns = 40.0;
  t.p10_ns = median_ns - 50.0;
  t.p90_ns = median_ns + 50.0;
  t.min_ns = median_ns - 80.0;
  t.samples = 2000;
  t.median_se_ns = se_ns;
  return t;
}

KernelRecord kernel(const std::string& name, double wavefronts, double median_ns) {
  KernelRecord k;
  k.kernel = name;
  k.counters["smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"] = {wavefronts, {}};
  k.timing = timing(median_ns);
  return k;
}

// A test of two kernels, as a library call records them.
SuiteFile two_kernel_suite() {
  SuiteFile file;
  file.suite = "Library";
  TestRecord test;
  static_cast<KernelRecord&>(test) = kernel("scan", 4096, 20000);
  test.correct = true;
  test.later_kernels.push_back(kernel("reduce", 1024, 10000));
  file.tests["Call"] = test;
  return file;
}

KernelRecord& second_kernel(SuiteFile& file) { return file.tests.at("Call").later_kernels.at(0); }

std::vector<BaselineChange> loosenings(const SuiteFile& base, const SuiteFile& head) {
  std::vector<BaselineChange> out;
  for (const BaselineChange& c : baseline_changes(base, head))
    if (c.loosens) out.push_back(c);
  return out;
}

std::string texts(const std::vector<BaselineChange>& changes) {
  std::string out;
  for (const BaselineChange& c : changes) out += c.test + ": " + c.text() + "\n";
  return out;
}

TEST(BaselineChanges, EveryFieldOfEveryTableSaysWhatItsChangeDoesToTheGate) {
  for (const SchemaObject& table : schema_objects())
    for (const SchemaField& field : table.fields)
      EXPECT_NE(field.review, Review::unclassified)
          << table.name << "." << field.key << ": a new field must say how a change of it is reviewed";
}

TEST(BaselineChanges, ARefreshOfTheSameKernelLoosensNothing) {
  const SuiteFile base = two_kernel_suite();
  SuiteFile head = base;
  head.tests.at("Call").timing->median_ns = 20100;
  head.tests.at("Call").timing->median_se_ns = 10.4;
  head.tests.at("Call").timing->p90_ns += 7;
  second_kernel(head).timing->median_se_ns = 9.0;
  EXPECT_EQ(texts(loosenings(base, head)), "");
}

TEST(BaselineChanges, TheSecondKernelsCounterToleranceIsCompared) {
  const SuiteFile base = two_kernel_suite();
  SuiteFile head = base;
  second_kernel(head).counters.begin()->second.tolerance = {Tolerance::Kind::relative, 0.5, "varies"};
  const auto found = loosenings(base, head);
  ASSERT_EQ(found.size(), 1u) << texts(found);
  EXPECT_EQ(found[0].test, "Call (kernel reduce)");
  EXPECT_NE(found[0].text().find("widened from exact to ±50%"), std::string::npos) << found[0].text();
}

TEST(BaselineChanges, TheSecondKernelsTimingToleranceIsCompared) {
  const SuiteFile base = two_kernel_suite();
  SuiteFile head = base;
  second_kernel(head).timing->tolerance.relative = 0.30;
  second_kernel(head).timing->tolerance.reason = "noisy";
  const auto found = loosenings(base, head);
  ASSERT_EQ(found.size(), 1u) << texts(found);
  EXPECT_EQ(found[0].figure, "tolerance of the duration");
}

TEST(BaselineChanges, AKernelRemovedFromATestIsNoLongerGated) {
  const SuiteFile base = two_kernel_suite();
  SuiteFile head = base;
  head.tests.at("Call").later_kernels.clear();
  const auto found = loosenings(base, head);
  ASSERT_EQ(found.size(), 1u) << texts(found);
  EXPECT_NE(found[0].text().find("kernel reduce"), std::string::npos) << found[0].text();
}

// An attack of the campaign: the standard error raised tenfold, the other figures edited to fit it, no quantiles.
TEST(BaselineChanges, AStandardErrorRaisedSoThatNothingIsSignificantIsALoosening) {
  const SuiteFile base = two_kernel_suite();
  SuiteFile head = base;
  TimingSummary& t = *head.tests.at("Call").timing;
  t.median_se_ns = 990.0;
  t.mad_ns = 4000.0;
  t.p10_ns = t.median_ns - 5000.0;
  t.p90_ns = t.median_ns + 5000.0;
  t.quantiles_ns.clear();
  const auto found = loosenings(base, head);
  ASSERT_EQ(found.size(), 1u) << texts(found);
  EXPECT_EQ(found[0].figure, "smallest slowdown the gate can fail");
  EXPECT_NE(found[0].text().find("from 3.32% to 19.761%"), std::string::npos) << found[0].text();
}

TEST(BaselineChanges, FewerSamplesThanTheGateDecidesOnIsALoosening) {
  const SuiteFile base = two_kernel_suite();
  SuiteFile head = base;
  head.tests.at("Call").timing->samples = 5;
  const auto found = loosenings(base, head);
  ASSERT_EQ(found.size(), 1u) << texts(found);
  EXPECT_NE(found[0].text().find("too few samples"), std::string::npos) << found[0].text();
}

TEST(BaselineChanges, RemovingTheProcessModesIsALoosening) {
  SuiteFile base = two_kernel_suite();
  base.tests.at("Call").timing->tolerance.modes_ns = {20000, 22000};
  SuiteFile head = base;
  head.tests.at("Call").timing->tolerance.modes_ns.clear();
  const auto found = loosenings(base, head);
  ASSERT_EQ(found.size(), 1u) << texts(found);
  EXPECT_NE(found[0].figure.find("modes_ns"), std::string::npos) << found[0].text();
}

TEST(BaselineChanges, HowADurationWasTakenIsNamedWhenItChanges) {
  const SuiteFile base = two_kernel_suite();
  SuiteFile head = base;
  second_kernel(head).timing->l2 = "cold";
  const auto changes = baseline_changes(base, head);
  ASSERT_EQ(changes.size(), 1u) << texts(changes);
  EXPECT_FALSE(changes[0].loosens);
  EXPECT_EQ(changes[0].text(),
            "timing.l2 (how the duration was taken) changed from \"warm\" to \"cold\" in this change");
}

TEST(BaselineChanges, ACounterRemovedFromTheSecondKernelIsNoLongerGated) {
  const SuiteFile base = two_kernel_suite();
  SuiteFile head = base;
  second_kernel(head).counters.clear();
  const auto found = loosenings(base, head);
  ASSERT_EQ(found.size(), 1u) << texts(found);
  EXPECT_EQ(found[0].test, "Call (kernel reduce)");
}

}  // namespace
