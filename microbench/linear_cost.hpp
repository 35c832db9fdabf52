#pragma once
// A cost linear in the bytes moved, t = overhead + s_per_byte*bytes, fitted
// over a sweep of sizes: the disk's (O_r, r) and (O_w, w), and a link's
// ping-pong (alpha, beta).
#include <cstdint>
#include <vector>

#include "microbench/statistics.hpp"

namespace mheta::microbench {

struct LinearCost {
  double overhead_s = 0;
  double s_per_byte = 0;
  double overhead_ci95 = 0;
  double s_per_byte_ci95 = 0;

  // True when the fitted time at every swept size is known to within
  // `target` of itself (bounding the prediction's interval by the sum of the
  // coefficients' intervals, which is conservative).
  bool precise_enough(const std::vector<std::int64_t>& sizes, double target) const;
};

// samples[i] are the times measured at sizes[i]. Each size's mean weighs by
// its standard error, floored at 2% of the mean so that a size whose few
// samples happened to agree does not pull the line alone. Negative
// coefficients (noise around a tiny overhead) are reported as 0, the
// interval kept.
LinearCost fit_linear_cost(const std::vector<std::int64_t>& sizes, const std::vector<Sample>& samples);

}  // namespace mheta::microbench
