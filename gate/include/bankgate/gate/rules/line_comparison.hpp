#pragma once
// Where a counter changed: the source lines whose figures differ between a baseline and a run, largest change
// first. Lines are matched by file, line and instruction kind, so a change that moves instructions (new
// offsets, other registers) still lines up with its source; lines left over on both sides are then matched by
// file, kind and opcode in source order, so an edit that only shifts line numbers reports nothing.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <bankgate/gate/rules/baseline.hpp>

namespace bankgate::gate {

// What a line's figures are counted in, by its instruction kind: shared-memory kinds (cp.async included) in
// wavefronts, global and local kinds in sectors, the "instructions" entries in executed instructions.
enum class LineUnit { wavefronts, sectors, instructions };
LineUnit line_unit(const std::string& kind);

struct LineChange {
  std::optional<SourceLineFigures> baseline;  // absent: the line is new
  std::optional<SourceLineFigures> measured;  // absent: the line no longer runs instructions of its kind
  // The change in the kind's own unit: wavefronts (shared memory), sectors (global and local memory) or
  // executed instructions.
  std::int64_t change() const;
};

std::vector<LineChange> compare_lines(const std::vector<SourceLineFigures>& baseline,
                                      const std::vector<SourceLineFigures>& measured);

// "kernels/transpose.cu:52  LDS  1.00 -> 32.00 wavefronts per request (+126976 wavefronts)"
// "kernels/transpose.cu:71  STG.E  4.00 -> 32.00 sectors per request (ideal 4.00; +28 sectors)"
std::string format_line_change(const LineChange& change);

// Wavefronts above the ideal (bank conflicts) of the lines of one kind.
std::uint64_t excess_wavefronts(const std::vector<SourceLineFigures>& lines, const std::string& kind);
// Sectors above the ideal (uncoalesced accesses) of the lines of one kind.
std::uint64_t excess_sectors(const std::vector<SourceLineFigures>& lines, const std::string& kind);

}  // namespace bankgate::gate
