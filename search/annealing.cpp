#include <cmath>
#include <random>

#include "search/baselines.hpp"
#include "search/canonical.hpp"
#include "search/random_moves.hpp"

namespace mheta::search {

std::string simulated_annealing(Objective& objective, const SearchContext& context) {
  const std::int64_t budget = context.options.budget > 0 ? context.options.budget : 10000;
  std::mt19937_64 random(context.options.seed);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  std::vector<std::int64_t> current = canonical_distribution(context.model, objective.bounds(), Canonical::blk).rows;
  double current_s = objective(current);
  std::int64_t accepted = 0;
  for (std::int64_t k = 0; k < budget; ++k) {
    const double progress = static_cast<double>(k) / static_cast<double>(budget);
    const double temperature = 0.05 * std::pow(0.0001 / 0.05, progress);
    const double fraction = 0.5 * std::pow(0.01 / 0.5, progress);
    std::vector<std::int64_t> next = current;
    if (!random_move(next, objective.bounds(), fraction, random)) break;
    const double next_s = objective(next);
    // Metropolis on the relative change, so the schedule fits any scale.
    const double worse = (next_s - current_s) / current_s;
    if (worse <= 0 || uniform(random) < std::exp(-worse / temperature)) {
      current = std::move(next);
      current_s = next_s;
      ++accepted;
    }
  }
  return std::to_string(budget) + " steps from Blk, " + std::to_string(accepted) + " accepted";
}

}  // namespace mheta::search
