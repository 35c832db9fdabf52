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
    if (median <= 0) {
      variation.assign(samples, 1.0);
      continue;
    }
    for (std::size_t j = 0; j < samples; ++j) {
      // Evenly over the common iterations, in the run's order.
      const std::size_t k = j * common / samples;
      variation.push_back(compute[k] / median);
    }
    // A stride through the run can fall on a periodic iteration more or
    // less often than the run does (a heavy step every 20th sampled at a
    // stride of 4.67: 4 of 64 samples against 3.2), so the replayed mean
    // would price the period's cost wrongly: the samples keep their shape
    // and order, scaled to the mean of every common iteration.
    if (samples == common) continue;
    const double all = std::accumulate(compute.begin(), compute.end(), 0.0) / static_cast<double>(common) / median;
    const double sampled = std::accumulate(variation.begin(), variation.end(), 0.0) / static_cast<double>(samples);
    if (sampled > 0) {
      for (double& factor : variation) factor *= all / sampled;
    }
  }
  return samples;
}

double mean_compute_variation(const Profile& profile) {
  double largest = 1.0;
  bool any = false;
  for (const RankProfile& rank : profile.ranks) {
    const std::vector<double>& variation = rank.compute_variation;
    if (variation.empty()) continue;
    const double mean = std::accumulate(variation.begin(), variation.end(), 0.0) / static_cast<double>(variation.size());
    largest = any ? std::max(largest, mean) : mean;
    any = true;
  }
  return largest;
}

}  // namespace mheta::model
