#include "search/canonical.hpp"

#include <algorithm>
#include <cctype>
#include <limits>
#include <numeric>

#include "search/search_error.hpp"

namespace mheta::search {

namespace {

struct CanonicalName {
  Canonical which;
  std::string_view name;
};
constexpr CanonicalName kNames[] = {
    {Canonical::blk, "Blk"},
    {Canonical::bal, "Bal"},
    {Canonical::in_core, "I-C"},
    {Canonical::in_core_balanced, "I-C/Bal"},
};

bool same_ignoring_case(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

std::vector<double> speeds(const model::Model& model, const RowBounds& bounds) {
  std::vector<double> speed;
  for (int r = 0; r < model.ranks(); ++r) {
    const double per_row = model.compute_seconds_per_work(r);
    const bool usable = bounds.hi[static_cast<std::size_t>(r)] > 0;
    speed.push_back(!usable ? 0.0 : per_row > 0 ? 1.0 / per_row : 1.0);
  }
  // A rank that measured no compute at all is as fast as the fastest one.
  const double fastest = *std::max_element(speed.begin(), speed.end());
  for (int r = 0; r < model.ranks(); ++r) {
    if (bounds.hi[static_cast<std::size_t>(r)] > 0 && model.compute_seconds_per_work(r) <= 0) {
      speed[static_cast<std::size_t>(r)] = fastest;
    }
  }
  return speed;
}

std::vector<std::int64_t> in_core_caps(const model::Model& model, const RowBounds& bounds) {
  std::vector<std::int64_t> caps;
  for (int r = 0; r < model.ranks(); ++r) {
    caps.push_back(std::min(model.max_in_core_rows(r), bounds.hi[static_cast<std::size_t>(r)]));
  }
  return caps;
}

// rows_i = min(cap_i, lambda * weight_i) with sum = total (Sum caps >= total).
std::vector<double> water_fill(std::span<const double> weight, std::span<const std::int64_t> caps, double total) {
  const std::size_t n = weight.size();
  std::vector<double> rows(n, 0.0);
  std::vector<char> capped(n, 0);
  for (;;) {
    double free_weight = 0;
    double left = total;
    for (std::size_t i = 0; i < n; ++i) {
      if (capped[i]) {
        left -= static_cast<double>(caps[i]);
      } else {
        free_weight += weight[i];
      }
    }
    if (free_weight <= 0) return rows;
    const double lambda = left / free_weight;
    bool changed = false;
    for (std::size_t i = 0; i < n; ++i) {
      if (capped[i]) continue;
      rows[i] = lambda * weight[i];
      if (rows[i] > static_cast<double>(caps[i])) {
        rows[i] = static_cast<double>(caps[i]);
        capped[i] = 1;
        changed = true;
      }
    }
    if (!changed) return rows;
  }
}

// Rows whose work (the sum of row weights, or rows) is in proportion to
// `shares`: rows do not all weigh the same in sparse codes (the paper's
// limitation 3), so Bal cuts the rows where the cumulative work reaches
// each rank's share.
std::vector<std::int64_t> rows_for_work_shares(const model::Model& model, const RowBounds& bounds,
                                               std::span<const double> shares) {
  const double total_share = std::accumulate(shares.begin(), shares.end(), 0.0);
  const double total_work = model.work_of_rows(0, bounds.total);
  if (total_share <= 0 || total_work <= 0) return round_shares(shares, bounds);
  std::vector<std::int64_t> rows;
  double cumulative = 0;
  std::int64_t previous_cut = 0;
  for (std::size_t r = 0; r < shares.size(); ++r) {
    cumulative += shares[r];
    const double target = total_work * cumulative / total_share;
    // The first row count whose work reaches the target, or the one before
    // it when that is nearer.
    std::int64_t lo = previous_cut;
    std::int64_t hi = bounds.total;
    while (lo < hi) {
      const std::int64_t mid = lo + (hi - lo) / 2;
      if (model.work_of_rows(0, mid) < target) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    if (lo > previous_cut && target - model.work_of_rows(0, lo - 1) < model.work_of_rows(0, lo) - target) --lo;
    if (r + 1 == shares.size()) lo = bounds.total;
    rows.push_back(lo - previous_cut);
    previous_cut = lo;
  }
  fit_to_bounds(rows, bounds);
  return rows;
}

// When the in-core capacity cannot hold the data: every rank at its cap,
// the rest on the one rank that `cost` rates cheapest for it.
template <typename Cost>
std::vector<std::int64_t> overflow_to_one(const model::Model& model, const RowBounds& bounds,
                                          std::span<const std::int64_t> caps, Cost cost) {
  const std::int64_t capacity = std::accumulate(caps.begin(), caps.end(), std::int64_t{0});
  const std::int64_t overflow = bounds.total - capacity;
  int chosen = -1;
  double chosen_cost = std::numeric_limits<double>::infinity();
  for (int r = 0; r < model.ranks(); ++r) {
    if (bounds.hi[static_cast<std::size_t>(r)] == 0) continue;
    const double c = cost(r, caps[static_cast<std::size_t>(r)] + overflow);
    if (c < chosen_cost) {
      chosen_cost = c;
      chosen = r;
    }
  }
  std::vector<std::int64_t> rows(caps.begin(), caps.end());
  rows[static_cast<std::size_t>(chosen)] += overflow;
  fit_to_bounds(rows, bounds);
  return rows;
}

std::vector<std::int64_t> rows_of(const model::Model& model, const RowBounds& bounds, Canonical which) {
  const std::size_t n = static_cast<std::size_t>(model.ranks());
  switch (which) {
    case Canonical::blk: {
      std::vector<double> equal(n);
      for (std::size_t i = 0; i < n; ++i) equal[i] = bounds.hi[i] > 0 ? 1.0 : 0.0;
      return round_shares(equal, bounds);
    }
    case Canonical::bal:
      return rows_for_work_shares(model, bounds, speeds(model, bounds));
    case Canonical::in_core:
    case Canonical::in_core_balanced: {
      const std::vector<std::int64_t> caps = in_core_caps(model, bounds);
      const std::int64_t capacity = std::accumulate(caps.begin(), caps.end(), std::int64_t{0});
      if (capacity < bounds.total) {
        // I-C: the cheapest I/O for the overflow (busy time less compute);
        // I-C/Bal: the rank that finishes it soonest.
        const bool io_only = which == Canonical::in_core;
        return overflow_to_one(model, bounds, caps, [&](int r, std::int64_t rows) {
          const double busy = model.rank_busy_seconds(r, 0, rows);
          return io_only ? busy - model.compute_seconds_per_work(r) * model.work_of_rows(0, rows) : busy;
        });
      }
      std::vector<double> weight(n);
      if (which == Canonical::in_core) {
        for (std::size_t i = 0; i < n; ++i) weight[i] = static_cast<double>(caps[i]);
      } else {
        weight = speeds(model, bounds);
      }
      // The caps bound the rounding too: floor(x) + 1 <= cap when x < cap.
      return round_shares(water_fill(weight, caps, static_cast<double>(bounds.total)), bounds);
    }
  }
  return {};
}

}  // namespace

std::string_view canonical_name(Canonical which) {
  for (const CanonicalName& n : kNames) {
    if (n.which == which) return n.name;
  }
  return "?";
}

Canonical canonical_from_name(std::string_view name) {
  for (const CanonicalName& n : kNames) {
    if (same_ignoring_case(n.name, name)) return n.which;
  }
  throw SearchError(SearchError::Cause::request, "unknown distribution \"" + std::string(name) + "\" (expected Blk, Bal, I-C or I-C/Bal)");
}

model::GenBlock canonical_distribution(const model::Model& model, const RowBounds& bounds, Canonical which) {
  return model::GenBlock{rows_of(model, bounds, which)};
}

std::vector<NamedDistribution> spectrum(const model::Model& model, const RowBounds& bounds, int steps) {
  if (steps < 1) throw SearchError(SearchError::Cause::request, "the spectrum needs at least one step per leg");
  const Canonical legs[] = {Canonical::blk, Canonical::in_core, Canonical::in_core_balanced, Canonical::bal,
                            Canonical::blk};
  std::vector<NamedDistribution> points;
  auto add = [&](std::string name, model::GenBlock dist) {
    if (!points.empty() && points.back().dist == dist) return;
    points.push_back(NamedDistribution{std::move(name), std::move(dist)});
  };
  for (std::size_t leg = 0; leg + 1 < std::size(legs); ++leg) {
    const model::GenBlock from = canonical_distribution(model, bounds, legs[leg]);
    const model::GenBlock to = canonical_distribution(model, bounds, legs[leg + 1]);
    add(std::string(canonical_name(legs[leg])), from);
    for (int s = 1; s < steps; ++s) {
      const double t = static_cast<double>(s) / steps;
      std::vector<double> mix;
      for (std::size_t i = 0; i < from.rows.size(); ++i) {
        mix.push_back((1 - t) * static_cast<double>(from.rows[i]) + t * static_cast<double>(to.rows[i]));
      }
      add(std::string(canonical_name(legs[leg])) + "->" + std::string(canonical_name(legs[leg + 1])) + " " +
              std::to_string(s) + "/" + std::to_string(steps),
          model::GenBlock{round_shares(mix, bounds)});
    }
  }
  add("Blk", canonical_distribution(model, bounds, Canonical::blk));
  return points;
}

}  // namespace mheta::search
