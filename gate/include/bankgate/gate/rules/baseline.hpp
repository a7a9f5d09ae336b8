#pragma once
// The baseline schema: one versioned JSON file per suite and GPU, holding per test the counters (with their
// tolerance) and a summary of the duration distribution. Candidate files written by test runs use the same
// schema, with the raw duration samples added. baseline_json.hpp reads and writes them.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace bankgate::gate {

// 2: timing statistics (standard error, measurement method), expected ratios, the driver's release.
// 3: SASS-instrumented counters (exact), per-source-line shared-memory figures, duration quantiles.
// 4: the whole memory path (cp.async, ldmatrix/stmatrix, shared atomics, global and local requests and
//    sectors), instructions and launch figures; per-line figures of every instruction kind with their inline
//    call site; expectations as ratios of the metric table.
inline constexpr int current_schema_version = 4;

// Counters are gated exactly; anything looser must carry the reason it is needed.
struct Tolerance {
  enum class Kind { exact, absolute, relative };
  Kind kind = Kind::exact;
  double amount = 0.0;
  std::string reason;
};

struct CounterValue {
  double value = 0.0;
  Tolerance tolerance;
};

// The practical threshold of the timing gate: a kernel is slower only when its median rose by more than
// `relative` of the baseline median plus `absolute_ns`, and the rise is statistically significant (see
// comparison.hpp). The absolute part is two ticks of the 32 ns GPU timer: a one-tick shift is quantization.
struct TimingTolerance {
  double relative = 0.03;
  double absolute_ns = 64.0;
  std::string reason;  // required when either part is looser than the default: one edited number must not turn
                       // the timing gate off unexplained
  // The medians of the processes whose speeds differed, where the tolerance was widened for them
  // (process_spread.hpp): such a kernel's duration is judged by the tolerance alone, since one process's samples
  // say nothing of the next one's speed. Empty for a kernel of one speed.
  std::vector<double> modes_ns;
  // The smallest change of the median, relative, that a same-runner comparison (bankgate compare) decides: a
  // change within it counts as none. 0 keeps the comparison's own floor by kernel length (round_judgement.hpp);
  // a larger one needs the reason, and every comparison verdict says the floor is the test's. For kernels whose
  // round-to-round noise is so far above that floor that telling a change of it from none takes more rounds than a
  // comparison gives.
  double compare_floor = 0.0;
};

// Bounds no baseline may pass: beyond them a number is an edit or a corruption, not a measurement. Each refusal
// names the file, the test and the field.
// The tolerances' bounds (docs/baselines.md#bounds) keep every gate able to fail: no tolerance lets a counter
// double or a kernel take 1.5x its time, and no stated noise hides a slowdown beyond that.
namespace limits {
inline constexpr double max_counter = 1e15;  // shared-memory events of one kernel launch
// A counter may move by at most half its value (relative), or by that much or 1024 events, whichever is more
// (absolute: for counters near zero that vary by a few warps' events).
inline constexpr double max_counter_relative_tolerance = 0.5;
inline constexpr double min_counter_absolute_bound = 1024;
inline constexpr double max_duration_ns = 1e12;  // 1000 s for one kernel
inline constexpr double max_timing_relative_tolerance = 0.5;
inline constexpr double max_timing_absolute_ns = 1e6;  // 1 ms
// Together, relative x median + absolute_ns may reach at most half the median plus the default 64 ns.
inline constexpr double max_timing_threshold_of_median = 0.5;
// A test's own comparison floor may be at most 10%: a comparison must still fail a kernel more than a tenth
// slower.
inline constexpr double max_compare_floor = 0.10;
// The median's standard error may be at most 10% of the median (the committed baselines stay under 3%): a
// noisier kernel cannot be timed, and more would let its noise hide a slowdown.
inline constexpr double max_timing_relative_se = 0.10;
// Duration samples one test may hold (the collector stops at 20,000 by default): beyond it a candidate is
// refused before anything is computed from it.
inline constexpr std::size_t max_samples_per_test = 100000;
inline constexpr double max_sm_clock_mhz = 10000.0;
inline constexpr int max_launches_per_sample = 4096;
}  // namespace limits

// What keeps a tolerance's own comparison floor (TimingTolerance::compare_floor) from being used: outside 0 to
// limits::max_compare_floor (or not a number), or set without the tolerance's reason. One rule for the baseline
// reader and for gate()'s check of a case.
enum class CompareFloorProblem { none, out_of_bounds, without_reason };
CompareFloorProblem compare_floor_problem(const TimingTolerance& tolerance);

// GPU and suite names become folder and file names: they must be plain names, never paths that leave the
// baselines folder. Suites and tests: GoogleTest identifiers, '/' allowed between parts (parameterised
// suites); GPU arch and model: letters, digits, '_' and '-'.
bool is_valid_test_name(const std::string& name);
bool is_valid_gpu_name(const std::string& name);

struct TimingSummary {
  double median_ns = 0.0;
  double mad_ns = 0.0;  // median absolute deviation
  double p10_ns = 0.0;
  double p90_ns = 0.0;
  double min_ns = 0.0;
  std::size_t samples = 0;
  double median_se_ns = 0.0;  // standard error of the median (bootstrap over the samples)
  TimingTolerance tolerance;
  // How the samples were taken; a comparison between different methods is refused, not guessed at.
  std::string l2 = "warm";          // "warm": inputs left in L2 between launches; "cold": L2 flushed before each
  int launches_per_sample = 1;      // >1: each sample is the mean duration of that many back-to-back launches
  std::size_t warmup_launches = 0;  // launches the warm-up needed before durations were stable
  std::size_t dropped_samples = 0;  // samples discarded because the GPU was clocked down while they ran
  double sm_clock_mhz = 0.0;        // median SM clock observed while sampling; 0 where it could not be read
  // The distribution's shape for plots: the 0th, 5th, ..., 100th percentiles of the samples (21 values), so a
  // report can draw the baseline's durations beside a run's without the baseline keeping every sample.
  std::vector<double> quantiles_ns;
};

