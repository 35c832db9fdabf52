#include "interpose/undisturbed_compute.hpp"

#include <algorithm>
#include <vector>

#include "model/accounting.hpp"

namespace mheta::interpose {

double UndisturbedCompute::charge(std::uint64_t section, double cpu_s, long preemptions) {
  History& h = sections_[section];
  if (preemptions <= 0) {
    h.cpu_s[h.runs % kKept] = cpu_s;
    ++h.runs;
    return cpu_s;
  }
  if (h.runs < kFewest) return cpu_s;
  // Preempted sections are few: the copy is no cost on the calls' path.
  const double undisturbed = model::median_of({h.cpu_s.begin(), h.cpu_s.begin() + std::min(h.runs, kKept)});
  if (cpu_s <= undisturbed || cpu_s - undisturbed > kMostRefill) return cpu_s;
  return undisturbed;
}

}  // namespace mheta::interpose
