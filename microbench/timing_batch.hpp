#pragma once
// Timings come in small batches of back-to-back repetitions, each one a
// value of the figure's Sample: a single round then already gives a median
// and an interval, so even a tiny budget yields usable figures.
#include <array>
#include <cstddef>

#include "microbench/statistics.hpp"

namespace mheta::microbench {

inline constexpr std::size_t kBatch = 5;

// Runs `timed` (which returns seconds) kBatch times.
template <typename Timed>
std::array<double, kBatch> time_batch(Timed&& timed) {
  std::array<double, kBatch> t{};
  for (double& x : t) x = timed();
  return t;
}

inline void add_all(Sample& sample, const std::array<double, kBatch>& values) {
  for (const double x : values) sample.add(x);
}

}  // namespace mheta::microbench
