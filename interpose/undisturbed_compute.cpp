#include "interpose/undisturbed_compute.hpp"

#include <algorithm>

namespace mheta::interpose {

double UndisturbedCompute::charge(std::uint64_t section, double cpu_s, long preemptions) {
  History& h = sections_[section];
  if (preemptions <= 0) {
    h.cpu_s[h.runs % kKept] = cpu_s;
    ++h.runs;
    return cpu_s;
  }
  if (h.runs < kFewest) return cpu_s;
  std::array<double, kKept> kept = h.cpu_s;
  const auto end = kept.begin() + static_cast<std::ptrdiff_t>(std::min(h.runs, kKept));
  const auto middle = kept.begin() + (end - kept.begin()) / 2;
  std::nth_element(kept.begin(), middle, end);
  const double undisturbed = *middle;
  if (cpu_s <= undisturbed) return cpu_s;
  if (cpu_s - undisturbed > kMostRefill) return cpu_s;
  return undisturbed;
}

}  // namespace mheta::interpose
