// What a measuring process's start-up costs, phase by phase, in wall and CPU time: the CUDA driver's
// initialisation, a primary context per GPU, and bankgate's collector (CUPTI). bench/start-up-contention.sh runs
// it alone and several at once, to find which phases the driver serialises across the processes of one host.
// Prints one JSON document.
//
//   bankgate-start-up-bench contexts DEVICE...   the driver, then one context per DEVICE, each made on a thread
//                                                of its own, all at once
//   bankgate-start-up-bench collector DEVICE     the driver, then the collector on DEVICE (as a suite process's
//                                                first test does), then one kernel launched plainly, profiled
//                                                twice and timed twice

#include <cuda_runtime_api.h>
#include <sys/resource.h>

#include <chrono>
#include <iostream>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include <bankgate/collector.hpp>
#include <bankgate/kernels/device_buffer.hpp>
#include <bankgate/kernels/square_tile.cuh>

namespace {

using Clock = std::chrono::steady_clock;

double ms_of(const timeval& t) { return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_usec) / 1e3; }

// Wall, user and system time of a stretch of work, on this thread (RUSAGE_THREAD) or the whole process.
class Stopwatch {
 public:
  explicit Stopwatch(int who) : who_(who) { reset(); }
  void reset() {
    wall_ = Clock::now();
    getrusage(who_, &usage_);
  }
  nlohmann::json lap() {
    rusage now{};
    getrusage(who_, &now);
    const double wall = std::chrono::duration<double, std::milli>(Clock::now() - wall_).count();
    nlohmann::json phase{{"wall_ms", wall},
                         {"user_ms", ms_of(now.ru_utime) - ms_of(usage_.ru_utime)},
                         {"sys_ms", ms_of(now.ru_stime) - ms_of(usage_.ru_stime)}};
    reset();
    return phase;
  }

 private:
  int who_;
  Clock::time_point wall_;
  rusage usage_{};
};

void check(cudaError_t status, const char* what) {
  if (status != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(status));
}

nlohmann::json contexts(const std::vector<int>& devices) {
  nlohmann::json out;
  Stopwatch process(RUSAGE_SELF);
  int count = 0;
  check(cudaGetDeviceCount(&count), "cudaGetDeviceCount");
  out["driver"] = process.lap();
  std::vector<nlohmann::json> per_device(devices.size());
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < devices.size(); ++i) {
    threads.emplace_back([&, i] {
      Stopwatch own(RUSAGE_THREAD);
      check(cudaSetDevice(devices[i]), "cudaSetDevice");
      check(cudaFree(nullptr), "cudaFree(0)");
      per_device[i] = own.lap();
      per_device[i]["device"] = devices[i];
    });
  }
  for (auto& t : threads) t.join();
  out["contexts"] = per_device;
  out["all_contexts"] = process.lap();
  return out;
}

nlohmann::json collector(int device) {
  nlohmann::json out;
  Stopwatch process(RUSAGE_SELF);
  int count = 0;
  check(cudaGetDeviceCount(&count), "cudaGetDeviceCount");
  out["driver"] = process.lap();
  bankgate::Collector collector(bankgate::CollectorOptions{.device = device});
  out["collector"] = process.lap();
  const bankgate::SetupPhases& phases = collector.setup_phases();
  out["collector_phases_ms"] = {{"probe", phases.probe_ms},
                                {"context", phases.context_ms},
                                {"profiler: initialise", phases.profiler_initialize_ms},
                                {"profiler: counter availability", phases.counter_availability_ms},
                                {"profiler: metric configuration", phases.metric_config_ms},
                                {"profiler: enable", phases.profiler_enable_ms},
                                {"flusher", phases.flusher_ms},
                                {"timer", phases.timer_ms}};
  namespace k = bankgate::kernels;
  k::DeviceBuffer<int> buffer(k::square_tile_elements);
  const auto launch = [&] { k::launch_square_tile(k::SquareTile::set_row_read_row, buffer.get()); };
  process.reset();
  launch();  // the kernel's module loaded (lazy loading) outside the profiler
  check(cudaDeviceSynchronize(), "the first launch");
  out["first_launch"] = process.lap();
  collector.collect_counters("start-up", launch);
  out["first_counters"] = process.lap();
  collector.collect_counters("start-up", launch);
  out["second_counters"] = process.lap();
  collector.time_launches("start-up", launch);
  out["first_timing"] = process.lap();
  collector.time_launches("start-up", launch);
  out["second_timing"] = process.lap();
  return out;
}

int usage(const std::string& why) {
  std::cerr << "bankgate-start-up-bench: " << why
            << "\nusage: bankgate-start-up-bench contexts DEVICE... | collector DEVICE\n";
  return 64;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) return usage("a mode and a device are needed");
  const std::string mode = argv[1];
  std::vector<int> devices;
  try {
    for (int i = 2; i < argc; ++i) devices.push_back(std::stoi(argv[i]));
  } catch (const std::exception&) {
    return usage("devices are whole numbers");
  }
  const Clock::time_point start = Clock::now();
  try {
    nlohmann::json out;
    if (mode == "contexts")
      out = contexts(devices);
    else if (mode == "collector" && devices.size() == 1)
      out = collector(devices.front());
    else
      return usage("unknown mode or device count: " + mode);
    out["mode"] = mode;
    out["total_wall_ms"] = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    std::cout << out.dump() << "\n";
  } catch (const std::exception& e) {
    std::cerr << "bankgate-start-up-bench: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
