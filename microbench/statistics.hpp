#pragma once
// Repeated timings of one figure, summarised robustly: the median, and the
// half-width of its distribution-free 95% confidence interval, which every
// figure of cluster.json carries beside its value. On a shared machine a
// few timings include a preemption (milliseconds beside microseconds); a
// mean and its standard error would let them dominate, the median ignores them.
#include <cstdint>
#include <vector>

namespace mheta::microbench {

// Two-sided 97.5% quantile of Student's t with `dof` degrees of freedom.
double student_t95(std::int64_t dof);

class Sample {
 public:
  void add(double x) {
    values_.push_back(x);
    sorted_ = false;
  }
  void merge(const Sample& other);

  std::int64_t count() const { return static_cast<std::int64_t>(values_.size()); }
  double median() const;
  // Half-width of the median's 95% interval from order statistics
  // (ranks n/2 -+ 0.98 sqrt(n)); infinite with fewer than 3 values.
  double ci95() const;
  double relative_ci95() const;  // ci95 / |median|
  // The median's standard error as the interval implies it (ci95 / 1.96),
  // for weighting least-squares fits.
  double standard_error() const;
  const std::vector<double>& values() const { return values_; }

 private:
  void sort() const;

  mutable std::vector<double> values_;
  mutable bool sorted_ = true;
};

}  // namespace mheta::microbench
