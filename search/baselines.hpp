#pragma once
// The baselines GBS is measured against (the companion study compared
// these four): exhaustive search at a coarse grain (the oracle for small
// cases), random sampling, simulated annealing and a genetic algorithm.
// Each leaves its best distribution in the objective and returns a detail
// line.
#include <string>

#include "search/method.hpp"

namespace mheta::search {

// Every distribution whose rows are multiples of total/grain (cut points at
// floor(total*k/grain)), over the ranks that can own rows. The grain is
// context.options.grain, or else the finest whose count of distributions
// stays within the budget (default one million).
std::string exhaustive_search(Objective& objective, const SearchContext& context);

// Distributions drawn uniformly from the simplex (sorted random cut points).
std::string random_search(Objective& objective, const SearchContext& context);

// From Blk: moves of random rows between random ranks, accepted by the
// Metropolis rule at a temperature (relative to the current time) falling
// geometrically from 5% to 0.01% over the budget; moves shrink likewise.
std::string simulated_annealing(Objective& objective, const SearchContext& context);

// A population seeded with Blk, Bal and random distributions; tournament
// selection, crossover of cut points (each cut from either parent, sorted),
// mutation by random moves, the two best kept each generation.
std::string genetic_search(Objective& objective, const SearchContext& context);

// The number of distributions of `total` rows in `grain` units over
// `ranks` ranks (as a double: it overflows integers quickly).
double exhaustive_count(int ranks, std::int64_t grain);

}  // namespace mheta::search
