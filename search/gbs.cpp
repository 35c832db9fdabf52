#include "search/gbs.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "search/canonical.hpp"
#include "search/prophet.hpp"
#include "search/search_error.hpp"

namespace mheta::search {

namespace {

// The most rows in [lo, hi] that `rank`, starting at `first`, finishes
// within `limit` under the per-rank model; lo when even lo + 1 does not.
// The busy time is non-decreasing in the rows, so the search gallops from
// `hint` (the answer at a nearby limit) up or down, then bisects: a few
// evaluations when the hint is close, as it is while the finish time
// converges.
std::int64_t rows_within(const model::Model& model, int rank, std::int64_t first, std::int64_t lo, std::int64_t hi,
                         double limit, std::int64_t hint) {
  if (hi <= lo) return lo;
  auto fits = [&](std::int64_t rows) { return model.rank_busy_seconds(rank, first, rows) <= limit; };
  std::int64_t ok = lo;       // finishes within the limit (or the least it may own)
  std::int64_t bad = hi + 1;  // does not (or beyond the range)
  const std::int64_t start = std::clamp(hint, lo + 1, hi);
  if (fits(start)) {
    ok = start;
    for (std::int64_t step = 1; ok + step < bad; step *= 2) {
      if (!fits(ok + step)) {
        bad = ok + step;
        break;
      }
      ok += step;
    }
  } else {
    bad = start;
    for (std::int64_t step = 1; bad - step > ok; step *= 2) {
      if (fits(bad - step)) {
        ok = bad - step;
        break;
      }
      bad -= step;
    }
  }
  while (bad - ok > 1) {
    const std::int64_t mid = ok + (bad - ok) / 2;
    (fits(mid) ? ok : bad) = mid;
  }
  return ok;
}

// Ranks take, in rank order, what they finish within `limit`, keeping the
// minimum rows of the ranks after them. Covers the data when the sum of
// `rows` reaches the total. `rows` comes in holding each rank's answer at
// a nearby limit, the starting point of its search.
std::int64_t fill(const model::Model& model, const RowBounds& bounds, double limit, std::vector<std::int64_t>& rows) {
  const int n = bounds.ranks();
  std::int64_t reserve = 0;
  for (int r = 0; r < n; ++r) reserve += bounds.lo[static_cast<std::size_t>(r)];
  std::int64_t first = 0;
  for (int r = 0; r < n; ++r) {
    const auto i = static_cast<std::size_t>(r);
    reserve -= bounds.lo[i];
    const std::int64_t hi = std::min(bounds.hi[i], bounds.total - first - reserve);
    rows[i] = rows_within(model, r, first, bounds.lo[i], std::max(hi, bounds.lo[i]), limit, rows[i]);
    first += rows[i];
  }
  return first;
}

}  // namespace

CommonFinish common_finish_time(const model::Model& model, const RowBounds& bounds) {
  const int n = bounds.ranks();
  // An upper bound: the busiest rank of Blk, doubled until it covers.
  std::vector<std::int64_t> start = canonical_distribution(model, bounds, Canonical::blk).rows;
  std::vector<std::int64_t> rows = start;  // where each rank's first search starts
  double hi = 0;
  std::int64_t first = 0;
  for (int r = 0; r < n; ++r) {
    hi = std::max(hi, model.rank_busy_seconds(r, first, start[static_cast<std::size_t>(r)]));
    first += start[static_cast<std::size_t>(r)];
  }
  hi = std::max(hi, 1e-300);
  for (int doubling = 0; fill(model, bounds, hi, rows) < bounds.total; ++doubling) {
    // Finite busy times always fit under some doubling; only NaN or
    // infinite costs in the inputs get here.
    if (doubling == 2000) {
      throw SearchError(SearchError::Cause::inputs,
                        "the per-rank model gives no finite finish time for the data (non-finite costs in the "
                        "profile or cluster)");
    }
    hi *= 2;
  }
  double lo = 0;
  // Relative precision 1e-9 is far below the model's own accuracy; the
  // iteration cap guards against pathological (denormal) times.
  for (int k = 0; k < 100 && hi - lo > 1e-9 * hi; ++k) {
    const double mid = lo + (hi - lo) / 2;
    if (fill(model, bounds, mid, rows) >= bounds.total) {
      hi = mid;
    } else {
      lo = mid;
    }
  }
  fill(model, bounds, hi, rows);
  fit_to_bounds(rows, bounds);  // rounding at the last rank
  return CommonFinish{rows, hi};
}

namespace {

struct Candidates {
  std::vector<int> donors;
  std::vector<int> receivers;
};

// Which ranks give rows and which take them in a refining round.
Candidates candidates(const model::Prediction& p, const std::vector<std::int64_t>& current, const RowBounds& bounds) {
  constexpr int kReceivers = 3;
  constexpr int kAllPairs = 16;
  const int n = bounds.ranks();
  Candidates c;
  if (n <= kAllPairs) {
    // Few ranks: every move is worth trying (pipelines, where the best
    // distribution is not the one that balances the ranks' busy time).
    for (int r = 0; r < n; ++r) {
      c.donors.push_back(r);
      c.receivers.push_back(r);
    }
    return c;
  }
  // Each rank's busy time in steps of a billionth of the iteration: ranks
  // alike (a cluster's identical nodes) differ only in the last bits, and
  // those must not decide which of them is tried first (the lowest does).
  const double step = std::max(p.iteration_s, 1e-300) * 1e-9;
  std::vector<double> busy_steps(static_cast<std::size_t>(n));
  for (int r = 0; r < n; ++r) {
    const model::RankBreakdown& b = p.ranks[static_cast<std::size_t>(r)];
    busy_steps[static_cast<std::size_t>(r)] = std::round((b.total_s - b.wait_s) / step);
  }
  auto busy = [&](int r) { return busy_steps[static_cast<std::size_t>(r)]; };
  int busiest = 0;
  for (int r = 1; r < n; ++r) {
    if (busy(r) > busy(busiest)) busiest = r;
  }
  // Donors: the rank that finishes last and the busiest one.
  c.donors.push_back(p.slowest_rank);
  if (busiest != p.slowest_rank) c.donors.push_back(busiest);
  // Receivers: the least busy ranks that own rows, the least busy that owns
  // none, and each donor's neighbours.
  std::vector<int> by_busy;
  for (int r = 0; r < n; ++r) {
    if (bounds.hi[static_cast<std::size_t>(r)] > current[static_cast<std::size_t>(r)]) by_busy.push_back(r);
  }
  std::stable_sort(by_busy.begin(), by_busy.end(), [&](int a, int b) { return busy(a) < busy(b); });
  int owning = 0;
  bool empty_taken = false;
  for (int r : by_busy) {
    const bool owns = current[static_cast<std::size_t>(r)] > 0;
    if (owns && owning < kReceivers) {
      c.receivers.push_back(r);
      ++owning;
    } else if (!owns && !empty_taken) {
      c.receivers.push_back(r);
      empty_taken = true;
    }
  }
  for (int d : c.donors) {
    for (int nb : {d - 1, d + 1}) {
      if (nb >= 0 && nb < n) c.receivers.push_back(nb);
    }
  }
  return c;
}

// A lower bound on the predicted time of `current` with rows moved from one
// rank to another, without a replay: no rank finishes before its own busy
// time (compute, I/O, message overheads: waits only add to it) when every
// rank owns rows, so that every message is sent and received. Ranks other
// than the two keep the busy time of the prediction of `current`; those
// between them are left out, since with row weights their work moves too.
class MoveBound {
 public:
  MoveBound(const model::Model& model, const model::Prediction& p, const std::vector<std::int64_t>& current)
      : model_(model), current_(current) {
    const std::size_t n = current.size();
    below_.assign(n + 1, 0.0);
    above_.assign(n + 1, 0.0);
    first_.assign(n, 0);
    for (std::size_t r = 0; r < n; ++r) {
      const double busy = p.ranks[r].total_s - p.ranks[r].wait_s;
      below_[r + 1] = std::max(below_[r], busy);
      empty_ += current[r] == 0 ? 1 : 0;
      if (r > 0) first_[r] = first_[r - 1] + current[r - 1];
    }
    for (std::size_t r = n; r-- > 0;) above_[r] = std::max(above_[r + 1], p.ranks[r].total_s - p.ranks[r].wait_s);
  }

