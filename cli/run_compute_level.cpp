#include "cli/run_compute_level.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <exception>
#include <iostream>
#include <optional>
#include <vector>

#include "model/compute_variation.hpp"
#include "model/in_core_compute.hpp"

namespace mheta::cli {

namespace {

// Beyond this the run's iterations are not the captured period (a loop of
// another length, a different boundary): the captured compute stays.
constexpr double kMostApart = 3.0;

// How far a rank's count of recorded iterations may be from the run's:
// the records start at MPI_Init and stop at the last whole iteration, and an
// automatic capture counts the run's iterations from its own start.
constexpr double kIterationCountSlack = 0.1;

bool same_iterations(const std::string& capture, const std::string& boundary) {
  if (boundary == "mark") return capture.empty() || capture == "auto" || capture == "mark";
  if (boundary == "call") return capture.empty() || capture == "auto" || capture.rfind("call:", 0) == 0;
  return false;
}

}  // namespace

int forget_ranks_of_another_loop(model::Profile& profile, const model::Accounting& run) {
  // Each rank's iterations recorded after its first record (a sampled
  // rank's span them: its last record's iteration less its skipped ones).
  std::vector<std::int64_t> counts;
  for (std::size_t r = 0; r < run.ranks.size(); ++r) {
    counts.push_back(model::last_recorded_iteration(run, r) - model::skipped_iterations(run, r));
  }
  if (counts.empty() || counts.size() != profile.ranks.size()) return 0;
  std::vector<std::int64_t> sorted = counts;
  std::nth_element(sorted.begin(), sorted.begin() + std::ssize(sorted) / 2, sorted.end());
  const double expected = profile.iterations > 1 ? static_cast<double>(profile.iterations)
                                                 : static_cast<double>(sorted[sorted.size() / 2]);
  int forgotten = 0;
  for (std::size_t r = 0; r < counts.size(); ++r) {
    if (!profile.ranks[r].in_core_compute_s) continue;
    // Iterations ended by another loop's boundary before are not recorded.
    const double mine = std::max(1.0, expected - static_cast<double>(model::skipped_iterations(run, r)));
    if (std::abs(static_cast<double>(counts[r]) - mine) > kIterationCountSlack * mine) {
      profile.ranks[r].in_core_compute_s.reset();
      ++forgotten;
    }
  }
  return forgotten;
}

namespace {
// As many as the compute's variation takes, for it and the median.
constexpr int kWallClockRecordSamples = static_cast<int>(model::kVariationSamples);

bool virtual_clock(const std::string& emulate, const std::string& clock) {
  return clock == "virtual" || (clock.empty() && !emulate.empty());
}
}  // namespace

bool records_run_compute(const std::string& capture) { return capture != "off" && capture != "pcontrol"; }

int run_record_samples(const std::string& emulate, const std::string& clock) {
  return virtual_clock(emulate, clock) ? 0 : kWallClockRecordSamples;
}

bool record_run_compute(const std::filesystem::path& profile_path, const std::filesystem::path& accounting_path,
                        const std::string& capture) {
  try {
    const model::Accounting run = model::read_accounting(accounting_path);
    if (!same_iterations(capture, run.boundary)) return false;
    model::Profile profile = model::read_profile(profile_path);
    const int recorded = model::record_in_core_compute(profile, run);
    if (recorded == 0) {
      // Not forced out of core: the captured compute is in core already.
      // Else its iterations all did I/O (the program's own, or out of
      // core): their compute is the captured one's kind.
      if (!profile.forced_out_of_core) return false;
      std::cerr << "mheta run: no rank ran " << model::kMinInCoreIterations
                << " iterations without I/O in the run (the program does I/O every iteration, or runs out of "
                   "core): the profile keeps the captured compute\n";
      return false;
    }
    const int forgotten = forget_ranks_of_another_loop(profile, run);
    const int ranks = recorded - forgotten;
    if (ranks <= 0) {
      std::cerr << "mheta run: no rank's records hold the captured iterations (another number of them): the "
                   "profile keeps the captured compute\n";
      return false;
    }
    const std::vector<double> ratios = model::in_core_compute_ratios(profile);
    const auto [low, high] = std::minmax_element(ratios.begin(), ratios.end());
    if (*high > kMostApart || *low < 1 / kMostApart) {
      std::cerr << "mheta run: the run's iterations are not the captured period (a rank's compute per iteration "
                << *low << "-" << *high << "x the captured): the profile keeps the captured compute\n";
      return false;
    }
    // Only from records that are all of the captured loop.
    const std::size_t samples = forgotten == 0 ? model::record_compute_variation(profile, run) : 0;
    // The pace is the run's only where every rank's records are of the loop.
    const std::optional<double> pace =
        forgotten == 0 && profile.capture ? model::pace_over_median_iteration(run) : std::nullopt;
    if (pace) profile.capture->pace = *pace;
    model::write_profile(profile_path, profile);
    std::cerr << "mheta run: in-core compute of " << ranks << " of " << profile.rank_count()
              << " ranks from the median of the run's iterations (" << *low << "-" << *high
              << "x the captured periods')";
    if (samples > 0) std::cerr << ", its variation from " << samples << " of them";
    std::cerr << "\n";
    return pace.has_value();
  } catch (const std::exception& error) {
    std::cerr << "mheta run: warning: the profile keeps the captured compute (" << error.what() << ")\n";
    return false;
  }
}

}  // namespace mheta::cli
