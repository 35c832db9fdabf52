#include <algorithm>
#include <random>

#include "search/baselines.hpp"
#include "search/random_moves.hpp"

namespace mheta::search {

std::string random_search(Objective& objective, const SearchContext& context) {
  const std::int64_t budget = context.options.budget > 0 ? context.options.budget : 10000;
  std::mt19937_64 random(context.options.seed);
  for (std::int64_t k = 0; k < budget; ++k) objective(random_distribution(objective.bounds(), random));
  return std::to_string(budget) + " random distributions";
}

}  // namespace mheta::search
