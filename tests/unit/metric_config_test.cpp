// The collector's host-side metric configuration runs without a GPU: CUPTI's host API needs only the chip
// name. These tests pin the facts the collector relies on for Hopper (GH100, the H100 and H200 chip).

#include <gtest/gtest.h>

#include <bankgate/collector.hpp>
#include <bankgate/metrics.hpp>

namespace {

TEST(MetricConfig, DefaultSharedMemoryMetricsNeedOnePassOnHopper) {
  EXPECT_EQ(bankgate::count_passes("GH100", bankgate::default_metric_names()), 1u);
}

TEST(MetricConfig, EachCounterSetNeedsOnePassButMixingThemTwo) {
  // Why the sets are kept apart: SASS-patched and hardware counters cannot share a replay pass.
  EXPECT_EQ(bankgate::count_passes("GH100", bankgate::metric_names(bankgate::CounterSet::hardware)), 1u);
  auto mixed = bankgate::default_metric_names();
  mixed.push_back(std::string(bankgate::metric::hardware::shared_load_wavefronts));
  EXPECT_GT(bankgate::count_passes("GH100", mixed), 1u);
}

TEST(MetricConfig, HopperUnitsShareTheInstrumentedPassAndTheTmaTrafficNeedsItsOwn) {
  // The TMA, wgmma and cluster rows are in the default list and cost no pass of their own; the TMA traffic is
  // hardware counters, one pass alone and a second with the instrumented set, so it is read in a run of its
  // own, for kernels with TMA instructions only.
  std::size_t hopper_rows = 0;
  for (const bankgate::MetricTraits& m : bankgate::counter_table())
    if (m.source == bankgate::CounterSource::sass && bankgate::of_hopper_unit(m)) ++hopper_rows;
  EXPECT_GE(hopper_rows, 10u);
  const auto traffic = bankgate::metric_names(bankgate::CounterSet::tma_traffic);
  ASSERT_FALSE(traffic.empty());
  EXPECT_EQ(bankgate::count_passes("GH100", traffic), 1u);
  auto together = bankgate::default_metric_names();
  together.insert(together.end(), traffic.begin(), traffic.end());
  EXPECT_EQ(bankgate::count_passes("GH100", together), 2u);
}

TEST(MetricConfig, UnknownMetricIsNamedInTheError) {
  auto metrics = bankgate::default_metric_names();
  metrics.push_back("l1tex__data_pipe_lsu_wavefronts_mem_shard_op_ld.sum");
  try {
    bankgate::count_passes("GH100", metrics);
    FAIL() << "a misspelt metric was accepted";
  } catch (const bankgate::CollectorError& e) {
    EXPECT_EQ(e.kind(), bankgate::ErrorKind::unknown_metric);
    EXPECT_NE(std::string(e.what()).find("mem_shard_op_ld"), std::string::npos) << e.what();
  }
}

TEST(MetricConfig, EmptyMetricListIsRejected) {
  EXPECT_THROW(bankgate::count_passes("GH100", {}), bankgate::CollectorError);
}

TEST(MetricConfig, UnknownChipIsAnUnsupportedDevice) {
  try {
    bankgate::count_passes("NOT_A_CHIP", bankgate::default_metric_names());
    FAIL() << "an unknown chip was accepted";
  } catch (const bankgate::CollectorError& e) {
    EXPECT_EQ(e.kind(), bankgate::ErrorKind::unsupported_device) << e.what();
  }
}

TEST(DeviceProbe, ReportsAReasonWhenNoDeviceExists) {
  // On a GPU machine index 4096 does not exist; on a machine without one no index does.
  const bankgate::DeviceProbe probe = bankgate::probe_device(4096);
  EXPECT_FALSE(probe.available);
  EXPECT_FALSE(probe.reason.empty());
}

TEST(Metrics, TransactionsPerRequestDividesWavefrontsByRequests) {
  bankgate::KernelCounters c;
  for (const auto& name : bankgate::default_metric_names()) c.values[name] = 0;
  c.values[std::string(bankgate::metric::shared_load_wavefronts)] = 1024;
  c.values[std::string(bankgate::metric::shared_load_requests)] = 32;
  EXPECT_EQ(bankgate::transactions_per_request(c, bankgate::SharedOp::load), 32.0);
  EXPECT_EQ(bankgate::transactions_per_request(c, bankgate::SharedOp::store), 0.0);  // no store requests
}

TEST(KernelBaseName, DropsReturnTypeNamespacesAndParameters) {
  EXPECT_EQ(bankgate::kernel_base_name("bankgate::kernels::(anonymous namespace)::setRowReadRow(int*)"),
            "setRowReadRow");
  EXPECT_EQ(bankgate::kernel_base_name("void ns::strideRead<3>(int const*, int*)"), "strideRead<3>");
  EXPECT_EQ(bankgate::kernel_base_name("void tiled<std::pair<int, int>, 16>(float*)"),
            "tiled<std::pair<int, int>, 16>");
  EXPECT_EQ(bankgate::kernel_base_name("plainC"), "plainC");
  // cu++filt's casts of integer template arguments name the same kernel.
  EXPECT_EQ(
      bankgate::kernel_base_name("void tiledMatmul<(int)16>(const float *, const float *, float *, int, int, int)"),
      "tiledMatmul<16>");
  EXPECT_EQ(bankgate::kernel_base_name("void strideRead<(unsigned int)33>(const int *, int *)"), "strideRead<33>");
  EXPECT_EQ(bankgate::kernel_base_name("void ns::f<ns::T<1> >(ns::T<1>*)"), "f<ns::T<1> >");
  EXPECT_EQ(bankgate::kernel_base_name("_Z7mmaTilePKfPf"), "_Z7mmaTilePKfPf");
}

TEST(Metrics, MissingCounterIsAnError) {
  bankgate::KernelCounters empty;
  EXPECT_THROW(bankgate::transactions_per_request(empty, bankgate::SharedOp::load), bankgate::CollectorError);
}

}  // namespace
