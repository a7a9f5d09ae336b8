// bankgate-history-bench: the history store's append of one gate and the size it reaches, on SQLite.
//
//   bankgate-history-bench STORE [--commits N] [--tests T] [--appends A]
//
// Fills STORE (a new SQLite file) with N-1 runs of T tests each, one commit each (a parent chain), then appends
// A more runs of T tests one at a time and prints, as JSON, each of those appends' wall time. Each test has one
// kernel with 20 counters, a duration summary and 100 samples, as the catalogue's gates have.

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <bankgate/history/store.hpp>

namespace {

namespace h = bankgate::history;

h::RunEntry synthetic_run(int commit, int tests) {
  h::RunEntry run;
  const std::string sha = "c" + std::to_string(commit);
  run.run = {"bench-" + sha,
             sha,
             "c" + std::to_string(commit - 1),
             "main",
             false,
             "gate",
             "2026-11-28T20:00:00Z",
             {"NVIDIA H200", "sm_90/nvidia-h200", "GPU-bench", "580.159.04", "13000"}};
  for (int t = 0; t < tests; ++t) {
    h::KernelEntry k;
    k.kernel = "kernel" + std::to_string(t);
    k.code_hash = "0123456789abcdef";
    for (int c = 0; c < 20; ++c) k.counters["smsp__metric_" + std::to_string(c) + ".sum"] = 1024.0 * (c + 1);
    k.median_ns = 30000.0 + (commit % 7);
    k.p10_ns = 29900.0;
    k.p90_ns = 30100.0;
    k.mad_ns = 30.0;
    k.samples_ns.assign(100, 30000.0);
    run.tests.push_back({"Suite" + std::to_string(t / 6) + ".test" + std::to_string(t), "passed", {k}, "{}"});
  }
  return run;
}

int option(int argc, char** argv, const std::string& name, int fallback) {
  for (int i = 2; i + 1 < argc; ++i)
    if (argv[i] == name) return std::atoi(argv[i + 1]);
  return fallback;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: bankgate-history-bench STORE [--commits N] [--tests T] [--appends A]\n";
    return 64;
  }
  const int commits = option(argc, argv, "--commits", 1000), tests = option(argc, argv, "--tests", 66),
            appends = option(argc, argv, "--appends", 20);
  auto store = h::open_store(argv[1]);
  for (int c = 1; c <= commits - appends; ++c) store->append(synthetic_run(c, tests));
  std::vector<double> ms;
  for (int c = commits - appends + 1; c <= commits; ++c) {
    const h::RunEntry run = synthetic_run(c, tests);  // made before the clock starts: the append alone is timed
    const auto start = std::chrono::steady_clock::now();
    store->append(run);
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  }
  std::sort(ms.begin(), ms.end());
  std::cout << nlohmann::json{{"commits", commits},
                              {"tests", tests},
                              {"append_ms", ms},
                              {"append_median_ms", ms[ms.size() / 2]},
                              {"append_max_ms", ms.back()}}
                   .dump(2)
            << "\n";
  return 0;
}