  // 0 when some rank would own no rows (no bound then).
  double operator()(int donor, int receiver, std::int64_t amount) const {
    const auto d = static_cast<std::size_t>(donor);
    const auto j = static_cast<std::size_t>(receiver);
    if (empty_ - (current_[j] == 0 ? 1 : 0) + (current_[d] == amount ? 1 : 0) > 0) return 0;
    const std::int64_t donor_first = first_[d] + (j < d ? amount : 0);
    const std::int64_t receiver_first = first_[j] - (d < j ? amount : 0);
    return std::max({below_[std::min(d, j)], above_[std::max(d, j) + 1],
                     model_.rank_busy_seconds(donor, donor_first, current_[d] - amount),
                     model_.rank_busy_seconds(receiver, receiver_first, current_[j] + amount)});
  }

 private:
  const model::Model& model_;
  const std::vector<std::int64_t>& current_;
  std::vector<double> below_;  // [k]: the most busy of ranks < k
  std::vector<double> above_;  // [k]: the most busy of ranks >= k
  std::vector<std::int64_t> first_;
  int empty_ = 0;
};

// Step 3: local search under the full model from `start`. Returns the
// number of moves kept; the best distribution is in the objective.
int refine(Objective& objective, std::vector<std::int64_t> current) {
  const model::Model& model = objective.model();
  const RowBounds& bounds = objective.bounds();
  double current_s = objective(current);
  const int n = bounds.ranks();
  int holders = 0;
  for (std::int64_t r : current) holders += r > 0 ? 1 : 0;
  std::int64_t step = std::max<std::int64_t>(1, bounds.total / (4 * std::max(holders, 1)));
  int moves = 0;
  std::vector<std::int64_t> in_core;
  for (int r = 0; r < n; ++r) in_core.push_back(std::min(model.max_in_core_rows(r), bounds.hi[static_cast<std::size_t>(r)]));
  // Each round: one prediction and a few candidate moves.
  while (step >= 1) {
    const model::Prediction p = objective.predict(current);
    const Candidates c = candidates(p, current, bounds);
    const MoveBound bound(model, p, current);
    const std::vector<int>& donors = c.donors;
    const std::vector<int>& receivers = c.receivers;
    double best_s = current_s;
    std::vector<std::int64_t> best;
    std::vector<std::int64_t> candidate;
    auto consider = [&]() {
      const double limit = best_s * (1 - 1e-12);
      const double t = objective.below(candidate, limit);
      if (t < limit) {
        best_s = t;
        best = candidate;
      }
    };
    auto move = [&](int d, int j, std::int64_t amount) {
      const auto di = static_cast<std::size_t>(d);
      const auto ji = static_cast<std::size_t>(j);
      amount = std::min({amount, current[di] - bounds.lo[di], bounds.hi[ji] - current[ji]});
      if (amount <= 0) return;
      // Cannot beat the best of the round (rounding aside): no replay.
      if (bound(d, j, amount) * (1 - 1e-9) >= best_s * (1 - 1e-12)) return;
      candidate = current;
      candidate[di] -= amount;
      candidate[ji] += amount;
      consider();
    };
    for (int d : donors) {
      for (int j : receivers) {
        if (j != d) move(d, j, step);
      }
    }
    if (best.empty()) {
      // Jumps, when no move of the current size helps: the I/O cost steps
      // up where a rank's data stops fitting in core, so the best
      // distribution often sits on an in-core threshold or on the mirror
      // image of where the moves went.
      for (int d : donors) {
        const auto di = static_cast<std::size_t>(d);
        for (int j : receivers) {
          const auto ji = static_cast<std::size_t>(j);
          if (j == d) continue;
          move(d, j, current[di] - in_core[di]);  // the donor just in core
          move(d, j, in_core[ji] - current[ji]);  // the receiver just in core
          if (current[di] > current[ji]) {        // swap the two
            candidate = current;
            std::swap(candidate[di], candidate[ji]);
            if (bounds.contains(candidate)) consider();
          }
        }
      }
      // Dropping a rank altogether (its rows spread over the others in
      // proportion to theirs): removes its fixed costs and, in a pipeline,
      // a stage.
      for (int d : donors) {
        const auto di = static_cast<std::size_t>(d);
        if (current[di] == 0 || bounds.lo[di] > 0) continue;
        std::vector<double> shares(current.begin(), current.end());
        shares[di] = 0;
        candidate = round_shares(shares, bounds);
        consider();
      }
    }
    if (!best.empty()) {
      current = best;
      current_s = best_s;
      ++moves;
    } else {
      step /= 2;
    }
  }
  return moves;
}

}  // namespace

std::string generalized_binary_search(Objective& objective, const SearchContext& context) {
  const model::Model& model = context.model;
  const RowBounds& bounds = objective.bounds();
  for (Canonical c : kCanonicals) objective(canonical_distribution(model, bounds, c).rows);
  const std::vector<std::int64_t> canonical = objective.best_rows();
  Objective prophet(model, bounds);
  prophet_partition(prophet, context.cluster, Heuristic::h1);
  objective.absorb(prophet);
  const double seed_s = objective.best_seconds();
  const CommonFinish binary = common_finish_time(model, bounds);
  const double binary_s = objective(binary.rows);

  // Refine from the three starts that differ most in kind: the best
  // canonical distribution, Prophet's (often fewer ranks) and the common
  // finish time's. The in-core thresholds make the landscape rugged; one
  // start can sit in a valley the others avoid.
  std::vector<std::vector<std::int64_t>> starts{canonical};
  for (const std::vector<std::int64_t>& s : {prophet.best_rows(), binary.rows}) {
    if (std::find(starts.begin(), starts.end(), s) == starts.end()) starts.push_back(s);
  }
  int moves = 0;
  for (const std::vector<std::int64_t>& s : starts) moves += refine(objective, s);
  char line[240];
  std::snprintf(line, sizeof line,
                "seeds: canonical and Prophet H1 %.6g s, common finish time %.6g s (predicted %.6g s); "
                "%zu refinements, %d moves kept",
                seed_s, binary.finish_s, binary_s, starts.size(), moves);
  return line;
}

}  // namespace mheta::search
