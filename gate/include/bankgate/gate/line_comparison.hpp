#pragma once
// Where a shared-memory counter changed: the source lines whose figures differ between a baseline and a run,
// largest change in wavefronts first. Lines are matched by file, line and access kind, so a change that moves
// instructions (new offsets, other registers) still lines up with its source.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <bankgate/gate/baseline.hpp>

namespace bankgate::gate {

struct LineChange {
  std::optional<SourceLineFigures> baseline;  // absent: the line is new
  std::optional<SourceLineFigures> measured;  // absent: the line no longer touches shared memory
  std::int64_t wavefront_change() const;
};

std::vector<LineChange> compare_lines(const std::vector<SourceLineFigures>& baseline, const std::vector<SourceLineFigures>& measured);

// "kernels/transpose.cu:52  LDS  1.00 -> 32.00 wavefronts per request (+126976)"
std::string format_line_change(const LineChange& change);

// Bank conflicts of loads (or stores) in `lines`: their wavefronts above the ideal.
std::uint64_t excess_wavefronts(const std::vector<SourceLineFigures>& lines, const std::string& access);

}  // namespace bankgate::gate
