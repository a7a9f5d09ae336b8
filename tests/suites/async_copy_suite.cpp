// Seed 002: a plain global-to-shared copy loop against __pipeline_memcpy_async (LDGSTS), for elements of 4, 8
// and 16 bytes.

#include <deque>
#include <functional>
#include <vector>

#include <bankgate/gtest/gate_fixture.hpp>
#include <bankgate/kernels/async_copy.cuh>
#include <bankgate/kernels/device_buffer.hpp>

#include "device_output_check.hpp"

namespace {

namespace k = bankgate::kernels;
using bankgate::catalogue::equal_on_device;
using bankgate::gtest::GateTest;
using bankgate::gtest::KernelCase;

// Where the driver puts a copy's buffers sets its speed by a few percent, and each allocation, in each process, lands
// elsewhere: timed at one placement, unchanged code moves between runs by that much. So each case is timed at
// several placements, each a pair of buffers of its own, all allocated before timing starts.
constexpr int placements = 8;

class AsyncCopy : public GateTest {
 protected:
  void gate_kernel(k::AsyncCopy kernel) {
    const int n = k::async_copy_ints(kernel);
    std::vector<int> input(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) input[i] = 11 * i + 4;
    std::deque<k::DeviceBuffer<int>> ins, outs;
    std::vector<std::function<void()>> launches;
    ins.emplace_back(input);
    for (int p = 0; p < placements; ++p) {
      if (p > 0) ins.emplace_back(input.size()).copy_from(ins.front());
      const int* in = ins.back().get();
      int* out = outs.emplace_back(input.size()).get();
      launches.push_back([kernel, in, out] { k::launch_async_copy(kernel, in, out); });
    }
    k::DeviceBuffer<int>& out = outs.front();
    gate(KernelCase{
        .kernel_name = std::string(k::kernel_name(kernel)),
        .launch = launches.front(),
        .more_placements = std::vector<std::function<void()>>(launches.begin() + 1, launches.end()),
        .poison_output = [&] { out.poison(); },
        // A copy's reference is its input (async_copy_reference), which the first placement holds on the device.
        .check_output = [&] { return equal_on_device(out, ins.front()); },
        .expected = k::expected_access(kernel),
        // 8% keeps the spread between processes and machines well inside while a slowdown of a tenth is still
        // caught. The same-runner comparison (bankgate compare) pools processes and sees less, but its rounds
        // still differ by up to about 2%, above the 0.6-0.85% floor it would use for kernels of 2-7 us: telling a
        // change of that floor from none would take it more than its 50 rounds a side, so it decides changes of
        // 1.5% and more. The reason travels into the baselines: a loosened timing gate must say why.
        .timing_tolerance = {.relative = 0.08,
                             .absolute_ns = 64.0,
                             .reason = "each copy moves 4 to 32 MiB through L2 and its speed depends on where the "
                                       "driver puts the buffers, which changes with every allocation: timed at one "
                                       "placement, medians of unchanged code spread 4.6% between processes on the "
                                       "H200 (Sync16 6240 to 6524 ns in 20 runs; Sync4 5.3%); it is timed over "
                                       "8 placements, and machines differ as well. Over 8 placements, rounds of a "
                                       "same-runner comparison still differ by up to 1.8%, so a comparison decides "
                                       "changes of 1.5% and more (bench/RESULTS-duration-verdicts.md)",
                             .compare_floor = 0.015},
    });
  }
};

TEST_F(AsyncCopy, Sync4) { gate_kernel(k::AsyncCopy::sync_4); }
TEST_F(AsyncCopy, Async4) { gate_kernel(k::AsyncCopy::async_4); }
TEST_F(AsyncCopy, Sync8) { gate_kernel(k::AsyncCopy::sync_8); }
TEST_F(AsyncCopy, Async8) { gate_kernel(k::AsyncCopy::async_8); }
TEST_F(AsyncCopy, Sync16) { gate_kernel(k::AsyncCopy::sync_16); }
TEST_F(AsyncCopy, Async16) { gate_kernel(k::AsyncCopy::async_16); }

}  // namespace
