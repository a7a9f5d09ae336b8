#pragma once
// Reading a file that came from outside bankgate (a baseline, a candidate, a journal, a report, a README):
// only a regular file is read (a FIFO, device or folder is refused at once, never waited on), and only up to a
// size no real input reaches (a larger one is refused, so /dev/zero or a huge file cannot exhaust memory).

#include <cstddef>
#include <nlohmann/json_fwd.hpp>
#include <filesystem>
#include <stdexcept>
#include <string>

namespace bankgate::gate {

// Far above any real baseline, report or README (the largest committed baseline is under 100 KB).
inline constexpr std::size_t max_input_bytes = std::size_t{64} << 20;

class InputFileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The whole content of `path`. Throws InputFileError naming the path and what is wrong: missing, unreadable,
// not a regular file, or larger than `max_bytes`.
std::string read_input_file(const std::filesystem::path& path, std::size_t max_bytes = max_input_bytes);

// The same for a file already opened (by openat inside a confined folder); `name` is what errors call it.
// Does not close `fd`.
std::string read_input_fd(int fd, const std::string& name, std::size_t max_bytes = max_input_bytes);

// JSON from outside bankgate (a result record, a shard's summary, a resource spec, shard durations, a manifest): a
// file within the byte cap can still nest or repeat values enough to cost gigabytes as a document (a 63 MiB
// nested array once took 2.3 GB), so the depth and the number of values are bounded while it is parsed, far above
// any file bankgate writes. Throws InputFileError naming `name`: not JSON, or beyond a bound.
inline constexpr std::size_t max_json_depth = 16;  // as the baseline reader's (baseline_json.cpp)
inline constexpr std::size_t max_json_values = 2000000;
nlohmann::json parse_input_json(const std::string& text, const std::string& name);

// What one run reads in all, across its input files: the bounds per file keep one file from exhausting memory or
// time; these keep many from doing it together (24 files of 58 MiB once held 1.5 GB). Each read is charged; the
// read past a bound is refused with InputFileError naming the bound and the file.
struct RunBudget {
  std::size_t bytes = std::size_t{512} << 20;
  std::size_t files = 50000;
  std::size_t samples = 4000000;     // duration samples of every candidate read (40 tests of 100,000)
  std::size_t line_figures = 50000;  // per-line figures of every candidate and baseline read
};
const RunBudget& run_budget();
// Charges a read of `bytes` from `name`, and the samples and per-line figures a suite file held.
void charge_input(std::size_t bytes, const std::string& name);
void charge_figures(std::size_t samples, std::size_t line_figures, const std::string& name);

}  // namespace bankgate::gate