// What the instructions of one kind on one source line did in one launch (summed over them), from the
// per-instruction attribution. Excess wavefronts (above the ideal) are the line's bank conflicts; excess
// sectors, its uncoalesced global accesses.
struct SourceLineFigures {
  std::string file;        // relative to the project's source folder where the file lies inside it
  std::uint32_t line = 0;  // 0: unknown (kernel built without -lineinfo)
  // For instructions of an inlined function (a library's copy helper, a __device__ function): `file:line` is
  // the kernel's own line that called it, and this the helper's line, e.g. "cuda_pipeline_helpers.h:292".
  std::string inlined;
  std::string kind;    // an InstructionKindTraits::kind of the metric table: "global_store", "instructions", ...
  std::string opcode;  // SASS opcodes of its instructions, e.g. "LDS" or "LDS.128/LDS"; empty where unknown
  std::uint64_t executions = 0;  // warp-level instructions executed (requests)
  std::uint64_t wavefronts = 0;  // shared memory
  std::uint64_t ideal_wavefronts = 0;
  std::uint64_t sectors = 0;  // global or local memory
  std::uint64_t ideal_sectors = 0;
  std::uint64_t excess() const { return wavefronts > ideal_wavefronts ? wavefronts - ideal_wavefronts : 0; }
  std::uint64_t excess_sectors() const { return sectors > ideal_sectors ? sectors - ideal_sectors : 0; }
  double wavefronts_per_request() const {
    return executions == 0 ? 0.0 : static_cast<double>(wavefronts) / static_cast<double>(executions);
  }
  double sectors_per_request() const {
    return executions == 0 ? 0.0 : static_cast<double>(sectors) / static_cast<double>(executions);
  }
  std::string where() const;  // "kernels/transpose.cu:52", or "<unknown line>"
};

// Sums instructions of one line and kind into one entry; ordered by file, line, kind.
std::vector<SourceLineFigures> merge_by_line(const std::vector<SourceLineFigures>& instructions);

// What a kernel's source says its ratios (keys of the metric table's ratios) should be, and why. Carried into
// candidates and baselines so that tables of measured against expected come from the files.
struct ExpectedRatios {
  std::map<std::string, double> ratios;
  std::string why;
};

// What one kernel of a test measured.
struct KernelRecord {
  std::string kernel;  // its function name, as results name it (kernel_base_name)
  std::map<std::string, CounterValue> counters;
  std::map<std::string, double> derived;  // e.g. transactions per request; informative, not gated
  std::optional<ExpectedRatios> expected;
  std::optional<TimingSummary> timing;
  std::vector<double> samples_ns;  // raw durations; kept in candidates, dropped from baselines
  // Per-line figures, where the attribution ran (recording, or explaining a changed counter); empty otherwise.
  std::vector<SourceLineFigures> lines;
};

// What one test measured: its kernel's figures. A case that launches several kernels (a library call: CUB, cuBLAS,
// CUTLASS) has each recorded and gated: the first's figures are the test's own, the others follow in launch order.
// A test of one kernel is written as it always was; one of several as {"correct", "kernels": [...]}.
struct TestRecord : KernelRecord {
  bool correct = false;  // the output matched the CPU reference in this run
  std::vector<KernelRecord> later_kernels;

  std::vector<const KernelRecord*> kernels() const;  // every kernel, in launch order, the first included
  std::vector<KernelRecord*> kernels();
};

// How reports and findings name each kernel of a test (as kernels() lists them): its function name, and where one
// function is launched more than once, " (launch 2)" and so on after its later launches.
std::vector<std::string> kernel_labels(const TestRecord& record);

struct GpuKey {
  std::string arch;   // "sm_90"
  std::string model;  // "nvidia-h200"
  std::filesystem::path relative_dir() const { return std::filesystem::path(arch) / model; }
  bool operator==(const GpuKey&) const = default;
};

struct Provenance {
  std::string gpu_name;
  std::string chip;
  std::string compute_capability;
  int multiprocessor_count = 0;
  int driver_version = 0;      // CUDA API level the driver offers, e.g. 13000
  std::string driver_release;  // e.g. "580.159.04"; empty where the machine does not say
  int cuda_runtime_version = 0;
  std::uint32_t cupti_version = 0;
  std::string git_commit;
  bool git_dirty = false;
  std::string date;              // UTC, ISO 8601
  std::string command;           // what produced the file
  std::string bankgate_version;  // the bankgate that wrote it; empty in files written before 0.4
};

struct SuiteFile {
  int schema_version = current_schema_version;
  std::string suite;
  GpuKey gpu;
  Provenance provenance;
  std::map<std::string, TestRecord> tests;
  // Candidates only: the baselines folder the suite that wrote them is gated against (its project's, from
  // bankgate_add_gpu_suite), so a promote knows where each belongs. Never written into a baseline file.
  std::filesystem::path baseline_dir;
};

class BaselineError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Which samples a file keeps: candidates keep every duration sample (keep), baselines only their summary (drop).
enum class Samples { keep, drop };

// baselines/<arch>/<model>/<suite>.json
std::filesystem::path suite_file_path(const std::filesystem::path& root, const GpuKey& gpu, const std::string& suite);

}  // namespace bankgate::gate
