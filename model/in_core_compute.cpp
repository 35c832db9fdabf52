#include "model/in_core_compute.hpp"

#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>

namespace mheta::model {

namespace {

double captured_compute_s(const RankProfile& rank) {
  double compute = 0;
  for (const Section& section : rank.sections) {
    for (const Stage& stage : section.stages) compute += stage.compute_s;
  }
  return compute;
}

}  // namespace

void require_same_ranks(const Profile& profile, const Accounting& run) {
  if (run.ranks.size() != profile.ranks.size()) {
    throw std::invalid_argument("the run's records have " + std::to_string(run.ranks.size()) +
                                " ranks, the profile " + std::to_string(profile.ranks.size()));
  }
}

std::vector<double> in_core_compute_of(const std::vector<IterationTerms>& records) {
  std::vector<double> in_core;
  for (std::size_t k = 1; k < records.size(); ++k) {
    if (records[k].io_s == 0 && records[k].compute_s > 0) in_core.push_back(records[k].compute_s);
  }
  return in_core;
}

bool runs_in_core(const std::vector<IterationTerms>& records) {
  return static_cast<std::int64_t>(in_core_compute_of(records).size()) >= kMinInCoreIterations;
}

int record_in_core_compute(Profile& profile, const Accounting& run) {
  require_same_ranks(profile, run);
  if (!profile.forced_out_of_core || run.clock != profile_clock_name(profile.clock)) return 0;
  int recorded = 0;
  for (std::size_t r = 0; r < profile.ranks.size(); ++r) {
    std::vector<double> in_core = in_core_compute_of(run.ranks[r]);
    if (static_cast<std::int64_t>(in_core.size()) < kMinInCoreIterations) continue;
    profile.ranks[r].in_core_compute_s = median_of(std::move(in_core));
    ++recorded;
  }
  return recorded;
}

std::vector<double> in_core_compute_ratios(const Profile& profile) {
  std::vector<double> ratios(profile.ranks.size(), 0.0);
  std::vector<double> measured;
  for (std::size_t r = 0; r < profile.ranks.size(); ++r) {
    const RankProfile& rank = profile.ranks[r];
    const double captured = captured_compute_s(rank);
    if (!rank.in_core_compute_s || captured <= 0) continue;
    ratios[r] = *rank.in_core_compute_s / captured;
    measured.push_back(ratios[r]);
  }
  const double others = measured.empty() ? 1.0 : median_of(measured);
  for (std::size_t r = 0; r < profile.ranks.size(); ++r) {
    const RankProfile& rank = profile.ranks[r];
    if (!rank.in_core_compute_s || captured_compute_s(rank) <= 0) ratios[r] = others;
  }
  return ratios;
}

std::optional<double> pace_over_median_iteration(const Accounting& run) {
  std::optional<double> furthest;
  for (const std::vector<IterationTerms>& records : run.ranks) {
    const bool in_core = runs_in_core(records);
    std::vector<double> totals;
    for (std::size_t k = 1; k < records.size(); ++k) {
      if (!(in_core && records[k].io_s > 0)) totals.push_back(records[k].total_s);
    }
    if (static_cast<std::int64_t>(totals.size()) < kMinInCoreIterations) continue;
    const double mean = std::accumulate(totals.begin(), totals.end(), 0.0) / static_cast<double>(totals.size());
    const double median = median_of(std::move(totals));
    if (median <= 0) continue;
    const double pace = mean / median;
    if (!furthest || std::abs(std::log(pace)) > std::abs(std::log(*furthest))) furthest = pace;
  }
  return furthest;
}

}  // namespace mheta::model
