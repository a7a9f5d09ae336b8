#pragma once
// What bisect shows of the commit where a counter changed: the source lines of the changed kernels whose per-line
// figures (executions, wavefronts, sectors) differ between two measurements' candidates.

#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

namespace bankgate::cli {

// `watched`: the changed counters, "Suite.test kernel metric"; their kernels' lines are compared. One line on
// `out` per figure that changed: "  Suite.test kernel  file.cu:12 LDS: wavefronts 32 -> 1024".
void print_changed_lines(const std::filesystem::path& before, const std::filesystem::path& after,
                         const std::vector<std::string>& watched, std::ostream& out);

}  // namespace bankgate::cli
