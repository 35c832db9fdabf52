#include "search/row_bounds.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

#include "search/search_error.hpp"

namespace mheta::search {

bool RowBounds::contains(std::span<const std::int64_t> rows) const {
  if (static_cast<int>(rows.size()) != ranks()) return false;
  std::int64_t sum = 0;
  for (int r = 0; r < ranks(); ++r) {
    const std::int64_t v = rows[static_cast<std::size_t>(r)];
    if (v < lo[static_cast<std::size_t>(r)] || v > hi[static_cast<std::size_t>(r)]) return false;
    sum += v;
  }
  return sum == total;
}

RowBounds row_bounds(const model::Model& model, std::int64_t min_rows) {
  if (min_rows < 0) throw SearchError(SearchError::Cause::request, "--min-rows must not be negative");
  RowBounds b;
  b.total = model.global_rows();
  int holders = 0;
  for (int r = 0; r < model.ranks(); ++r) {
    const bool holds = model.max_in_core_rows(r) >= 1;
    holders += holds ? 1 : 0;
    b.lo.push_back(holds ? min_rows : 0);
    b.hi.push_back(holds ? b.total : 0);
  }
  if (holders == 0) {
    throw SearchError(SearchError::Cause::inputs, "no rank can hold the data: every node's memory (cluster.json \"memory_bytes\") is smaller "
                      "than one row of the distributed variables, so none can allocate an ICLA");
  }
  if (min_rows > 0 && holders < model.ranks()) {
    throw SearchError(SearchError::Cause::request, "--min-rows " + std::to_string(min_rows) + " is impossible: " +
                      std::to_string(model.ranks() - holders) +
                      " rank(s) have too little memory for one row of the distributed variables");
  }
  const std::int64_t least = std::accumulate(b.lo.begin(), b.lo.end(), std::int64_t{0});
  if (least > b.total) {
    throw SearchError(SearchError::Cause::request, "--min-rows " + std::to_string(min_rows) + " is impossible: " +
                      std::to_string(model.ranks()) + " ranks need at least " + std::to_string(least) +
                      " rows but the data has " + std::to_string(b.total) + " (at most " +
                      std::to_string(b.total / model.ranks()) + " per rank)");
  }
  return b;
}

void fit_to_bounds(std::vector<std::int64_t>& rows, const RowBounds& bounds) {
  const int n = bounds.ranks();
  rows.resize(static_cast<std::size_t>(n), 0);
  std::int64_t sum = 0;
  for (int r = 0; r < n; ++r) {
    auto& v = rows[static_cast<std::size_t>(r)];
    v = std::clamp(v, bounds.lo[static_cast<std::size_t>(r)], bounds.hi[static_cast<std::size_t>(r)]);
    sum += v;
  }
  // Spread the difference evenly over the ranks that have room, a round at
  // a time (a few rounds: each fills or empties some rank or ends).
  while (sum != bounds.total) {
    const bool add = sum < bounds.total;
    int room = 0;
    for (int r = 0; r < n; ++r) {
      const auto i = static_cast<std::size_t>(r);
      room += add ? (rows[i] < bounds.hi[i]) : (rows[i] > bounds.lo[i]);
    }
    const std::int64_t gap = add ? bounds.total - sum : sum - bounds.total;
    const std::int64_t each = std::max<std::int64_t>(1, gap / std::max(room, 1));
    std::int64_t left = gap;
    for (int r = 0; r < n && left > 0; ++r) {
      const auto i = static_cast<std::size_t>(r);
      const std::int64_t can = add ? bounds.hi[i] - rows[i] : rows[i] - bounds.lo[i];
      const std::int64_t step = std::min({each, can, left});
      rows[i] += add ? step : -step;
      left -= step;
    }
    sum = add ? bounds.total - left : bounds.total + left;
  }
}

std::vector<std::int64_t> round_shares(std::span<const double> shares, const RowBounds& bounds) {
  const int n = bounds.ranks();
  double sum = 0;
  for (double s : shares) sum += std::max(0.0, s);
  std::vector<std::int64_t> rows(static_cast<std::size_t>(n), 0);
  if (sum <= 0) {
    fit_to_bounds(rows, bounds);
    return rows;
  }
  std::vector<std::pair<double, int>> remainders;
  std::int64_t given = 0;
  for (int r = 0; r < n; ++r) {
    const double exact = std::max(0.0, shares[static_cast<std::size_t>(r)]) / sum * static_cast<double>(bounds.total);
    const auto whole = static_cast<std::int64_t>(std::floor(exact));
    rows[static_cast<std::size_t>(r)] = whole;
    given += whole;
    remainders.emplace_back(exact - static_cast<double>(whole), r);
  }
  std::sort(remainders.begin(), remainders.end(), [](const auto& a, const auto& b) {
    return a.first != b.first ? a.first > b.first : a.second < b.second;
  });
  for (std::size_t k = 0; given < bounds.total && k < remainders.size(); ++k, ++given) {
    ++rows[static_cast<std::size_t>(remainders[k].second)];
  }
  fit_to_bounds(rows, bounds);
  return rows;
}

}  // namespace mheta::search
