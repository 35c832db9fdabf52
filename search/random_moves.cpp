#include "search/random_moves.hpp"

#include <algorithm>

namespace mheta::search {

std::vector<std::int64_t> random_distribution(const RowBounds& bounds, std::mt19937_64& random) {
  std::vector<int> holders;
  for (int r = 0; r < bounds.ranks(); ++r) {
    if (bounds.hi[static_cast<std::size_t>(r)] > 0) holders.push_back(r);
  }
  std::uniform_int_distribution<std::int64_t> point(0, bounds.total);
  std::vector<std::int64_t> cuts;
  for (std::size_t k = 1; k < holders.size(); ++k) cuts.push_back(point(random));
  std::sort(cuts.begin(), cuts.end());
  const std::vector<std::int64_t> parts = rows_of_cuts(cuts, bounds.total);
  std::vector<std::int64_t> rows(static_cast<std::size_t>(bounds.ranks()), 0);
  for (std::size_t k = 0; k < holders.size(); ++k) rows[static_cast<std::size_t>(holders[k])] = parts[k];
  fit_to_bounds(rows, bounds);
  return rows;
}

bool random_move(std::vector<std::int64_t>& rows, const RowBounds& bounds, double fraction, std::mt19937_64& random) {
  std::vector<int> givers;
  for (int r = 0; r < bounds.ranks(); ++r) {
    if (rows[static_cast<std::size_t>(r)] > bounds.lo[static_cast<std::size_t>(r)]) givers.push_back(r);
  }
  if (givers.empty()) return false;
  const int d = givers[std::uniform_int_distribution<std::size_t>(0, givers.size() - 1)(random)];
  std::vector<int> takers;
  for (int r = 0; r < bounds.ranks(); ++r) {
    if (r != d && rows[static_cast<std::size_t>(r)] < bounds.hi[static_cast<std::size_t>(r)]) takers.push_back(r);
  }
  if (takers.empty()) return false;
  const int j = takers[std::uniform_int_distribution<std::size_t>(0, takers.size() - 1)(random)];
  const auto di = static_cast<std::size_t>(d);
  const auto ji = static_cast<std::size_t>(j);
  const std::int64_t most =
      std::min({std::max<std::int64_t>(1, static_cast<std::int64_t>(fraction * static_cast<double>(rows[di]))),
                rows[di] - bounds.lo[di], bounds.hi[ji] - rows[ji]});
  const std::int64_t amount = std::uniform_int_distribution<std::int64_t>(1, most)(random);
  rows[di] -= amount;
  rows[ji] += amount;
  return true;
}

std::vector<std::int64_t> cuts_of(const std::vector<std::int64_t>& rows) {
  std::vector<std::int64_t> cuts;
  std::int64_t first = 0;
  for (std::size_t k = 0; k + 1 < rows.size(); ++k) {
    first += rows[k];
    cuts.push_back(first);
  }
  return cuts;
}

std::vector<std::int64_t> rows_of_cuts(const std::vector<std::int64_t>& cuts, std::int64_t total) {
  std::vector<std::int64_t> rows;
  std::int64_t previous = 0;
  for (std::int64_t c : cuts) {
    rows.push_back(c - previous);
    previous = c;
  }
  rows.push_back(total - previous);
  return rows;
}

}  // namespace mheta::search
