#pragma once
// Random distributions and random row moves for the stochastic baselines.
#include <cstdint>
#include <random>
#include <vector>

#include "search/row_bounds.hpp"

namespace mheta::search {

// Uniform on the simplex over the ranks that can own rows, then fitted to
// the bounds.
std::vector<std::int64_t> random_distribution(const RowBounds& bounds, std::mt19937_64& random);

// Moves between 1 and max(1, fraction * rows of the donor) rows from a
// random rank that can give to a random other rank that can take; false
// when no move is possible.
bool random_move(std::vector<std::int64_t>& rows, const RowBounds& bounds, double fraction, std::mt19937_64& random);

// Cut points (first row of ranks 1..n-1) and back.
std::vector<std::int64_t> cuts_of(const std::vector<std::int64_t>& rows);
std::vector<std::int64_t> rows_of_cuts(const std::vector<std::int64_t>& cuts, std::int64_t total);

}  // namespace mheta::search
