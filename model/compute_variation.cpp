#include "model/compute_variation.hpp"

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "model/in_core_compute.hpp"

namespace mheta::model {

namespace {

void clear_variation(Profile& profile) {
  for (RankProfile& rank : profile.ranks) rank.compute_variation.clear();
}

// A rank that did iterations without I/O (after its first record) as
// in_core_compute.hpp counts them: it runs in core, and an iteration with
// I/O is not its steady state.
bool runs_in_core(const std::vector<IterationTerms>& records) {
  std::int64_t without_io = 0;
  for (std::size_t k = 1; k < records.size(); ++k) without_io += records[k].io_s == 0 ? 1 : 0;
  return without_io >= kMinInCoreIterations;
}

}  // namespace

std::size_t record_compute_variation(Profile& profile, const Accounting& run) {
  if (run.ranks.size() != profile.ranks.size()) {
    throw std::invalid_argument("the run's records have " + std::to_string(run.ranks.size()) +
                                " ranks, the profile " + std::to_string(profile.ranks.size()));
  }
  clear_variation(profile);
  if (run.ranks.empty() || run.clock != profile_clock_name(profile.clock)) return 0;
  // The run's iterations [first, last] that every rank recorded after its
  // first record: rank r's record k is the run's iteration skipped_r + k.
  std::int64_t first = 0;
  std::int64_t last = INT64_MAX;
  for (std::size_t r = 0; r < run.ranks.size(); ++r) {
    const std::int64_t skipped = skipped_iterations(run, r);
    first = std::max(first, skipped + 1);
    last = std::min(last, skipped + static_cast<std::int64_t>(run.ranks[r].size()) - 1);
  }
  // Of those, the ones in which no rank that runs in core did I/O: a capture
  // run forced out of core before it went back in core.
  std::vector<std::int64_t> steady;
  for (std::int64_t a = first; a <= last; ++a) {
    bool in_core_everywhere = true;
    for (std::size_t r = 0; r < run.ranks.size(); ++r) {
      const IterationTerms& t = run.ranks[r][static_cast<std::size_t>(a - skipped_iterations(run, r))];
      if (t.io_s > 0 && runs_in_core(run.ranks[r])) in_core_everywhere = false;
    }
    if (in_core_everywhere) steady.push_back(a);
  }
  if (steady.size() < kMinVariationSamples) return 0;
  const std::size_t common = steady.size();
  const std::size_t samples = std::min(common, kVariationSamples);
  for (std::size_t r = 0; r < run.ranks.size(); ++r) {
    const std::vector<IterationTerms>& records = run.ranks[r];
    std::vector<double> compute;
    for (std::int64_t a : steady) {
      compute.push_back(records[static_cast<std::size_t>(a - skipped_iterations(run, r))].compute_s);
    }
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
