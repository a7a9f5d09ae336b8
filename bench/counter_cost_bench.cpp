// What counting costs on the host: collect_counters with 1, 12 and 64 kernel launches per call, its phases
// per kernel (where the time goes), and the first call of a process apart. With --launch-only N it launches N
// kernels and profiles nothing, for running under Nsight Compute on the same binary (bench/counters.sh
// takes the difference to a plain run). Prints one JSON document.
//
//   bankgate-counter-bench [--batches 1,12,64] [--calls 30] [--device N] [--room N]
//   bankgate-counter-bench --launch-only N
//
// The kernel is the catalogue's setRowReadRow (one 32x32 block, one shared store and load per thread), so the
// numbers are the collector's own cost, not the kernel's.

#include <cuda_runtime_api.h>

#include <algorithm>
#include <map>
#include <chrono>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <bankgate/collector.hpp>
#include <bankgate/metrics.hpp>
#include <bankgate/kernels/device_buffer.hpp>
#include <bankgate/kernels/square_tile.cuh>

namespace {

namespace k = bankgate::kernels;

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0.0 : v[v.size() / 2];
}

void launch(int* out, int kernels) {
  for (int i = 0; i < kernels; ++i) k::launch_square_tile(k::SquareTile::set_row_read_row, out);
}

int usage(const std::string& why) {
  std::cerr << "bankgate-counter-bench: " << why
            << "\nusage: bankgate-counter-bench [--batches 1,12,64] [--calls N] [--device N] [--metrics A,B,...] "
               "[--room N] | --launch-only N\n"
            << "  --metrics: the metrics to collect (default: the gate's set, bankgate metrics)\n"
            << "  --room: CollectorOptions::room_for_kernels (default: the API's)\n";
  return 64;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<int> batches{1, 12, 64};
  int calls = 30, device = 0, launch_only = 0;
  std::size_t room = bankgate::CollectorOptions{}.room_for_kernels;
  std::vector<std::string> metrics = bankgate::default_metric_names();
  try {
    for (int i = 1; i < argc; ++i) {
      const std::string arg = argv[i];
      if (i + 1 >= argc) return usage("option " + arg + " needs a value");
      const std::string value = argv[++i];
      if (arg == "--calls")
        calls = std::stoi(value);
      else if (arg == "--device")
        device = std::stoi(value);
      else if (arg == "--room")
        room = static_cast<std::size_t>(std::stoul(value));
      else if (arg == "--launch-only")
        launch_only = std::stoi(value);
      else if (arg == "--metrics") {
        metrics.clear();
        std::stringstream list(value);
        for (std::string item; std::getline(list, item, ',');) metrics.push_back(item);
      } else if (arg == "--batches") {
        batches.clear();
        std::stringstream list(value);
        for (std::string item; std::getline(list, item, ',');) batches.push_back(std::stoi(item));
      } else
        return usage("unknown option " + arg);
    }
  } catch (const std::exception&) {
    return usage("a value is not a whole number");
  }
  if (room < 1 || room > 64) return usage("the room must be between 1 and 64 kernels");
  if (calls < 1 || launch_only < 0 || batches.empty() ||
      std::any_of(batches.begin(), batches.end(), [](int b) { return b < 1 || b > 64; }))
    return usage("calls must be at least 1, batches between 1 and 64 kernels");

  if (cudaSetDevice(device) != cudaSuccess) return usage("no CUDA device " + std::to_string(device));
  k::DeviceBuffer<int> out(k::square_tile_elements);
  if (launch_only > 0) {
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < launch_only; ++i) {
      launch(out.get(), 1);
      cudaDeviceSynchronize();
    }
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    std::cout << nlohmann::json{{"launch_only", launch_only}, {"host_ms", ms}}.dump() << "\n";
    return 0;
  }

  const auto made = std::chrono::steady_clock::now();
  // The largest batch is the limit; the room grows to each batch's count on its first call.
  const auto largest = std::max(room, static_cast<std::size_t>(*std::max_element(batches.begin(), batches.end())));
  bankgate::Collector collector(bankgate::CollectorOptions{
      .device = device, .metrics = metrics, .max_kernels_per_call = largest, .room_for_kernels = room});
  const double setup_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - made).count();
  const auto first_start = std::chrono::steady_clock::now();
  const auto first = collector.collect_counters("bench/first", [&] { launch(out.get(), 1); });
  const double first_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - first_start).count();

  nlohmann::json results = nlohmann::json::array();
  for (const int batch : batches) {
    std::vector<double> per_kernel;
    std::map<std::string, std::vector<double>> phases;
    bool identical = true;
    for (int c = 0; c < calls; ++c) {
      const auto start = std::chrono::steady_clock::now();
      const auto counters = collector.collect_counters("bench", [&] { launch(out.get(), batch); });
      const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
      per_kernel.push_back(ms / batch);
      identical = identical && counters.size() == static_cast<std::size_t>(batch) &&
                  std::all_of(counters.begin(), counters.end(),
                              [&](const bankgate::KernelCounters& x) { return x.values == first.at(0).values; });
      const bankgate::CounterPhases& p = collector.last_counter_phases();
      for (const auto& [name, value] : {std::pair{"flush", p.flush_ms},
                                        {"image", p.image_ms},
                                        {"set_config", p.set_config_ms},
                                        {"start", p.start_ms},
                                        {"launch_and_replay", p.launch_ms},
                                        {"stop", p.stop_ms},
                                        {"decode", p.decode_ms},
                                        {"evaluate", p.evaluate_ms}})
        phases[name].push_back(value / batch);
    }
    nlohmann::json phase_medians;
    for (const auto& [name, values] : phases) phase_medians[name] = median(values);
    results.push_back({{"kernels_per_call", batch},
                       {"calls", calls},
                       {"host_ms_per_kernel", median(per_kernel)},
                       {"phase_ms_per_kernel", phase_medians},
                       {"counters_identical_to_the_first_call", identical}});
  }
  std::cout << nlohmann::json{{"device", collector.device().name}, {"passes", collector.passes()},
                              {"room_for_kernels", room},          {"setup_ms", setup_ms},
                              {"first_call_ms", first_ms},         {"batches", results}}
                   .dump(2)
            << "\n";
  return 0;
}
