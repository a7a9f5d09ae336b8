// Whether the whole instrumented metric list reads in one replay pass: collects the default metric list's first
// N metrics for growing N on one catalogue kernel, and prints the passes CUPTI counts and any value that does
// not come back as a number.
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include <bankgate/collector.hpp>
#include <bankgate/kernels/device_buffer.hpp>
#include <bankgate/kernels/ldmatrix_tile.cuh>
#include <bankgate/kernels/tma_tile.cuh>

int main() {
  namespace k = bankgate::kernels;
  std::vector<std::uint32_t> input(k::ldmatrix_words, 1u);
  const k::DeviceBuffer<std::uint32_t> in(input);
  k::DeviceBuffer<std::uint32_t> out(input.size());
  const auto launch = [&] { k::launch_ldmatrix_tile(k::LdmatrixTile::swizzled, in.get(), out.get()); };
  const std::vector<std::string> all = bankgate::default_metric_names();
  std::printf("default list: %zu instrumented metrics\n", all.size());
  for (std::size_t n = 24; n <= all.size(); n += 2) {
    bankgate::CollectorOptions options;
    options.tma_traffic = false;  // only the list under test
    options.metrics.assign(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(n));
    try {
      bankgate::Collector collector(options);
      const auto counters = collector.collect_counters("probe", launch);
      std::string missing;
      for (const auto& name : options.metrics)
        if (!std::isfinite(counters.at(0).values.at(name))) missing += " " + name;
      std::printf("n=%zu passes=%zu not a number:%s\n", n, collector.passes(),
                  missing.empty() ? " none" : missing.c_str());
    } catch (const std::exception& e) {
      std::printf("n=%zu failed: %s\n", n, e.what());
    }
  }
  // The TMA traffic pass on a kernel that uses the engine: every value, five times.
  std::vector<float> floats(k::tma_bulk_floats, 1.0f);
  const k::DeviceBuffer<float> bulk_in(floats);
  k::DeviceBuffer<float> bulk_out(floats.size());
  bankgate::Collector collector;
  for (int run = 0; run < 5; ++run) {
    const auto counters = collector.collect_counters(
        "probe", [&] { k::launch_tma_tile(k::TmaTile::bulk_copy, bulk_in.get(), bulk_out.get()); });
    for (const auto& [name, value] : counters.at(0).values)
      if (name.find("tma") != std::string::npos) std::printf("run %d %s = %g\n", run, name.c_str(), value);
  }
}
