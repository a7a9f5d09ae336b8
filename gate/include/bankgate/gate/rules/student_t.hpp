#pragma once
// Student's t distribution, for the intervals of the same-runner timing rule (round_judgement.hpp): its
// cumulative distribution through the regularized incomplete beta function, and quantiles by bisection, so
// that the rule can use any confidence level and any number of rounds.

namespace bankgate::gate {

// P(T <= t) for Student's t with `dof` > 0 degrees of freedom.
double student_t_cdf(double t, double dof);

// The t with P(T <= t) = `probability` (0 < probability < 1), to within 1e-9 relative.
double student_t_quantile(double probability, double dof);

}  // namespace bankgate::gate
