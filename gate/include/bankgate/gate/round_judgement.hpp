#pragma once
// The timing rule of a same-runner comparison, judged by the noise the comparison itself measured. Base and
// head were measured in alternating rounds on one machine; each round gives each test one median. How much
// those medians move between rounds of one side is the test's noise on this runner, whatever its cause (clock,
// placement of buffers, other work on the host), and a slowdown must stand out from it.
//
// With R rounds per side, on the log scale: the change is the difference of the sides' mean log medians; its
// standard error comes from the pooled between-round spread (2R - 2 degrees of freedom), never below the
// rounds' own within-round standard errors; intervals use Student's t. Then:
//  - slower (faster): the 99.9% interval lies above (below) zero and the change exceeds the practical floor: a
//    failure needs strong evidence, since a catalogue of 50 tests makes 50 such decisions per comparison;
//  - ok: the 90% interval lies inside plus or minus the floor (two one-sided tests at 95%, the usual test of
//    equivalence): any change is smaller than is worth a failure;
//  - inconclusive: neither: the runner was too noisy to tell a change of the floor's size from none.
// The floor is 0.5% of the base median, and never under a quarter of the GPU timer's 32 ns tick seen through
// the samples' launches per sample: below that, a change is quantization, not the kernel.

#include <cstddef>
#include <string>
#include <vector>

#include <bankgate/gate/comparison.hpp>

namespace bankgate::gate {

struct RoundEvidence {
  std::vector<double> base_medians_ns;  // one per round
  std::vector<double> head_medians_ns;
  std::vector<double> base_relative_se;  // each round's standard error of its median over the median
  std::vector<double> head_relative_se;
  int launches_per_sample = 1;
};

struct NoisePolicy {
  double relative_floor = 0.005;
  double tick_ns = 32.0;
  double tick_fraction = 0.25;
};

struct RoundDecision {
  Verdict verdict = Verdict::pass;
  double change = 0.0;            // head over base, minus 1
  double low = 0.0, high = 0.0;   // its 99.9% interval, likewise
  double floor = 0.0;             // the practical floor, relative
  double noise = 0.0;             // the between-round spread of one round's median, relative
  std::size_t rounds = 0;         // per side (the fewer)
  std::string detail;             // the figures behind the verdict, in words
};

// At least two rounds per side; fewer is an error the caller avoids (one round is judged by judge_timing).
RoundDecision judge_rounds(const RoundEvidence& evidence, const NoisePolicy& policy = {});

// Student's t quantiles for two-sided 99.9% and 90% intervals with `dof` degrees of freedom (dof >= 1).
double t_quantile_999(std::size_t dof);
double t_quantile_90(std::size_t dof);

}  // namespace bankgate::gate
