#include "microbench/statistics.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include <boost/math/distributions/students_t.hpp>

namespace mheta::microbench {

double student_t95(std::int64_t dof) {
  if (dof <= 0) return std::numeric_limits<double>::infinity();
  return boost::math::quantile(boost::math::students_t_distribution<double>(static_cast<double>(dof)), 0.975);
}

void Sample::merge(const Sample& other) {
  values_.insert(values_.end(), other.values_.begin(), other.values_.end());
  sorted_ = false;
}

void Sample::sort() const {
  if (!sorted_) std::sort(values_.begin(), values_.end());
  sorted_ = true;
}

double Sample::median() const {
  if (values_.empty()) return 0;
  sort();
  const std::size_t n = values_.size();
  return n % 2 == 1 ? values_[n / 2] : 0.5 * (values_[n / 2 - 1] + values_[n / 2]);
}

double Sample::ci95() const {
  const std::size_t n = values_.size();
  if (n < 3) return std::numeric_limits<double>::infinity();
  sort();
  // The number of values below the median is Binomial(n, 1/2): 1.96 of its
  // standard deviations, sqrt(n)/2, either side of n/2.
  const double spread = 0.98 * std::sqrt(static_cast<double>(n));
  const auto lower = static_cast<std::size_t>(std::max(0.0, std::floor(static_cast<double>(n) / 2 - spread)));
  const auto upper = std::min(n - 1, static_cast<std::size_t>(std::ceil(static_cast<double>(n) / 2 + spread)));
  return 0.5 * (values_[upper] - values_[lower]);
}

double Sample::relative_ci95() const {
  const double m = median();
  if (values_.size() < 3 || m == 0) return std::numeric_limits<double>::infinity();
  return ci95() / std::fabs(m);
}

double Sample::standard_error() const { return ci95() / 1.96; }

}  // namespace mheta::microbench
