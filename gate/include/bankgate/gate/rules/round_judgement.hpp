#pragma once
// The timing rule of a same-runner comparison, judged by the noise the comparison itself measured. Base and
// head were measured in alternating rounds on one machine; each round gives each test one median. How much
// those medians move between rounds of one side is the test's noise on this runner, whatever its cause (clock,
// placement of buffers, other work on the host), and a slowdown must stand out from it.
//
// With R rounds per side, on the log scale: the change is the difference of the sides' mean log medians; its
// standard error comes from the pooled between-round spread (2R - 2 degrees of freedom); intervals use
// Student's t. The spread of round medians already holds each round's own sampling noise, so it is not bounded
// by the rounds' bootstrap standard errors: those overstate how well a median is known when the samples are
// bimodal (docs/measurement.md, "Measurements behind the code"). Only the timer's quantization bounds it from
// below: rounds that agree to the tick are not known better than a tick. Then:
//  - slower (faster): the 99.99% interval lies above (below) zero and the change exceeds the practical floor: a
//    failure needs strong evidence, since a catalogue of 60 tests makes 60 such decisions per comparison, and
//    round medians come in levels (a process lands its buffers one way or another), so their tails are heavier
//    than a normal's (99.9% was measured too loose: docs/measurement.md, "Measurements behind the code");
//  - ok: the 90% interval lies inside plus or minus the floor (two one-sided tests at 95%, the usual test of
//    equivalence): any change is smaller than is worth a failure;
//  - inconclusive: neither: the runner was too noisy to tell a change of the floor's size from none.
// The floor is half the slowdown the rule is built to catch: 1% (floor 0.5%) on kernels of 20 us or more, 2%
// (floor 1%) on kernels of 1 us or less, and between them on a straight line in log-log (0.85% at 2 us). Short
// kernels get more room because their medians move by whole timer ticks between processes. It is never under a
// quarter of the GPU timer's 32 ns tick seen through the samples' launches per sample: below that, a change is
// quantization, not the kernel.
//
// Per-process speed levels: some kernels run at one of a few speeds per process (Hopper GEMMs: one process in six
// about 12% slower on some cards), and a round is a process. A round of either side that lies more than level_gap
// (and more than level_spreads robust spreads) above its side's median round landed on a slower level: it is set
// aside, on each side alike, and the verdict says how many were. The sides are then compared level by level, on the
// level most of their rounds share, so a slower level that either side happened to draw is not taken for a change
// and does not swell the noise. A slowdown moves every round of its side, and their median with them: none of its
// rounds is set aside for it.
//
// A test may set a larger floor of its own (TimingTolerance::compare_floor, with its
// reason), for rounds noisier than its floor: then that one is used, and the verdict says so.

#include <cstddef>
#include <string>
#include <vector>

#include <bankgate/gate/rules/comparison.hpp>

namespace bankgate::gate {

struct RoundEvidence {
  std::vector<double> base_medians_ns;  // one per round
  std::vector<double> head_medians_ns;
  int launches_per_sample = 1;
  // The test's own floor (TimingTolerance::compare_floor), where it set one: the larger of it and the policy's
  // floor is used, and the verdict says whose it is.
  double test_floor = 0.0;
};

struct NoisePolicy {
  double long_floor = 0.005;  // relative, for kernels of long_kernel_ns or more
  double long_kernel_ns = 20000.0;
  double short_floor = 0.01;  // relative, for kernels of short_kernel_ns or less
  double short_kernel_ns = 1000.0;
  double tick_ns = 32.0;
  double tick_fraction = 0.25;
  double change_confidence = 0.9999;     // two-sided, for slower and faster
  double equivalence_confidence = 0.90;  // two-sided, for ok (two one-sided tests at 95%)
  double level_gap = 0.04;               // a round this far above its side's median is on a slower level...
  double level_spreads = 6.0;            // ...and this many robust spreads (1.4826 MAD of the side's log medians)
};

// The practical floor for a kernel whose base median is `median_ns`, timed `launches_per_sample` at a time.
double practical_floor(double median_ns, int launches_per_sample, const NoisePolicy& policy = {});

struct RoundDecision {
  Verdict verdict = Verdict::pass;
  double change = 0.0;           // head over base, minus 1
  double low = 0.0, high = 0.0;  // its interval at the policy's change_confidence, likewise
  double floor = 0.0;            // the practical floor, relative (or the test's own, where larger)
  bool floor_of_test = false;    // the floor is the test's own (RoundEvidence::test_floor)
  double noise = 0.0;            // the between-round spread of one round's median, relative (at least quantization's)
  std::size_t rounds = 0;        // per side (the fewer), after those on a slower level were set aside
  std::size_t slower_level_rounds = 0;  // rounds of both sides set aside as landed on a slower speed level
  // The smallest slowdown these rounds could have called slower at their noise: the floor, or the interval's
  // half-width where the noise makes that wider. Every verdict states it, ok included: an ok says "no change of
  // this size or more", never "no change".
  double detectable = 0.0;
  std::string detail;  // the figures behind the verdict, in words
};

// At least two rounds per side; fewer is an error the caller avoids (one round is judged by judge_timing).
RoundDecision judge_rounds(const RoundEvidence& evidence, const NoisePolicy& policy = {});

// The standard error of the log change between two sides of `rounds` rounds each, at round-to-round `noise`.
double change_standard_error(double noise, std::size_t rounds);

// For an inconclusive decision: the rounds per side at which the same noise and the same observed change would be
// decided (ok or slower/faster), at most `most`; 0 for a decided one, `most` where no number of rounds up to it
// would do (a change sitting on the floor). What a comparison with a time budget gives undecided tests first.
std::size_t rounds_to_decide(const RoundDecision& decision, std::size_t most, const NoisePolicy& policy = {});

}  // namespace bankgate::gate
