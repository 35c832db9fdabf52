#include "search/prophet_decomposition.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace mheta::search {

std::vector<double> balanced_shares(std::span<const LinearCost> costs, std::span<const char> selected,
                                    double rows) {
  const std::size_t n = costs.size();
  std::vector<char> active(selected.begin(), selected.end());
  std::vector<double> shares(n, 0.0);
  for (;;) {
    double inverse_sum = 0;
    double offset = 0;
    for (std::size_t i = 0; i < n; ++i) {
      if (!active[i]) continue;
      inverse_sum += 1.0 / costs[i].y;
      offset += costs[i].x / costs[i].y;
    }
    if (inverse_sum <= 0) return shares;
    const double finish = (rows + offset) / inverse_sum;  // T*
    bool dropped = false;
    for (std::size_t i = 0; i < n; ++i) {
      if (!active[i]) continue;
      shares[i] = (finish - costs[i].x) / costs[i].y;  // A_i
      if (shares[i] <= 0) {
        shares[i] = 0;
        active[i] = 0;
        dropped = true;
      }
    }
    if (!dropped) return shares;
  }
}

std::vector<std::int64_t> round_partition(std::span<const double> shares, std::span<const LinearCost> costs,
                                          std::int64_t rows) {
  const std::size_t n = shares.size();
  std::vector<std::int64_t> out(n, 0);
  std::vector<std::size_t> holders;
  for (std::size_t i = 0; i < n; ++i) {
    out[i] = static_cast<std::int64_t>(std::llround(std::max(0.0, shares[i])));
    if (shares[i] > 0) holders.push_back(i);
  }
  // Fastest first (smallest y); equal y: lower rank first.
  std::stable_sort(holders.begin(), holders.end(), [&](std::size_t a, std::size_t b) { return costs[a].y < costs[b].y; });
  std::int64_t left = rows - std::accumulate(out.begin(), out.end(), std::int64_t{0});
  for (std::size_t k = 0; left > 0 && k < holders.size(); ++k, --left) ++out[holders[k]];
  for (std::size_t k = holders.size(); left < 0 && k-- > 0;) {
    if (out[holders[k]] > 0) {
      --out[holders[k]];
      ++left;
    }
  }
  return out;
}

}  // namespace mheta::search
