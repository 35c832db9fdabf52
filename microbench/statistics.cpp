#include "microbench/statistics.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace mheta::microbench {

double student_t95(std::int64_t dof) {
  // Table for small samples, where the normal 1.96 would understate the
  // interval badly; beyond 30 degrees of freedom t is within 1% of 1.96 + 2.4/dof.
  static constexpr std::array<double, 31> kTable = {
      0,     12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
      2.120, 2.110,  2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042};
  if (dof <= 0) return std::numeric_limits<double>::infinity();
  if (dof < static_cast<std::int64_t>(kTable.size())) return kTable[static_cast<std::size_t>(dof)];
  return 1.96 + 2.4 / static_cast<double>(dof);
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
