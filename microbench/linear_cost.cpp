#include "microbench/linear_cost.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "microbench/least_squares.hpp"

namespace mheta::microbench {

bool LinearCost::precise_enough(const std::vector<std::int64_t>& sizes, double target) const {
  for (const std::int64_t bytes : sizes) {
    const double n = static_cast<double>(bytes);
    const double t = overhead_s + s_per_byte * n;
    if (!(overhead_ci95 + s_per_byte_ci95 * n <= target * t)) return false;
  }
  return true;
}

LinearCost fit_linear_cost(const std::vector<std::int64_t>& sizes, const std::vector<Sample>& samples) {
  const auto n = static_cast<Eigen::Index>(sizes.size());
  Eigen::MatrixXd x(n, 2);
  Eigen::VectorXd y(n);
  Eigen::VectorXd sigma(n);
  Eigen::Index used = 0;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    const Sample& s = samples[i];
    if (s.count() == 0) continue;
    x(used, 0) = 1;
    x(used, 1) = static_cast<double>(sizes[i]);
    y(used) = s.median();
    const double floor = std::max(0.02 * std::fabs(s.median()), 1e-9);
    sigma(used) = s.count() < 2 ? std::max(floor, std::fabs(s.median())) : std::max(floor, s.standard_error());
    ++used;
  }
  LinearCost cost;
  const double unknown = std::numeric_limits<double>::infinity();
  if (used < 2) {
    cost.overhead_ci95 = cost.s_per_byte_ci95 = unknown;
    return cost;
  }
  const LinearFit fit = weighted_least_squares(x.topRows(used), y.head(used), sigma.head(used));
  cost.overhead_s = std::max(0.0, fit.coefficients(0));
  cost.s_per_byte = std::max(0.0, fit.coefficients(1));
  cost.overhead_ci95 = fit.ci95(0);
  cost.s_per_byte_ci95 = fit.ci95(1);
  return cost;
}

}  // namespace mheta::microbench
