#include <bankgate/gate/rules/student_t.hpp>

#include <cmath>
#include <stdexcept>

namespace bankgate::gate {
namespace {

// The continued fraction of the incomplete beta function, evaluated by the modified Lentz method; it
// converges quickly for x < (a + 1) / (a + b + 2), which the caller arranges by symmetry.
double beta_continued_fraction(double a, double b, double x) {
  constexpr double tiny = 1e-300;
  constexpr double epsilon = 1e-15;
  double c = 1.0;
  double d = 1.0 - (a + b) * x / (a + 1.0);
  d = 1.0 / (std::abs(d) < tiny ? tiny : d);
  double result = d;
  for (int m = 1; m <= 1000; ++m) {
    const double m2 = 2.0 * m;
    for (const double numerator :
         {m * (b - m) * x / ((a + m2 - 1.0) * (a + m2)), -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1.0))}) {
      d = 1.0 + numerator * d;
      d = 1.0 / (std::abs(d) < tiny ? tiny : d);
      c = 1.0 + numerator / c;
      if (std::abs(c) < tiny) c = tiny;
      result *= d * c;
    }
    if (std::abs(d * c - 1.0) < epsilon) break;
  }
  return result;
}

// I_x(a, b), the regularized incomplete beta function.
double regularized_beta(double a, double b, double x) {
  if (x <= 0.0) return 0.0;
  if (x >= 1.0) return 1.0;
  const double log_front = std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) + a * std::log(x) + b * std::log1p(-x);
  if (x < (a + 1.0) / (a + b + 2.0)) return std::exp(log_front) * beta_continued_fraction(a, b, x) / a;
  return 1.0 - std::exp(log_front) * beta_continued_fraction(b, a, 1.0 - x) / b;
}

}  // namespace

double student_t_cdf(double t, double dof) {
  if (!(dof > 0.0)) throw std::invalid_argument("student_t_cdf: degrees of freedom must be positive");
  const double tail = 0.5 * regularized_beta(dof / 2.0, 0.5, dof / (dof + t * t));
  return t >= 0.0 ? 1.0 - tail : tail;
}

double student_t_quantile(double probability, double dof) {
  if (!(probability > 0.0 && probability < 1.0))
    throw std::invalid_argument("student_t_quantile: probability outside (0, 1)");
  if (probability < 0.5) return -student_t_quantile(1.0 - probability, dof);
  double low = 0.0, high = 1.0;
  while (student_t_cdf(high, dof) < probability) high *= 2.0;
  while (high - low > 1e-9 * high) {
    const double mid = 0.5 * (low + high);
    (student_t_cdf(mid, dof) < probability ? low : high) = mid;
  }
  return 0.5 * (low + high);
}

}  // namespace bankgate::gate
