#pragma once
// Bisection by counters: the first commit of a range at which a counter differs from the good commit's. Counters
// are exact, so one measuring run decides a commit: no rounds, no statistics. A commit that cannot be built or
// measured is skipped, never called bad; where skipped commits are all that lies between the last good and the
// first bad commit, the answer is that range.

#include <cstddef>
#include <functional>
#include <optional>
#include <vector>

namespace bankgate::history {

enum class Probe { good, bad, skipped };

struct Bisection {
  // Indexes into the commits after GOOD (0 .. n-1, the last being BAD itself): the first bad one, and the last good
  // one before it (nullopt: GOOD itself).
  std::size_t first_bad = 0;
  std::optional<std::size_t> last_good;
  std::vector<std::size_t> skipped;  // commits that could not be built or measured, in the order probed
  std::size_t probes = 0;            // commits measured (skipped ones included)
  bool exact() const { return first_bad == (last_good ? *last_good + 1 : 0); }
};

// The first bad of `commits` commits after GOOD, the last of which (BAD) is known bad and is not probed. `probe`
// measures commit i. Probes the middle of what is still open, or the nearest commit to it not yet skipped: at most
// ceil(log2(commits)) probes where nothing is skipped.
Bisection bisect(std::size_t commits, const std::function<Probe(std::size_t)>& probe);

}  // namespace bankgate::history
