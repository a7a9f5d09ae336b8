#pragma once
// What the history keeps of one run: the run (commit, parent, branch, command, time, runner) and each test's
// result (outcome, per kernel its counters, duration summary and samples, code identity, and the test's record
// as JSON: messages, findings, per-line figures). Plain data, read and written by the store (store.hpp), the file a
// run keeps when its store cannot be reached (pending.hpp) and `bankgate history import`.

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace bankgate::history {

// The machine that measured: the GPU, its driver and CUDA.
struct Runner {
  std::string gpu_name;  // "NVIDIA H200"
  std::string gpu_key;   // "sm_90/nvidia-h200": the baselines' GPU folder, what runs are compared within
  std::string gpu_uuid;  // nvidia-smi's GPU-..., where the machine said; empty otherwise
  std::string driver;    // the driver's release, e.g. "580.159.04"
  std::string cuda;      // the CUDA runtime version, e.g. "13000"
};

struct RunInfo {
  // Names the run once: appending or importing the same run again adds nothing.
  std::string key;
  std::string commit, parent, branch;  // empty where unknown
  bool dirty = false;                  // measured with uncommitted changes
  std::string command;                 // "gate", "record", "refresh", "compare", "import"
  std::string time;                    // UTC, ISO 8601
  Runner runner;
};

struct KernelEntry {
  std::string kernel;     // as results label it ("k (launch 2)" for a later launch of one function)
  std::string code_hash;  // the kernel's code identity (collect.hpp says of what); empty where unknown
  std::map<std::string, double> counters;
  std::optional<double> median_ns, p10_ns, p90_ns, mad_ns;
  std::vector<double> samples_ns;
};

struct TestEntry {
  std::string test;     // Suite.test
  std::string outcome;  // the result record's outcome id ("passed", "regressed", ...), or "measured"
  std::vector<KernelEntry> kernels;
  std::string details_json;  // {"messages", "findings", "lines"}: what the record said beyond the figures
};

struct RunEntry {
  RunInfo run;
  std::vector<TestEntry> tests;
};

// Now, UTC, ISO 8601 to the second ("2026-11-28T20:45:00Z"): the time runs and marks are given.
std::string utc_now();

}  // namespace bankgate::history
