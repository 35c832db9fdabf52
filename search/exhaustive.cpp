#include <cmath>
#include <string>

#include "search/baselines.hpp"
#include "search/search_error.hpp"

namespace mheta::search {

double exhaustive_count(int ranks, std::int64_t grain) {
  // C(grain + ranks - 1, ranks - 1)
  double count = 1;
  for (int k = 1; k < ranks; ++k) count = count * static_cast<double>(grain + k) / k;
  return count;
}

std::string exhaustive_search(Objective& objective, const SearchContext& context) {
  const RowBounds& bounds = objective.bounds();
  std::vector<int> holders;
  for (int r = 0; r < bounds.ranks(); ++r) {
    if (bounds.hi[static_cast<std::size_t>(r)] > 0) holders.push_back(r);
  }
  const int h = static_cast<int>(holders.size());
  const double limit = context.options.budget > 0 ? static_cast<double>(context.options.budget) : 1e6;
  std::int64_t grain = context.options.grain;
  if (grain <= 0) {
    grain = 1;
    while (grain < bounds.total && exhaustive_count(h, grain + 1) <= limit) ++grain;
  }
  grain = std::min(grain, bounds.total);
  if (exhaustive_count(h, grain) > 1e9) {
    throw SearchError(SearchError::Cause::request, "exhaustive search at grain " + std::to_string(grain) + " over " + std::to_string(h) +
                      " ranks would evaluate " + std::to_string(exhaustive_count(h, grain)) +
                      " distributions; choose a coarser --grain");
  }
  std::vector<std::int64_t> units(static_cast<std::size_t>(h), 0);
  std::vector<std::int64_t> rows(static_cast<std::size_t>(bounds.ranks()), 0);
  auto cut = [&](std::int64_t u) { return static_cast<std::int64_t>((static_cast<__int128>(bounds.total) * u) / grain); };
  // Depth-first over compositions of `grain` into h parts.
  auto visit = [&](auto&& self, int k, std::int64_t used) -> void {
    if (k == h - 1) {
      units[static_cast<std::size_t>(k)] = grain - used;
      std::int64_t u = 0;
      for (int i = 0; i < h; ++i) {
        const std::int64_t from = cut(u);
        u += units[static_cast<std::size_t>(i)];
        rows[static_cast<std::size_t>(holders[static_cast<std::size_t>(i)])] = cut(u) - from;
      }
      objective(rows);  // out of bounds (--min-rows): not evaluated
      return;
    }
    for (std::int64_t take = 0; take <= grain - used; ++take) {
      units[static_cast<std::size_t>(k)] = take;
      self(self, k + 1, used + take);
    }
  };
  visit(visit, 0, 0);
  return "grain " + std::to_string(grain) + " (" + std::to_string(bounds.total / grain) + "+ rows a unit), " +
         std::to_string(static_cast<long long>(exhaustive_count(h, grain))) + " distributions";
}

}  // namespace mheta::search
