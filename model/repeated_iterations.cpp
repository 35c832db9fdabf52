// The iterations after the first (docs/model.md, "Iterations that
// overlap"): each rank starts its next iteration where it finished this one,
// not at a common start, so the replay goes on from where the first left
// every rank until the iterations repeat one another.
#include <algorithm>
#include <cmath>

#include "model/accounting.hpp"  // median_of
#include "model/model.hpp"

namespace mheta::model {

namespace {

// Iterations replayed at most before the mean over the last ones is taken
// instead of an exact period. Programs that synchronize every iteration (a
// collective) repeat after one or two; a chain of blocking messages after a
// few per rank it crosses.
constexpr int kMaxIterations = 64;
constexpr int kWindowStart = kMaxIterations / 2;

void set_terms(RankBreakdown& to, const RankBreakdown& from, double scale) {
  to.compute_s = from.compute_s * scale;
  to.io_s = from.io_s * scale;
  to.comm_s = from.comm_s * scale;
  to.wait_s = from.wait_s * scale;
}

void add_terms(RankBreakdown& to, const RankBreakdown& from) {
  to.compute_s += from.compute_s;
  to.io_s += from.io_s;
  to.comm_s += from.comm_s;
  to.wait_s += from.wait_s;
}

}  // namespace

// The replay is max-plus linear in where the ranks start an iteration:
// every time in it is a maximum of sums of those start times (clocks and
// links) and costs. So when over one iteration every rank that takes part
// moved by the same time, clock and link alike, the next iteration is this
// one shifted by that time, and so is every one after it: the program
// repeats its iteration every that long. Returns that time, or -1 when the
// ranks moved by different times. A rank without ops, or that owns no rows
// and joins no collective, does nothing and is left out.
double Model::common_shift(std::span<const std::int64_t> rows, const Workspace& ws) const {
  double shift = -1;
  for (int r = 0; r < ranks_; ++r) {
    const auto ri = static_cast<std::size_t>(r);
    if (op_begin_[ri] == op_begin_[ri + 1] || (rows[ri] == 0 && collective_ops_.empty())) continue;
    const double moved = ws.clock[ri] - ws.previous_clock[ri];
    // A link that has put everything out before the clock is where the
    // clock is, as far as what follows can tell.
    const double link_moved =
        std::max(ws.link[ri], ws.clock[ri]) - std::max(ws.previous_link[ri], ws.previous_clock[ri]);
    if (shift < 0) shift = moved;
    // Rounding: the clocks grow with the iterations replayed.
    const double tolerance = 1e-9 * std::max(std::abs(shift), 1e-6 * std::abs(ws.clock[ri]));
    if (std::abs(moved - shift) > tolerance || std::abs(link_moved - shift) > tolerance) return -1;
  }
  return std::max(shift, 0.0);
}

// The period, with ws.clock and ws.link where the first iteration (from 0
// everywhere, recorded on ws.tape if `taped`) left the ranks, and left there: the
// common shift of the first or the second iteration (a program whose
// iteration ends in a collective), else the cycle time of the tape
// (cycle_time.cpp); -1 when that does not settle either. From the cycle
// time, a value at least `limit` may stand for any period that reaches it.
double Model::period(std::span<const std::int64_t> rows, Workspace& ws, bool taped, double limit) const {
  ws.biased = false;
  std::fill(ws.previous_clock.begin(), ws.previous_clock.end(), 0.0);
  std::fill(ws.previous_link.begin(), ws.previous_link.end(), 0.0);
  double shift = common_shift(rows, ws);
  if (shift >= 0 || !taped) return shift;
  // The second iteration from the tape, not replayed again.
  std::copy(ws.clock.begin(), ws.clock.end(), ws.previous_clock.begin());
  std::copy(ws.link.begin(), ws.link.end(), ws.previous_link.begin());
  next_iteration_from_tape(ws);
  shift = common_shift(rows, ws);
  ws.clock.swap(ws.previous_clock);
  ws.link.swap(ws.previous_link);
  return shift >= 0 ? shift : cycle_time(ws, limit);
}

// The repeated iteration's terms in one replay, from the biases cycle_time
// left in ws.bias: when every rank that takes part repeats at the one
// period there, that start moves each by the period exactly, and the
// iteration from it is the repeated one. False, with ws.clock and ws.link
// back where the first iteration left them, when the ranks repeat at
// different periods (ranks that hold no one back and run at their own
// pace): the replay carried on then gives each rank's pace.
bool Model::steady_iteration(std::span<const std::int64_t> rows, Workspace& ws, const Routes& routes,
                             Prediction& detail) const {
  std::copy(ws.clock.begin(), ws.clock.end(), ws.first_clock.begin());
  std::copy(ws.link.begin(), ws.link.end(), ws.first_link.begin());
  for (std::size_t r = 0; r < static_cast<std::size_t>(ranks_); ++r) {
    ws.clock[r] = ws.previous_clock[r] = ws.bias[2 * r];
    ws.link[r] = ws.previous_link[r] = ws.bias[2 * r + 1];
  }
  std::fill(ws.iteration_terms.begin(), ws.iteration_terms.end(), RankBreakdown{});
  replay_iteration(rows, ws, routes, ws.iteration_terms.data(), nullptr);
  if (common_shift(rows, ws) < 0) {
    std::copy(ws.first_clock.begin(), ws.first_clock.end(), ws.clock.begin());
    std::copy(ws.first_link.begin(), ws.first_link.end(), ws.link.begin());
    return false;
  }
  for (std::size_t r = 0; r < static_cast<std::size_t>(ranks_); ++r) {
    RankBreakdown& b = detail.ranks[r];
    set_terms(b, ws.iteration_terms[r], 1.0);
    b.total_s = ws.clock[r] - ws.previous_clock[r];
  }
  return true;
}

// The period of the iterations after the first, replayed on from where the
// first left ws (the first started at 0 everywhere): the common shift once
// one iteration shifts every rank alike; else, after kMaxIterations, the
// largest of the ranks' mean times per iteration over the last half of
// them. With `detail`, its ranks' terms become those of the repeated
// iteration and their totals each rank's time per iteration.
double Model::repeated_iterations(std::span<const std::int64_t> rows, Workspace& ws, const Routes& routes,
                                  Prediction* detail) const {
  std::fill(ws.previous_clock.begin(), ws.previous_clock.end(), 0.0);
  std::fill(ws.previous_link.begin(), ws.previous_link.end(), 0.0);
  RankBreakdown* terms = detail != nullptr ? ws.iteration_terms.data() : nullptr;
  for (int k = 1;; ++k) {
    const double shift = common_shift(rows, ws);
    if (shift >= 0) {
      for (int r = 0; detail != nullptr && r < ranks_; ++r) {
        const auto ri = static_cast<std::size_t>(r);
        RankBreakdown& b = detail->ranks[ri];
        if (k > 1) set_terms(b, ws.iteration_terms[ri], 1.0);  // the first iteration's are there already
        b.total_s = ws.clock[ri] - ws.previous_clock[ri];
      }
      return shift;
    }
    if (k == kMaxIterations) break;
    if (k == kWindowStart) {
      std::copy(ws.clock.begin(), ws.clock.end(), ws.window_clock.begin());
      if (detail != nullptr) std::fill(ws.window_terms.begin(), ws.window_terms.end(), RankBreakdown{});
    }
    std::copy(ws.clock.begin(), ws.clock.end(), ws.previous_clock.begin());
    std::copy(ws.link.begin(), ws.link.end(), ws.previous_link.begin());
    if (detail != nullptr) std::fill(ws.iteration_terms.begin(), ws.iteration_terms.end(), RankBreakdown{});
    replay_iteration(rows, ws, routes, terms, nullptr);
    if (detail != nullptr && k >= kWindowStart) {
      for (int r = 0; r < ranks_; ++r) {
        add_terms(ws.window_terms[static_cast<std::size_t>(r)], ws.iteration_terms[static_cast<std::size_t>(r)]);
      }
    }
  }
  // No common shift yet (ranks that run at different paces, a regime
  // that alternates between iterations, a long transient): each rank's mean
  // over the last iterations, the slowest of them the program's.
  const double count = kMaxIterations - kWindowStart;
  double period = 0;
  for (int r = 0; r < ranks_; ++r) {
    const auto ri = static_cast<std::size_t>(r);
    const double pace = (ws.clock[ri] - ws.window_clock[ri]) / count;
    period = std::max(period, pace);
    if (detail == nullptr) continue;
    set_terms(detail->ranks[ri], ws.window_terms[ri], 1 / count);
    detail->ranks[ri].total_s = pace;
  }
  return period;
}

// Every rank's compute scale `base` times its factor in `factors` (null:
// 1), and its blocks' own times with it.
void Model::scale_compute(std::span<const std::int64_t> rows, Workspace& ws, std::span<const double> base,
                          const double* factors) const {
  for (int r = 0; r < ranks_; ++r) {
    const auto ri = static_cast<std::size_t>(r);
    ws.scale[ri] = base[ri] * (factors != nullptr ? factors[ri] : 1.0);
    for (int i = op_begin_[ri]; i < op_begin_[ri + 1]; ++i) {
      const Op& op = ops_[static_cast<std::size_t>(i)];
      if (op.kind == OpKind::block) {
        ws.op_seconds[static_cast<std::size_t>(i)] = own_seconds(r, op, rows[ri], ws.scale[ri], ws.plans[ri]);
      }
    }
  }
}

// The iterations as the capture run's varied (docs/model.md, "Compute that
// varies from iteration to iteration"): one iteration from a common start,
// with the last sample's compute, for the program to settle, then one
// iteration per sample, each rank's compute scaled by its factor in it,
// each from where the one before left the ranks. The iteration is the
// largest of the ranks' mean times over the samples; each rank's terms
// are its means. Where every iteration ends in a collective, that is the
// mean over the samples of the slowest rank's time to it, where the
// replay of the median compute took the slowest median.
void Model::varying_iterations(std::span<const std::int64_t> rows, Workspace& ws, const Routes& routes,
                               Prediction& detail) const {
  const std::size_t n = static_cast<std::size_t>(ranks_);
  const std::size_t samples = compute_variation_.size() / n;
  std::copy(ws.scale.begin(), ws.scale.end(), ws.base_scale.begin());
  std::fill(ws.clock.begin(), ws.clock.end(), 0.0);
  std::fill(ws.link.begin(), ws.link.end(), 0.0);
  scale_compute(rows, ws, ws.base_scale, &compute_variation_[(samples - 1) * n]);
  replay_iteration(rows, ws, routes, nullptr, nullptr);
  std::copy(ws.clock.begin(), ws.clock.end(), ws.window_clock.begin());
  std::fill(ws.window_terms.begin(), ws.window_terms.end(), RankBreakdown{});
  for (std::size_t k = 0; k < samples; ++k) {
    scale_compute(rows, ws, ws.base_scale, &compute_variation_[k * n]);
    std::copy(ws.clock.begin(), ws.clock.end(), ws.previous_clock.begin());
    std::fill(ws.iteration_terms.begin(), ws.iteration_terms.end(), RankBreakdown{});
    replay_iteration(rows, ws, routes, ws.iteration_terms.data(), nullptr);
    for (std::size_t r = 0; r < n; ++r) {
      add_terms(ws.window_terms[r], ws.iteration_terms[r]);
      ws.sample_seconds[k * n + r] = ws.clock[r] - ws.previous_clock[r];
    }
  }
  scale_compute(rows, ws, ws.base_scale, nullptr);  // the workspace's costs are the rows' again
  const double count = static_cast<double>(samples);
  double iteration = 0;
  double typical = 0;
  std::vector<double> own(samples);
  for (std::size_t r = 0; r < n; ++r) {
    // As common_shift: a rank that does nothing is left out.
    if (op_begin_[r] == op_begin_[r + 1] || (rows[r] == 0 && collective_ops_.empty())) continue;
    const double pace = (ws.clock[r] - ws.window_clock[r]) / count;
    iteration = std::max(iteration, pace);
    for (std::size_t k = 0; k < samples; ++k) own[k] = ws.sample_seconds[k * n + r];
    typical = std::max(typical, median_of(own));
    set_terms(detail.ranks[r], ws.window_terms[r], 1 / count);
    detail.ranks[r].total_s = pace;
  }
  detail.iteration_s = iteration;
  detail.typical_iteration_s = typical;
}

}  // namespace mheta::model
