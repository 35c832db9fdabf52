// Evaluating a distribution against a limit, and in chains (pipelines) from
// a reference replay: a search testing moves of rows between two ranks
// replays only the ranks between them.
//
// The replay is a max-plus system: every time is the latest of its
// predecessors' times plus a cost (a rank's next op starts when its previous
// one ends, a receive ends O<-(q) after the later of its rank's clock and the
// message's arrival, Eq 3 / Eq 4). So the iteration's time is the longest
// path through the ops, and the longest path from any op's end to the end of
// the iteration (its tail) depends only on the ops after it. In a chain the
// ranks above hi see the ranks up to hi only through the messages hi sends
// them: when a distribution differs from the reference between ranks lo and
// hi alone, the ranks below lo keep
// their times, ranks lo..hi are replayed, and the ranks above hi finish by
// the latest of their own start's tail and every message into them arriving
// plus its tail, all from the reference.
#include <algorithm>

#include "model/model.hpp"

namespace mheta::model {

// Builds the reference's tails from the replay predict() has just left in
// the workspace (clocks, arrivals and each op's own cost of its rows).
void Model::build_chain_reference(Workspace& ws) const {
  Workspace::ChainReference& ref = ws.reference;
  ref.pending = false;
  ref.built = true;
  ref.rows = ws.replayed_rows;
  ref.sent = ws.sent;
  const bool any_empty = std::find(ref.rows.begin(), ref.rows.end(), 0) != ref.rows.end();
  const int* partner = base_partner_.data();
  const int* peer = nullptr;
  const double* transfer = base_transfer_s_.data();
  if (any_empty) {
    const MessageRouting& routing = routing_for(ref.rows, ws);
    partner = routing.partner.data();
    peer = routing.peer.data();
    transfer = routing.transfer.data();
  }
  std::fill(ref.recv_of.begin(), ref.recv_of.end(), -1);
  for (std::size_t i = 0; i < ops_.size(); ++i) {
    if (ops_[i].kind != OpKind::recv || partner[i] < 0 || (peer != nullptr && peer[i] < 0)) continue;
    ref.recv_of[static_cast<std::size_t>(partner[i])] = static_cast<int>(i);
  }
  // What each op adds to its rank's clock by itself (the replay's skips
  // add nothing): the weight of the edge from the op before it.
  auto added = [&](int i, bool empty) {
    const auto oi = static_cast<std::size_t>(i);
    switch (ops_[oi].kind) {
      case OpKind::block:
        return empty ? 0.0 : ws.op_seconds[oi];
      case OpKind::send:
        return peer != nullptr && peer[oi] < 0 ? 0.0 : ws.op_seconds[oi];
      case OpKind::recv:
        return partner[oi] < 0 || (peer != nullptr && peer[oi] < 0) ? 0.0 : network_.recv_overhead_s;
      case OpKind::collective:
        break;  // not in a chain
    }
    return 0.0;
  };
  // Backwards, ranks from the last (every message goes up one rank, so the
  // receive a send feeds has its tail already).
  ref.start_tail_from[static_cast<std::size_t>(ranks_)] = 0;
  for (int r = ranks_ - 1; r >= 0; --r) {
    const auto ri = static_cast<std::size_t>(r);
    const bool empty = ref.rows[ri] == 0;
    double after = 0;  // the longest path from the end of op i through the ops after it
    for (int i = op_begin_[ri + 1] - 1; i >= op_begin_[ri]; --i) {
      const auto oi = static_cast<std::size_t>(i);
      double tail = after;
      if (ops_[oi].kind == OpKind::send && ref.recv_of[oi] >= 0) {
        const auto recv = static_cast<std::size_t>(ref.recv_of[oi]);
        tail = std::max(tail, transfer[oi] + network_.recv_overhead_s + ref.tail[recv]);
      }
      ref.tail[oi] = tail;
      after = added(i, empty) + tail;
    }
    ref.start_tail_from[ri] = std::max(ref.start_tail_from[ri + 1], after);
  }
  ref.finish_below[0] = 0;
  for (int r = 0; r < ranks_; ++r) {
    const auto ri = static_cast<std::size_t>(r);
    ref.finish_below[ri + 1] = std::max(ref.finish_below[ri], ws.clock[ri]);
  }
}

// The iteration time of `rows`, which differ from the reference between
// ranks lo and hi only, to within rounding: ranks lo..hi replayed as
// evaluate() does, the rest from the reference. The ranks above hi must
// hear from the same rank as in the reference (iteration_seconds_if_below
// widens lo..hi so). Needs the costs of `rows` in the workspace.
double Model::chain_estimate(std::span<const std::int64_t> rows, int lo, int hi, Workspace& ws) const {
  Workspace::ChainReference& ref = ws.reference;
  const int* partner = base_partner_.data();
  const int* peer = nullptr;
  const double* transfer = base_transfer_s_.data();
  if (std::find(rows.begin(), rows.end(), 0) != rows.end()) {
    const MessageRouting& routing = routing_for(rows, ws);
    partner = routing.partner.data();
    peer = routing.peer.data();
    transfer = routing.transfer.data();
  }
  double latest = std::max(ref.finish_below[static_cast<std::size_t>(lo)],
                           ref.start_tail_from[static_cast<std::size_t>(hi) + 1]);
  for (int r = lo; r <= hi; ++r) {
    const auto ri = static_cast<std::size_t>(r);
    const bool empty = rows[ri] == 0;
    double clock = 0;
    for (int pc = op_begin_[ri]; pc < op_begin_[ri + 1]; ++pc) {
      const auto i = static_cast<std::size_t>(pc);
      const Op& op = ops_[i];
      switch (op.kind) {
        case OpKind::block:
          if (!empty) clock += ws.op_seconds[i];
          break;
        case OpKind::send: {
          if (peer != nullptr && peer[i] < 0) break;
          clock += ws.op_seconds[i];
          ref.segment_sent[i] = clock;
          const int recv = ref.recv_of[i];
          if (recv >= 0 && op_rank_[static_cast<std::size_t>(recv)] > hi) {
            latest = std::max(latest,
                              clock + transfer[i] + network_.recv_overhead_s + ref.tail[static_cast<std::size_t>(recv)]);
          }
          break;
        }
        case OpKind::recv: {
          const int send = partner[pc];
          if (send < 0 || (peer != nullptr && peer[i] < 0)) break;
          const auto si = static_cast<std::size_t>(send);
          const double sent = op_rank_[si] < lo ? ref.sent[si] : ref.segment_sent[si];
          // The replay's own arithmetic, so that these ranks' times are its times.
          const double wait = std::max(0.0, sent + transfer[si] - clock);
          clock += wait + network_.recv_overhead_s;
          break;
        }
        case OpKind::collective:
          break;  // not in a chain
      }
    }
    latest = std::max(latest, clock);
  }
  return latest;
}

double Model::iteration_seconds_if_below(std::span<const std::int64_t> rows, Workspace& ws, double limit) const {
  if (!chain_) return iteration_seconds(rows, ws);
  Workspace::ChainReference& ref = ws.reference;
  if (ref.pending) build_chain_reference(ws);
  if (!ref.built || static_cast<int>(rows.size()) != ranks_) return iteration_seconds(rows, ws);
  int lo = ranks_;
  int hi = -1;
  bool emptiness_changed = false;
  std::int64_t sum = 0;
  for (int r = 0; r < ranks_; ++r) {
    const auto ri = static_cast<std::size_t>(r);
    sum += rows[ri];
    if (rows[ri] == ref.rows[ri]) continue;
    if (rows[ri] < 0) return iteration_seconds(rows, ws);
    emptiness_changed = emptiness_changed || (rows[ri] == 0) != (ref.rows[ri] == 0);
    lo = std::min(lo, r);
    hi = r;
  }
  if (hi < 0 || sum != global_rows_) return iteration_seconds(rows, ws);
  // Messages skip the ranks that own no rows. The ranks above hi must hear
  // from the same rank as in the reference, one that owns rows in both.
  // (The ranks below lo need nothing: the ranks from lo up own the same rows
  // in total, so a rank below that sent to one still sends to one, after
  // the transfer time of the link it now uses.)
  while (emptiness_changed && hi + 1 < ranks_ &&
         (rows[static_cast<std::size_t>(hi)] == 0 || ref.rows[static_cast<std::size_t>(hi)] == 0)) {
    ++hi;
  }
  update_costs(rows, ws);
  const double estimate = chain_estimate(rows, lo, hi, ws);
  // Far enough above the limit that rounding cannot matter: the estimate
  // sums the same costs in another order.
  if (estimate * (1 - 1e-9) >= limit) return estimate;
  return iteration_seconds(rows, ws);
}

}  // namespace mheta::model
