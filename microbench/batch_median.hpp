#pragma once
// One sample from a small batch of back-to-back timings: their median. On a
// shared machine a timing now and then includes a preemption (milliseconds
// beside a microsecond message); the median of a batch drops it, where a
// mean would let it dominate the figure and its interval.
#include <algorithm>
#include <array>
#include <cstddef>

namespace mheta::microbench {

inline constexpr std::size_t kBatch = 5;

template <typename Timed>
double batch_median(Timed&& timed) {
  std::array<double, kBatch> t{};
  for (double& x : t) x = timed();
  std::nth_element(t.begin(), t.begin() + kBatch / 2, t.end());
  return t[kBatch / 2];
}

}  // namespace mheta::microbench
