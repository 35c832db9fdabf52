#include "search/prophet.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

namespace mheta::search {

namespace {

// What a time must be below to beat `than` by more than rounding:
// configurations whose times differ in the last bits (sums of the same
// costs in another order, as when the bottleneck is elsewhere) are ties,
// and a tie keeps what the search had, whatever the rounding.
double to_beat(double than) { return than * (1 - 1e-12); }
bool faster(double t, double than) { return t < to_beat(than); }

bool close(double a, double b, double tolerance) {
  return std::abs(a - b) <= tolerance * std::max({std::abs(a), std::abs(b), 1e-300});
}

bool same_node(const model::Node& a, const model::Node& b, double tolerance) {
  return a.memory_bytes == b.memory_bytes && close(a.cpu_power, b.cpu_power, tolerance) &&
         close(a.disk.read_overhead_s, b.disk.read_overhead_s, tolerance) &&
         close(a.disk.write_overhead_s, b.disk.write_overhead_s, tolerance) &&
         close(a.disk.async_read_overhead_s, b.disk.async_read_overhead_s, tolerance) &&
         close(a.disk.read_s_per_byte, b.disk.read_s_per_byte, tolerance) &&
         close(a.disk.write_s_per_byte, b.disk.write_s_per_byte, tolerance);
}

// Processor selection state: how many ranks of each cluster are used (the
// lowest-numbered ones of the cluster, so that the used ranks of a cluster
// stay neighbours in the 1-D order, as Prophet's placement keeps them).
using Config = std::vector<int>;

class Selector {
 public:
  Selector(Objective& objective, const model::Cluster& cluster)
      : objective_(objective), model_(objective.model()), bounds_(objective.bounds()) {
    costs_ = linear_costs(model_, model::block_distribution(model_.global_rows(), model_.ranks()).rows, bounds_);
    clusters_ = identical_node_clusters(cluster, costs_, bounds_);
  }

  const std::vector<std::vector<int>>& clusters() const { return clusters_; }

  // The time of a configuration: Prophet's decomposition, then the costs
  // linearized again around the shares found (a rank pushed out of core
  // costs more per row, one brought in core less) and the decomposition
  // redone, twice. The linearizations can oscillate across an in-core
  // threshold, so every pass is timed and the best kept.
  double time(const Config& config) { return time_below(config, model::Model::kNoLimit); }

  // The same when below `limit`; otherwise some value at least `limit`
  // (Objective::below), which is all a comparison with a time at most
  // `limit` needs.
  double time_below(const Config& config, double limit) {
    bool any = false;
    for (int p : config) any = any || p > 0;
    if (!any) return std::numeric_limits<double>::infinity();
    auto [it, fresh] = memo_.try_emplace(config, Timed{});
    // Known exactly, or known to be at least a limit as high as this one.
    if (!fresh && (it->second.exact || it->second.seconds >= limit)) return it->second.seconds;
    std::vector<char> selected(static_cast<std::size_t>(model_.ranks()), 0);
    for (std::size_t c = 0; c < clusters_.size(); ++c) {
      for (int k = 0; k < config[c]; ++k) selected[static_cast<std::size_t>(clusters_[c][static_cast<std::size_t>(k)])] = 1;
    }
    // With --min-rows every rank owns rows: all are selected.
    for (int r = 0; r < model_.ranks(); ++r) {
      if (bounds_.lo[static_cast<std::size_t>(r)] > 0) selected[static_cast<std::size_t>(r)] = 1;
    }
    std::vector<LinearCost> costs = costs_;
    Timed best{std::numeric_limits<double>::infinity(), {}, true};
    double lowest_bound = std::numeric_limits<double>::infinity();
    std::vector<std::int64_t> previous;
    for (int pass = 0; pass < 3; ++pass) {
      const std::vector<double> shares = balanced_shares(costs, selected, static_cast<double>(bounds_.total));
      std::vector<std::int64_t> rows = round_partition(shares, costs, bounds_.total);
      fit_to_bounds(rows, bounds_);
      if (rows == previous) break;
      // A pass matters only if it beats the best pass and the limit.
      const double below = std::min(limit, best.seconds);
      const double t = objective_.below(rows, below);
      if (t < below) {
        best = Timed{t, rows, true};
      } else {
        lowest_bound = std::min(lowest_bound, t);
      }
      costs = linear_costs(model_, rows, bounds_, selected);
      previous = std::move(rows);
    }
    // No pass below a finite limit: the configuration is only known to take
    // at least the lowest of their bounds.
    if (best.seconds >= limit && limit < model::Model::kNoLimit) best = Timed{lowest_bound, {}, false};
    it->second = best;
    return best.seconds;
  }

  const std::vector<std::int64_t>& distribution(const Config& config) {
    time(config);
    return memo_.at(config).rows;
  }

