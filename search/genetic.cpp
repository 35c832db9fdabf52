#include <algorithm>
#include <random>

#include "search/baselines.hpp"
#include "search/canonical.hpp"
#include "search/random_moves.hpp"

namespace mheta::search {

namespace {

struct Individual {
  std::vector<std::int64_t> rows;
  double seconds;
};

}  // namespace

std::string genetic_search(Objective& objective, const SearchContext& context) {
  const std::int64_t budget = context.options.budget > 0 ? context.options.budget : 10000;
  constexpr std::size_t kPopulation = 32;
  constexpr std::size_t kElite = 2;
  constexpr double kMutation = 0.3;
  const RowBounds& bounds = objective.bounds();
  std::mt19937_64 random(context.options.seed);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  std::vector<Individual> population;
  auto add = [&](std::vector<std::int64_t> rows) {
    const double s = objective(rows);
    population.push_back(Individual{std::move(rows), s});
  };
  add(canonical_distribution(context.model, bounds, Canonical::blk).rows);
  add(canonical_distribution(context.model, bounds, Canonical::bal).rows);
  while (population.size() < kPopulation) add(random_distribution(bounds, random));
  std::uniform_int_distribution<std::size_t> pick(0, kPopulation - 1);
  auto tournament = [&]() -> const Individual& {
    const Individual* best = &population[pick(random)];
    for (int k = 0; k < 2; ++k) {
      const Individual& other = population[pick(random)];
      if (other.seconds < best->seconds) best = &other;
    }
    return *best;
  };
  int generations = 0;
  while (objective.evaluations() + static_cast<std::int64_t>(kPopulation - kElite) <= budget) {
    std::sort(population.begin(), population.end(),
              [](const Individual& a, const Individual& b) { return a.seconds < b.seconds; });
    std::vector<Individual> next(population.begin(), population.begin() + kElite);
    while (next.size() < kPopulation) {
      const std::vector<std::int64_t> a = cuts_of(tournament().rows);
      const std::vector<std::int64_t> b = cuts_of(tournament().rows);
      std::vector<std::int64_t> cuts;
      for (std::size_t k = 0; k < a.size(); ++k) cuts.push_back(uniform(random) < 0.5 ? a[k] : b[k]);
      std::sort(cuts.begin(), cuts.end());
      std::vector<std::int64_t> child = rows_of_cuts(cuts, bounds.total);
      fit_to_bounds(child, bounds);
      if (uniform(random) < kMutation) random_move(child, bounds, 0.25, random);
      const double s = objective(child);
      next.push_back(Individual{std::move(child), s});
    }
    population = std::move(next);
    ++generations;
  }
  return std::to_string(generations) + " generations of " + std::to_string(kPopulation);
}

}  // namespace mheta::search
