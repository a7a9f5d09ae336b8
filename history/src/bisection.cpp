// Bisection by counters, skipping what cannot be built (bisection.hpp).

#include <bankgate/history/bisection.hpp>

#include <algorithm>
#include <set>

namespace bankgate::history {
namespace {

// The open commit (lo, hi) nearest the middle that was not skipped; nullopt where every one was. Positions are
// shifted by one: 0 stands for GOOD, i + 1 for commit i.
std::optional<std::size_t> next_probe(std::size_t lo, std::size_t hi, const std::set<std::size_t>& skipped) {
  const std::size_t middle = lo + (hi - lo) / 2;
  for (std::size_t step = 0; step < hi - lo; ++step)
    for (const std::size_t at : {middle + step, middle - std::min(step, middle)})
      if (at > lo && at < hi && !skipped.contains(at)) return at;
  return std::nullopt;
}

}  // namespace

Bisection bisect(std::size_t commits, const std::function<Probe(std::size_t)>& probe) {
  Bisection result;
  std::size_t lo = 0, hi = commits;  // lo good, hi bad, in shifted positions
  std::set<std::size_t> skipped;
  while (hi - lo > 1) {
    const std::optional<std::size_t> at = next_probe(lo, hi, skipped);
    if (!at) break;
    ++result.probes;
    const Probe outcome = probe(*at - 1);
    if (outcome == Probe::skipped) {
      skipped.insert(*at);
      result.skipped.push_back(*at - 1);
    } else if (outcome == Probe::bad) {
      hi = *at;
    } else {
      lo = *at;
    }
  }
  result.first_bad = hi - 1;
  if (lo > 0) result.last_good = lo - 1;
  return result;
}

}  // namespace bankgate::history