  // The processor count of cluster `c` that minimizes the time with the
  // other counts fixed, by binary search over [lo, V_c] (exact when the time
  // is unimodal in the count, a heuristic otherwise; §4.1.2).
  Config best_count(Config config, std::size_t c) {
    bool others = false;
    for (std::size_t j = 0; j < config.size(); ++j) others = others || (j != c && config[j] > 0);
    int lo = others ? 0 : 1;
    int hi = static_cast<int>(clusters_[c].size());
    while (lo < hi) {
      const int mid = lo + (hi - lo) / 2;
      Config a = config;
      Config b = config;
      a[c] = mid;
      b[c] = mid + 1;
      // b's time is needed exactly only when it is below a's.
      const double a_s = time(a);
      if (!faster(time_below(b, to_beat(a_s)), a_s)) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    config[c] = lo;
    return config;
  }

  // The cluster whose ranks spend most on communication (overheads and
  // waits) in the configuration, the one H1's phase 2 takes processors from.
  std::size_t costliest_communicator(const Config& config) {
    const model::Prediction p = model_.predict(distribution(config));
    std::size_t worst = 0;
    double worst_s = -1;
    for (std::size_t c = 0; c < clusters_.size(); ++c) {
      for (int k = 0; k < config[c]; ++k) {
        const model::RankBreakdown& b = p.ranks[static_cast<std::size_t>(clusters_[c][static_cast<std::size_t>(k)])];
        if (b.comm_s + b.wait_s > worst_s) {
          worst_s = b.comm_s + b.wait_s;
          worst = c;
        }
      }
    }
    return worst;
  }

 private:
  Objective& objective_;
  const model::Model& model_;
  const RowBounds& bounds_;
  std::vector<LinearCost> costs_;
  std::vector<std::vector<int>> clusters_;
  struct Timed {
    double seconds = 0;
    std::vector<std::int64_t> rows;
    bool exact = true;  // else `seconds` is only a bound below the time
  };
  std::map<Config, Timed> memo_;
};

std::string describe(const Config& config, const std::vector<std::vector<int>>& clusters) {
  std::string out = "processors per cluster of identical nodes:";
  for (std::size_t c = 0; c < clusters.size(); ++c) {
    out += " " + std::to_string(config[c]) + "/" + std::to_string(clusters[c].size());
  }
  return out;
}

}  // namespace

std::vector<LinearCost> linear_costs(const model::Model& model, std::span<const std::int64_t> rows,
                                     const RowBounds& bounds, std::span<const char> selected) {
  std::vector<LinearCost> costs;
  std::int64_t first = 0;
  for (int r = 0; r < model.ranks(); ++r) {
    const auto i = static_cast<std::size_t>(r);
    if (bounds.hi[i] == 0 || (!selected.empty() && !selected[i])) {
      costs.push_back(LinearCost{0, 0});
      first += rows[i];
      continue;
    }
    const std::int64_t at = std::min(std::max<std::int64_t>(rows[i], 2), model.global_rows());
    const std::int64_t start = std::min(first, model.global_rows() - at);
    const double full = model.rank_busy_seconds(r, start, at);
    const double half = model.rank_busy_seconds(r, start, at / 2);
    double y = (full - half) / static_cast<double>(at - at / 2);
    double x = full - y * static_cast<double>(at);
    if (!(y > 0)) y = std::max(full / static_cast<double>(at), 1e-300);
    if (x < 0) {
      x = 0;
      y = full / static_cast<double>(at);
    }
    costs.push_back(LinearCost{x, y});
    first += rows[i];
  }
  return costs;
}

std::vector<std::vector<int>> identical_node_clusters(const model::Cluster& cluster,
                                                      std::span<const LinearCost> costs, const RowBounds& bounds,
                                                      double tolerance) {
  std::vector<std::vector<int>> clusters;
  for (int r = 0; r < bounds.ranks(); ++r) {
    const auto i = static_cast<std::size_t>(r);
    if (bounds.hi[i] == 0) continue;
    bool placed = false;
    for (std::vector<int>& c : clusters) {
      const auto j = static_cast<std::size_t>(c.front());
      // x_i is left out: it differs between identical nodes at the ends of
      // a 1-D chain (one neighbour fewer), which does not make them faster.
      if (same_node(cluster.nodes[i], cluster.nodes[j], tolerance) && close(costs[i].y, costs[j].y, tolerance)) {
        c.push_back(r);
        placed = true;
        break;
      }
    }
    if (!placed) clusters.push_back({r});
  }
  return clusters;
}

std::string prophet_partition(Objective& objective, const model::Cluster& cluster, Heuristic heuristic) {
  Selector selector(objective, cluster);
  const std::size_t m = selector.clusters().size();

  // Cluster ordering: by the best time each cluster reaches alone.
  std::vector<std::pair<double, std::size_t>> order;
  for (std::size_t c = 0; c < m; ++c) {
    Config alone(m, 0);
    alone = selector.best_count(alone, c);
    order.emplace_back(selector.time(alone), c);
  }
  std::stable_sort(order.begin(), order.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });

  Config current(m, 0);
  double min_cost = std::numeric_limits<double>::infinity();
  Config best = current;
  for (const auto& [alone_s, c] : order) {
    // Phase 1 (H1 and H2): the best count of this cluster, earlier ones fixed.
    Config candidate = selector.best_count(current, c);
    const double cost = selector.time(candidate);
    if (heuristic == Heuristic::h2) {
      if (cost > min_cost) break;  // Fig 4.4: stop when T_c increases
      current = candidate;
      min_cost = cost;
      best = candidate;
      continue;
    }
    if (faster(cost, min_cost)) {
      min_cost = cost;
      best = candidate;
    }
    // Phase 2 (H1, Fig 4.3): trade processors of the cluster that spends
    // most on communication for processors of this one while that helps.
    // Fig 4.3 restarts the current cluster's count at 0; we start from the
    // phase-1 configuration, which the trades can only improve on.
    Config trade = candidate;
    double min_phase2 = std::numeric_limits<double>::infinity();
    for (;;) {
      const std::size_t k = selector.costliest_communicator(trade);
      if (k == c || trade[k] == 0 || trade[c] >= static_cast<int>(selector.clusters()[c].size())) break;
      ++trade[c];
      --trade[k];
      const double t = selector.time(trade);
      if (faster(t, min_cost)) {
        min_cost = t;
        best = trade;
      }
      if (faster(t, min_phase2)) {
        min_phase2 = t;
      } else {
        break;
      }
    }
    current = best;
  }
  return describe(best, selector.clusters());
}

}  // namespace mheta::search
