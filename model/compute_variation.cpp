#include "model/compute_variation.hpp"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

#include "model/in_core_compute.hpp"

namespace mheta::model {

namespace {

void clear_variation(Profile& profile) {
  for (RankProfile& rank : profile.ranks) rank.compute_variation.clear();
}

}  // namespace

std::size_t record_compute_variation(Profile& profile, const Accounting& run) {
  require_same_ranks(profile, run);
  clear_variation(profile);
  if (run.ranks.empty() || run.clock != profile_clock_name(profile.clock)) return 0;
  // The run's iterations [first, last] that every rank recorded after its
  // first record (a sampled rank's records are every `every`-th iteration:
  // only those all ranks kept are common).
  const std::size_t ranks = run.ranks.size();
  std::vector<char> in_core(ranks);
  std::int64_t first = 0;
  std::int64_t last = INT64_MAX;
  std::int64_t step = 1;
  for (std::size_t r = 0; r < ranks; ++r) {
    in_core[r] = runs_in_core(run.ranks[r]);
    first = std::max(first, skipped_iterations(run, r) + 1);
    last = std::min(last, last_recorded_iteration(run, r));
    step = std::lcm(step, sampled_every(run, r));
  }
  first = (first + step - 1) / step * step;
  const auto record = [&](std::size_t r, std::int64_t a) -> const IterationTerms& {
    return run.ranks[r][*record_of_iteration(run, r, a)];
  };
  // Of those, the ones in which no rank that runs in core did I/O: a capture
  // run forced out of core before it went back in core.
  std::vector<std::int64_t> steady;
  for (std::int64_t a = first; a <= last; a += step) {
    bool in_core_everywhere = true;
    for (std::size_t r = 0; r < ranks && in_core_everywhere; ++r) {
      in_core_everywhere = record_of_iteration(run, r, a) && (!in_core[r] || record(r, a).io_s == 0);
    }
    if (in_core_everywhere) steady.push_back(a);
  }
  if (steady.size() < kMinVariationSamples) return 0;
  const std::size_t common = steady.size();
  const std::size_t samples = std::min(common, kVariationSamples);
  for (std::size_t r = 0; r < ranks; ++r) {
    std::vector<double> compute;
    for (std::int64_t a : steady) compute.push_back(record(r, a).compute_s);
    const double median = median_of(compute);
    std::vector<double>& variation = profile.ranks[r].compute_variation;
    for (std::size_t j = 0; j < samples; ++j) {
      // Evenly over the common iterations, in the run's order.
      const std::size_t k = j * common / samples;
      variation.push_back(median > 0 ? compute[k] / median : 1.0);
    }
  }
  return samples;
}

}  // namespace mheta::model
