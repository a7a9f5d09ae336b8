#pragma once
// bisect by durations, the way bisect goes where no counter moved between GOOD and BAD (commands/bisect.cpp).

#include <string>
#include <vector>

#include "bisector.hpp"

namespace bankgate::cli {

// Where no counter differs between GOOD and BAD (both built): their durations compared in alternating rounds
// (compare), and where BAD is slower, each commit between compared with GOOD the same way, an INCONCLUSIVE
// comparison being neither good nor bad. Returns the exit code.
int bisect_durations(Bisector& b, const SourceTree& good, const SourceTree& bad,
                     const std::vector<std::string>& commits);

}  // namespace bankgate::cli
