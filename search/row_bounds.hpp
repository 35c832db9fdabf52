#pragma once
// The rows each rank may own: at least --min-rows, and none on a rank whose
// memory cannot hold even one row of every distributed variable (it could
// not allocate an ICLA). Every method searches inside these bounds.
#include <cstdint>
#include <span>
#include <vector>

#include "model/model.hpp"

namespace mheta::search {

struct RowBounds {
  std::vector<std::int64_t> lo;
  std::vector<std::int64_t> hi;
  std::int64_t total = 0;  // the rows to distribute

  int ranks() const { return static_cast<int>(lo.size()); }
  bool contains(std::span<const std::int64_t> rows) const;
};

// Throws SearchError, saying why, when no distribution fits the bounds.
RowBounds row_bounds(const model::Model& model, std::int64_t min_rows);

// Moves `rows` (of any sum) to the nearest distribution inside the bounds:
// clamps every rank, then adds or removes rows one at a time where it
// changes the shares least (the ranks furthest below or above their share).
void fit_to_bounds(std::vector<std::int64_t>& rows, const RowBounds& bounds);

// Integer rows from non-negative real shares (any scale), inside the
// bounds, by largest remainders: the sum is exact, each rank within one
// row of its share before the bounds apply.
std::vector<std::int64_t> round_shares(std::span<const double> shares, const RowBounds& bounds);

}  // namespace mheta::search
