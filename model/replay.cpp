// Evaluating a distribution: per-rank compute and I/O (MHETA §4.2.1), then a
// replay of every rank's operations that propagates times along matched
// messages and collectives (§4.2.2, generalized to N ranks).
#include <algorithm>
#include <limits>

#include "model/io_cost.hpp"
#include "model/model.hpp"

namespace mheta::model {

namespace {

void check_rows(std::span<const std::int64_t> rows, int ranks, std::int64_t global_rows) {
  if (static_cast<int>(rows.size()) != ranks) {
    throw std::invalid_argument("distribution has " + std::to_string(rows.size()) + " ranks, the model " +
                                std::to_string(ranks));
  }
  std::int64_t sum = 0;
  for (std::int64_t r : rows) {
    if (r < 0) throw std::invalid_argument("distribution has a negative row count");
    sum += r;
  }
  if (sum != global_rows) {
    throw std::invalid_argument("distribution has " + std::to_string(sum) + " rows, the model " +
                                std::to_string(global_rows));
  }
}

}  // namespace

IclaPlan Model::plan_rank(int rank, std::int64_t rows) const {
  // Every distributed variable of a rank owns the same rows: one plan for all.
  return plan_equal_rows(nodes_[static_cast<std::size_t>(rank)].memory_bytes, row_bytes_, rows, icla_options_);
}

// T_Phi'/T_Phi = W'/W: the work of the rank's new rows over the work it
// owned when instrumented.
double Model::work_scale(int rank, std::int64_t first_row, std::int64_t rows) const {
  const auto ri = static_cast<std::size_t>(rank);
  const double captured = captured_work_[ri];
  return captured > 0 ? work_of_rows(first_row, rows) / captured
                      : static_cast<double>(rows) / static_cast<double>(captured_rows_[ri]);
}

double Model::compute_scale(int rank, std::int64_t first_row, std::int64_t rows, const IclaPlan& plan) const {
  const double in_core = plan.in_core ? in_core_compute_ratio_[static_cast<std::size_t>(rank)] : 1.0;
  return work_scale(rank, first_row, rows) * in_core;
}

double Model::block_io_seconds(int rank, const Block& block, std::int64_t rows, const IclaPlan& plan) const {
  if (rows == 0) return 0;  // a rank without rows takes no part (like io/)
  // The program's own files, in core or not (docs/model.md, "I/O the
  // program does itself").
  double seconds = block.program_io_s + block.program_io_per_row_s * static_cast<double>(rows);
  if (plan.in_core) return seconds;  // T_psi = 0 in core
  const DiskCosts& disk = nodes_[static_cast<std::size_t>(rank)].disk;
  for (int t = block.io_begin; t < block.io_end; ++t) {
    const IoTerm& term = io_terms_[static_cast<std::size_t>(t)];
    const std::int64_t bytes_per_row = variable_bytes_per_row_[static_cast<std::size_t>(term.variable)];
    const Sweep sweep{rows * bytes_per_row, plan.icla_rows * bytes_per_row, plan.chunks};
    const RankVariable& v = rank_variables_[static_cast<std::size_t>(rank * variables_ + term.variable)];
    if (term.read_sweeps > 0) {
      seconds += term.read_sweeps *
                 (term.prefetch ? prefetch_read_seconds(sweep, v.read_overhead_s, disk.async_read_overhead_s,
                                                        v.read_s_per_byte, v.overlap_s_per_byte)  // Eq 2
                                : synchronous_read_seconds(sweep, v.read_overhead_s, v.read_s_per_byte));  // Eq 1
    }
    if (term.write_sweeps > 0) {
      seconds += term.write_sweeps * write_seconds(sweep, v.write_overhead_s, v.write_s_per_byte);
    }
  }
  return seconds;
}

// §4.2.2: O->(q) includes reading the message from disk when it comes from
// an out-of-core array.
double Model::message_read_seconds(int rank, const Op& op, const IclaPlan& plan) const {
  if (op.from_variable < 0 || plan.in_core) return 0;
  const RankVariable& v = rank_variables_[static_cast<std::size_t>(rank * variables_ + op.from_variable)];
  return v.read_overhead_s + v.read_s_per_byte * static_cast<double>(op.bytes);
}

// The time `rank` spends on `op` by itself, waits left out.
double Model::own_seconds(int rank, const Op& op, std::int64_t rows, double scale, const IclaPlan& plan) const {
  switch (op.kind) {
    case OpKind::block: {
      const Block& block = blocks_[static_cast<std::size_t>(op.index)];
      // T_gamma = T_Phi' + sum T_psi, summed over the section's stages: T_tau
      return block.compute_s * scale + block_io_seconds(rank, block, rows, plan);
    }
    case OpKind::send:
      // O->(q); a non-blocking send's gap runs on the link (own_time).
      return network_.send_overhead_s + (op.nonblocking ? 0.0 : op.gap_s) + message_read_seconds(rank, op, plan);
    case OpKind::recv:
      return network_.recv_overhead_s;  // O<-(q)
    case OpKind::collective:
      return collective_cost_s_[static_cast<std::size_t>(op.index)];
    case OpKind::completion:
      return 0;  // what it holds the rank for depends on the link (own_time)
    case OpKind::handshake:
      return 0;  // a wait for the receiver
    case OpKind::collective_wait:
      return 0;  // a wait for the collective's result
  }
  return 0;
}

// The rank's own time over its ops, waits for the others left out: blocks,
// overheads and collectives in turn (`seconds(i)`: own_seconds of op i),
// and its link, which puts out one message at a time in post order. A
// blocking send ends once its bytes have left (when the messages before it
// have, plus its gap), a non-blocking one after its O->, and its
// completion holds the rank until the link has put it out (docs/model.md,
// "A non-blocking send's gap"). With `peer` (some rank owns no rows), a
// send to no rank is not sent and a receive not made; a completion then
// still counts the gaps of the unsent ones after the send it completes
// (gap_s), so it may hold the rank a little short.
template <class Seconds>
double Model::own_time(int rank, const Seconds& seconds, const int* peer, const int* partner) const {
  double clock = 0;
  double link = 0;  // when the link has put out every message posted so far
  for (int i = op_begin_[static_cast<std::size_t>(rank)]; i < op_begin_[static_cast<std::size_t>(rank) + 1]; ++i) {
    const auto oi = static_cast<std::size_t>(i);
    const Op& op = ops_[oi];
    const bool unmatched = peer != nullptr && (peer[oi] < 0 || (op.kind == OpKind::recv && partner[oi] < 0));
    switch (op.kind) {
      case OpKind::block:
      case OpKind::collective:
        clock += seconds(i);
        break;
      case OpKind::send:
        if (unmatched) break;
        if (op.nonblocking) {
          clock += seconds(i);
          link = std::max(clock, link) + op.gap_s;
        } else {
          clock = std::max(clock + seconds(i), link + op.gap_s);
          link = clock;
        }
        break;
      case OpKind::recv:
        if (!unmatched) clock += network_.recv_overhead_s;
        break;
      case OpKind::completion:
        // Without a pause since that send, the link put it out the gaps of
        // those after it before now; with one, it had left before the
        // pause, so before the rank got here.
        clock = std::max(clock, link - op.gap_s);
        break;
      case OpKind::handshake:
      case OpKind::collective_wait:
        break;  // a wait for the receiver, or for a collective's result
    }
  }
  return clock;
}

// The rank's own cost of each of its blocks and sends for `rows` rows from
// `first_row`, kept in the workspace until its rows change.
void Model::cost_rank(int rank, std::int64_t first_row, std::int64_t rows, Workspace& ws) const {
  const auto ri = static_cast<std::size_t>(rank);
  ws.costed_rows[ri] = rows;
  ws.costed_first[ri] = first_row;
  ws.plans[ri] = plan_rank(rank, rows);
  ws.scale[ri] = compute_scale(rank, first_row, rows, ws.plans[ri]);
  for (int i = op_begin_[ri]; i < op_begin_[ri + 1]; ++i) {
    const Op& op = ops_[static_cast<std::size_t>(i)];
    if (op.kind == OpKind::block || op.kind == OpKind::send) {
      ws.op_seconds[static_cast<std::size_t>(i)] = own_seconds(rank, op, rows, ws.scale[ri], ws.plans[ri]);
    }
  }
  // Only a pipeline's pace uses it (and a pipeline has no collective).
  if (forward_only_) {
    ws.busy[ri] = own_time(rank, [&](int i) { return ws.op_seconds[static_cast<std::size_t>(i)]; });
  }
}

// Neighbour exchanges skip ranks that own no rows (as io/ does): a message
// addressed to an empty rank goes on, in the same direction, to the next
// rank that owns rows; an empty rank sends and receives nothing.
void Model::reroute(std::span<const std::int64_t> rows, Workspace& ws, MessageRouting& routing) const {
  for (int r = 0, last = -1; r < ranks_; ++r) {
    ws.owner_before[static_cast<std::size_t>(r)] = last;
    if (rows[static_cast<std::size_t>(r)] > 0) last = r;
  }
  for (int r = ranks_ - 1, last = -1; r >= 0; --r) {
    ws.owner_after[static_cast<std::size_t>(r)] = last;
    if (rows[static_cast<std::size_t>(r)] > 0) last = r;
  }
  ws.send_ends.clear();
  ws.recv_ends.clear();
  for (int r = 0; r < ranks_; ++r) {
    const bool empty = rows[static_cast<std::size_t>(r)] == 0;
    routing.empty[static_cast<std::size_t>(r)] = empty;
    for (int i = op_begin_[static_cast<std::size_t>(r)]; i < op_begin_[static_cast<std::size_t>(r) + 1]; ++i) {
      const Op& op = ops_[static_cast<std::size_t>(i)];
      if (op.kind != OpKind::send && op.kind != OpKind::recv) continue;
      const auto to = static_cast<std::size_t>(op.index);
      int peer = -1;
      if (!empty) peer = rows[to] > 0 ? op.index : op.index > r ? ws.owner_after[to] : ws.owner_before[to];
      routing.peer[static_cast<std::size_t>(i)] = peer;
      if (peer < 0) continue;
      if (op.kind == OpKind::send) {
        // The gap was paid on the link to the profile's peer; the message
        // arrives when the new link's cost says, counted from the send.
        routing.transfer[static_cast<std::size_t>(i)] =
            network_.link(r, peer).seconds(static_cast<double>(op.bytes)) + segment_seconds(i) - op.gap_s;
        ws.send_ends.push_back(MessageEnd{r, peer, op.tag, i});
      } else {
        ws.recv_ends.push_back(MessageEnd{peer, r, op.tag, i});
      }
    }
  }
  // Ends left unmatched by the rerouting are dropped, not waited for.
  sort_by_channel(ws.send_ends, ranks_, ws.sort_scratch, ws.channel_counts);
  sort_by_channel(ws.recv_ends, ranks_, ws.sort_scratch, ws.channel_counts);
  match_sorted_messages(ws.send_ends, ws.recv_ends, routing.partner);
  routing.built = true;
}

// The routing for the ranks of `rows` that own none: one of those kept, or
// rebuilt over the one used least recently.
const MessageRouting& Model::routing_for(std::span<const std::int64_t> rows, Workspace& ws) const {
  std::uint64_t key = 1469598103934665603ull;  // FNV-1a over the empty ranks
  for (int r = 0; r < ranks_; ++r) {
    if (rows[static_cast<std::size_t>(r)] == 0) key = (key ^ static_cast<std::uint64_t>(r)) * 1099511628211ull;
  }
  MessageRouting* oldest = &ws.routings[0];
  for (MessageRouting& routing : ws.routings) {
    if (routing.built && routing.key == key) {
      bool same = true;
      for (int r = 0; same && r < ranks_; ++r) {
        same = (routing.empty[static_cast<std::size_t>(r)] != 0) == (rows[static_cast<std::size_t>(r)] == 0);
      }
      if (same) {
        routing.used = ++ws.routing_uses;
        return routing;
      }
    }
    if (routing.used < oldest->used) oldest = &routing;
  }
  reroute(rows, ws, *oldest);
  oldest->key = key;
  oldest->used = ++ws.routing_uses;
  return *oldest;
}

// Each rank's own costs (§4.2.1), recomputed only for ranks whose rows
// (or, with row weights, first row) differ from the evaluation before, and
// the collectives' costs for these rows. Returns whether some rank owns no
// rows.
bool Model::update_costs(std::span<const std::int64_t> rows, Workspace& ws) const {
  const bool weighted = !row_weight_prefix_.empty();
  std::int64_t first = 0;
  bool any_empty = false;
  ws.recosted.clear();
  for (int r = 0; r < ranks_; ++r) {
    const auto ri = static_cast<std::size_t>(r);
    if (ws.costed_rows[ri] != rows[ri] || (weighted && ws.costed_first[ri] != first)) {
      cost_rank(r, first, rows[ri], ws);
      ws.recosted.push_back(r);
    }
    first += rows[ri];
    any_empty = any_empty || rows[ri] == 0;
  }
  cost_collectives(rows, ws);
  return any_empty;
}

// Pipelines (forward_only_). Unrolled over iterations, the replay is a
// max-plus system x(k+1) = A (x) x(k) whose only cycles are each rank's own
// sequence of operations from one iteration to the next: messages go only
// to higher ranks, and no collective joins the ranks. Its period, the
// largest mean weight of a cycle, is therefore the largest rank-local time
// (compute, I/O, message overheads): in steady state every stage runs at
// the pace of the busiest, and transfers and waits only delay the first
// iteration (the pipeline's fill), never slow the pace. Ranks that own no
// rows skip, as in the replay, their blocks and the message ends the
// rerouting drops.
double Model::pipeline_pace(std::span<const std::int64_t> rows, Workspace& ws, bool any_empty) const {
  double pace = 0;
  if (!any_empty) {
    for (int r = 0; r < ranks_; ++r) pace = std::max(pace, ws.busy[static_cast<std::size_t>(r)]);
    return pace;
  }
  const MessageRouting& routing = routing_for(rows, ws);
  const auto seconds = [&](int i) { return ws.op_seconds[static_cast<std::size_t>(i)]; };  // no collective in a pipeline
  for (int r = 0; r < ranks_; ++r) {
    if (rows[static_cast<std::size_t>(r)] == 0) continue;
    pace = std::max(pace, own_time(r, seconds, routing.peer.data(), routing.partner.data()));
  }
  return pace;
}

// The breakdown of a pipeline's repeated iteration, from the replay's of
// the first. A rank cannot run ahead of the ranks it receives from, so it
// repeats its iteration at the pace of the busiest of them and itself (its
// own cycle and every cycle upstream of it; the ranks after the busiest do
// not hold it back: sends are eager); its own time is as replayed and the
// rest of the pace is waiting. In rank order, since messages only go up.
// The bottleneck is the busiest rank.
void Model::steady_state(std::span<const std::int64_t> rows, Workspace& ws, bool any_empty, Prediction& detail) const {
  detail.iteration_s = pipeline_pace(rows, ws, any_empty);
  const int* partner = base_partner_.data();
  const int* peer = nullptr;
  if (any_empty) {
    const MessageRouting& routing = routing_for(rows, ws);
    partner = routing.partner.data();
    peer = routing.peer.data();
  }
  double busiest = -1;
  for (int r = 0; r < ranks_; ++r) {
    const auto ri = static_cast<std::size_t>(r);
    RankBreakdown& b = detail.ranks[ri];
    ws.clock[ri] = 0;  // its pace
    if (rows[ri] == 0) continue;
    const double own = b.compute_s + b.io_s + b.comm_s;
    double pace = own;
    for (int i = op_begin_[ri]; i < op_begin_[ri + 1]; ++i) {
      const auto oi = static_cast<std::size_t>(i);
      if (ops_[oi].kind != OpKind::recv || partner[oi] < 0 || (peer != nullptr && peer[oi] < 0)) continue;
      pace = std::max(pace, ws.clock[static_cast<std::size_t>(op_rank_[static_cast<std::size_t>(partner[oi])])]);
    }
    ws.clock[ri] = pace;
    b.wait_s = pace - own;
    b.total_s = pace;
    if (own > busiest) {
      busiest = own;
      detail.slowest_rank = r;
    }
  }
}

// The message routes of `rows`: the profile's, or, when some rank owns no
// rows, the rerouted ones.
Model::Routes Model::routes_for(std::span<const std::int64_t> rows, Workspace& ws, bool any_empty) const {
  if (!any_empty) return Routes{base_partner_.data(), nullptr, base_transfer_s_.data()};
  const MessageRouting& routing = routing_for(rows, ws);
  return Routes{routing.partner.data(), routing.peer.data(), routing.transfer.data()};
}

// One iteration of every rank's ops (§4.2.2), from where ws.clock and
// ws.link stand: 0 for the first, else each rank's end of the iteration
// before. Each pass runs every rank until it blocks on a message not yet
// sent or a collective not everyone has reached. Every op is executed once,
// so the cost is linear in ranks x sections plus blocked visits. A message
// has been sent once its sender's pc is past the send; messages match
// within the iteration, so every rank can finish it before any starts the
// next. `out` (per rank, or null) accumulates the terms; `events` (or
// null) records the intervals; `tape` (or null) the max-plus form of the
// iteration, each time as a node of it.
void Model::replay_iteration(std::span<const std::int64_t> rows, Workspace& ws, const Routes& routes,
                             RankBreakdown* out_ranks, std::vector<ReplayEvent>* events, ReplayTape* tape) const {
  // Compiled twice: the replays that record nothing (the iterations carried
  // on, and the first of a program that ends in a collective) keep no tape
  // nodes or weights in their registers.
  if (tape != nullptr) {
    replay_ops<true>(rows, ws, routes, out_ranks, events, tape);
  } else {
    replay_ops<false>(rows, ws, routes, out_ranks, events, nullptr);
  }
}

template <bool kTaped>
void Model::replay_ops(std::span<const std::int64_t> rows, Workspace& ws, const Routes& routes,
                       RankBreakdown* out_ranks, std::vector<ReplayEvent>* events, ReplayTape* tape) const {
  const auto record = [events](ReplayEvent::Kind kind, int rank, const Op& op, double start, double end,
                               int peer = -1, int message = -1) {
    if (events == nullptr) return;
    const bool collective = op.kind == OpKind::collective || op.kind == OpKind::collective_wait;
    events->push_back(
        ReplayEvent{kind, rank, op.section, start, end, peer, op.bytes, message, collective ? op.index : -1});
  };
  const int* partner = routes.partner;
  const int* peer = routes.peer;  // null: the profile's peers, no rank is skipped
  const double* transfer = routes.transfer;
  std::copy(op_begin_.begin(), op_begin_.end() - 1, ws.pc.begin());
  std::fill(ws.at_collective.begin(), ws.at_collective.end(), 0);
  std::fill(ws.collective_arrived.begin(), ws.collective_arrived.end(), 0);
  std::fill(ws.collective_latest.begin(), ws.collective_latest.end(), 0.0);
  std::fill(ws.reached.begin(), ws.reached.end(), Workspace::kNotReached);
  if constexpr (kTaped) {
    ws.tape_fits = false;  // until the replay has recorded all of it
    tape->restart(ws.clock, ws.link);
    std::fill(ws.weight_slot.begin(), ws.weight_slot.end(), -1);
    for (int r = 0; r < ranks_; ++r) {
      ws.clock_node[static_cast<std::size_t>(r)] = 2 * r;
      ws.link_node[static_cast<std::size_t>(r)] = 2 * r + 1;
    }
    std::fill(ws.clock_weight.begin(), ws.clock_weight.end(), 0.0);
    std::fill(ws.link_weight.begin(), ws.link_weight.end(), 0.0);
  }

  int finished = ranks_without_ops_;
  while (finished < ranks_) {
    bool progress = false;
    for (int r = 0; r < ranks_; ++r) {
      const auto ri = static_cast<std::size_t>(r);
      const int end = op_begin_[ri + 1];
      // In registers while the rank runs: through the workspace, every
      // store of an arrival time would reload the clock.
      int pc = ws.pc[ri];
      if (pc == end) continue;
      double clock = ws.clock[ri];
      double link = ws.link[ri];  // when its link has put out what it posted so far
      int clock_node = ws.clock_node[ri];  // on the tape: the node clock is a sum from
      int link_node = ws.link_node[ri];
      // The costs added since: clock is clock_node's time plus clock_weight,
      // summed in the order reweight_rank sums them again.
      double clock_weight = ws.clock_weight[ri];
      double link_weight = ws.link_weight[ri];
      // The side of a maximum that op i's clock weight went to.
      const auto slot_of = [&](int node, int side) { return ReplayTape::slot(node, tape->states, side); };
      RankBreakdown* out = out_ranks != nullptr ? &out_ranks[ri] : nullptr;
      const bool empty = rows[ri] == 0;
      for (; pc < end; ++pc) {
        const auto i = static_cast<std::size_t>(pc);
        const Op& op = ops_[i];
        bool blocked = false;
        switch (op.kind) {
          case OpKind::block: {
            if (empty) break;
            if (out) {
              const Block& block = blocks_[static_cast<std::size_t>(op.index)];
              const double compute = block.compute_s * ws.scale[ri];
              const double io = block_io_seconds(r, block, rows[ri], ws.plans[ri]);
              out->compute_s += compute;
              out->io_s += io;
              record(ReplayEvent::Kind::compute, r, op, clock, clock + compute);
              record(ReplayEvent::Kind::io, r, op, clock + compute, clock + compute + io);
            }
            clock += ws.op_seconds[i];  // T_tau
            if constexpr (kTaped) clock_weight += ws.op_seconds[i];
            break;
          }
          case OpKind::send: {
            if (peer != nullptr && peer[i] < 0) {
              ws.sent[i] = link;  // not sent: its completion waits for those before it
              if constexpr (kTaped) {
                ws.sent_node[i] = link_node;
                ws.sent_weight[i] = link_weight;
              }
              break;
            }
            // O->(q), with the disk read of an out-of-core message. The
            // link puts out one message at a time, in post order: a
            // blocking send ends when its bytes have left, a non-blocking
            // one lets them leave while the rank goes on (own_time).
            const double ready = clock + ws.op_seconds[i];
            double end = ready;
            const double ready_weight = clock_weight + ws.op_seconds[i];
            if (op.nonblocking) {
              if constexpr (kTaped) {
                link_node = tape->max_of(clock_node, ready_weight, link_node, link_weight);
                ws.weight_slot[i] = slot_of(link_node, 0);
                link_weight = op.gap_s;
                clock_weight = ready_weight;
              }
              link = std::max(ready, link) + op.gap_s;
            } else {
              if constexpr (kTaped) {
                clock_node = link_node = tape->max_of(clock_node, ready_weight, link_node, link_weight + op.gap_s);
                ws.weight_slot[i] = slot_of(clock_node, 0);
                clock_weight = link_weight = 0;
              }
              end = std::max(ready, link + op.gap_s);
              link = end;
            }
            ws.sent[i] = link;
            if constexpr (kTaped) {
              ws.sent_node[i] = link_node;
              ws.sent_weight[i] = link_weight;
            }
            record(ReplayEvent::Kind::send, r, op, clock, end, peer != nullptr ? peer[i] : op.index, pc);
            if (out) {
              // A blocking send's gap, and its wait for the link to finish
              // the messages before it (0 unless non-blocking ones are).
              out->comm_s += network_.send_overhead_s + (op.nonblocking ? 0.0 : op.gap_s + (end - ready));
              out->io_s += message_read_seconds(r, op, ws.plans[ri]);
            }
            clock = end;
            break;
          }
          case OpKind::completion: {
            if (empty) break;
            // Held until the link has put out the latest send it completes.
            const auto sent = static_cast<std::size_t>(op.index);
            if constexpr (kTaped) {
              clock_node = tape->max_of(clock_node, clock_weight, ws.sent_node[sent], ws.sent_weight[sent]);
              ws.weight_slot[i] = slot_of(clock_node, 0);
              clock_weight = 0;
            }
            const double until = std::max(clock, ws.sent[sent]);
            record(ReplayEvent::Kind::link_wait, r, op, clock, until);
            if (out) out->comm_s += until - clock;
            clock = until;
            break;
          }
          case OpKind::handshake: {
            // A synchronous send completes once its receiver has reached
            // the receive and the message has arrived there: the last
            // member to enter a collective over a group waits for its
            // messages as the virtual clock holds it (docs/model.md,
            // "Collectives over a group").
            const auto si = static_cast<std::size_t>(op.index);
            if (peer != nullptr && peer[si] < 0) break;  // not sent
            if (ws.reached[si] == Workspace::kNotReached) {
              blocked = true;
              break;
            }
            const int receiver = peer != nullptr ? peer[si] : ops_[si].index;
            const double until = std::max({clock, ws.sent[si] + transfer[si], ws.reached[si]});
            if constexpr (kTaped) {
              const int arrived =
                  tape->max_of(clock_node, clock_weight, ws.sent_node[si], ws.sent_weight[si] + transfer[si]);
              ws.weight_slot[i] = slot_of(arrived, 0);
              clock_node = tape->max_of(arrived, 0.0, ws.reached_node[si], 0.0);
              clock_weight = 0;
            }
            record(ReplayEvent::Kind::wait, r, op, clock, until, receiver, op.index);
            if (out) out->wait_s += until - clock;
            clock = until;
            break;
          }
          case OpKind::recv: {
            const int send = partner[pc];
            if (send < 0 || (peer != nullptr && peer[i] < 0)) break;
            const auto si = static_cast<std::size_t>(send);
            const bool handshake = handshakes_ > 0 && ops_[si].synchronous;
            if (handshake && ws.reached[si] == Workspace::kNotReached) {
              // Reached: the sender's handshake may go on from here. On
              // the tape, this time becomes a node of its own (the clock's
              // weights are costs, never negative, so the maximum is the
              // sum), which the receive then goes on from.
              ws.reached[si] = clock;
              if constexpr (kTaped) {
                clock_node = tape->max_of(clock_node, clock_weight, clock_node, 0.0);
                ws.weight_slot[i] = slot_of(clock_node, 0);
                clock_weight = 0;
                ws.reached_node[si] = clock_node;
              }
            }
            const int sender = op_rank_[si];
            if ((sender == r ? pc : ws.pc[static_cast<std::size_t>(sender)]) <= send) {
              blocked = true;
              break;
            }
            if constexpr (kTaped) {
              clock_node =
                  tape->max_of(clock_node, clock_weight, ws.sent_node[si], ws.sent_weight[si] + transfer[si]);
              if (!handshake) ws.weight_slot[i] = slot_of(clock_node, 0);
              clock_weight = network_.recv_overhead_s;
            }
            const double wait = std::max(0.0, ws.sent[si] + transfer[si] - clock);  // Eq 3 / Eq 4
            record(ReplayEvent::Kind::wait, r, op, clock, clock + wait, sender, send);
            record(ReplayEvent::Kind::recv, r, op, clock + wait, clock + wait + network_.recv_overhead_s, sender, send);
            clock += wait + network_.recv_overhead_s;  // O<-(q)
            if (out) {
              out->wait_s += wait;
              out->comm_s += network_.recv_overhead_s;
            }
            break;
          }
          case OpKind::collective: {
            const auto seq = static_cast<std::size_t>(op.index);
            if (!ws.at_collective[ri]) {
              ws.at_collective[ri] = 1;
              if constexpr (kTaped) {
                if (ws.collective_arrived[seq] == 0) {
                  ws.collective_node[seq] = clock_node;
                  ws.collective_weight[seq] = clock_weight;
                  ws.collective_first[seq] = pc;
                } else {
                  // The first to arrive weighs its own clock's side of the
                  // second's maximum, every later one its own.
                  ws.collective_node[seq] = tape->max_of(ws.collective_node[seq], ws.collective_weight[seq],
                                                         clock_node, clock_weight);
                  if (ws.collective_arrived[seq] == 1) {
                    ws.weight_slot[static_cast<std::size_t>(ws.collective_first[seq])] =
                        slot_of(ws.collective_node[seq], 0);
                  }
                  ws.weight_slot[i] = slot_of(ws.collective_node[seq], 1);
                  ws.collective_weight[seq] = 0;
                }
              }
              ++ws.collective_arrived[seq];
              ws.collective_latest[seq] = std::max(ws.collective_latest[seq], clock);
            }
            if (op.nonblocking) [[unlikely]] {  // posted: the rank goes on (its collective_wait)
              ws.at_collective[ri] = 0;
              break;
            }
            if (ws.collective_arrived[seq] < ranks_) {
              blocked = true;
              break;
            }
            ws.at_collective[ri] = 0;
            // Completes at the latest arrival plus its cost from cluster.json.
            const double wait = ws.collective_latest[seq] - clock;
            record(ReplayEvent::Kind::collective_wait, r, op, clock, ws.collective_latest[seq]);
            record(ReplayEvent::Kind::collective, r, op, ws.collective_latest[seq],
                   ws.collective_latest[seq] + ws.collective_cost[seq]);
            clock = ws.collective_latest[seq] + ws.collective_cost[seq];
            if constexpr (kTaped) {
              clock_node = ws.collective_node[seq];
              clock_weight = ws.collective_weight[seq] + ws.collective_cost[seq];
            }
            if (out) {
              out->wait_s += wait;
              out->comm_s += ws.collective_cost[seq];
            }
            break;
          }
          case OpKind::collective_wait: {
            // A non-blocking collective's result is there at the latest
            // post plus its cost; the rank computed meanwhile (docs/model.md,
            // "Non-blocking collectives").
            const auto seq = static_cast<std::size_t>(op.index);
            if (ws.collective_arrived[seq] < ranks_) {
              blocked = true;
              break;
            }
            const double done = ws.collective_latest[seq] + ws.collective_cost[seq];
            const double until = std::max(clock, done);
            if constexpr (kTaped) {
              clock_node = tape->max_of(clock_node, clock_weight, ws.collective_node[seq],
                                        ws.collective_weight[seq] + ws.collective_cost[seq]);
              ws.weight_slot[i] = slot_of(clock_node, 0);
              clock_weight = 0;
            }
            // What is left of its cost is communication, the rest waiting.
            const double comm = std::min(until - clock, ws.collective_cost[seq]);
            record(ReplayEvent::Kind::collective_wait, r, op, clock, until - comm);
            record(ReplayEvent::Kind::collective, r, op, until - comm, until);
            if (out) {
              out->wait_s += until - clock - comm;
              out->comm_s += comm;
            }
            clock = until;
            break;
          }
        }
        if (blocked) break;
        progress = true;
      }
      ws.pc[ri] = pc;
      ws.clock[ri] = clock;
      ws.link[ri] = link;
      if constexpr (kTaped) {
        ws.clock_node[ri] = clock_node;
        ws.link_node[ri] = link_node;
        ws.clock_weight[ri] = clock_weight;
        ws.link_weight[ri] = link_weight;
      }
      if (pc == end) ++finished;
    }
    if (!progress && finished < ranks_) {
      int stuck = 0;
      while (ws.pc[static_cast<std::size_t>(stuck)] == op_begin_[static_cast<std::size_t>(stuck) + 1]) ++stuck;
      const Op& op = ops_[static_cast<std::size_t>(ws.pc[static_cast<std::size_t>(stuck)])];
      std::string what = "message from rank " + std::to_string(op.index);
      if (op.kind == OpKind::collective || op.kind == OpKind::collective_wait) {
        what = "collective some rank never reaches";
      } else if (op.kind == OpKind::handshake) {  // its index is its send's op, whose index is the peer
        what = "synchronous send's receiver, rank " + std::to_string(ops_[static_cast<std::size_t>(op.index)].index) +
               ", to reach its receive";
      }
      throw ModelError("the profile's communication deadlocks: rank " + std::to_string(stuck) + " section " +
                       std::to_string(op.section) + " waits for a " + what + " while the others wait too");
    }
  }
  if constexpr (kTaped) {
    tape->end.clear();
    for (std::size_t r = 0; r < static_cast<std::size_t>(ranks_); ++r) {
      tape->end.push_back(ReplayTape::Operand{ws.clock_node[r], ws.clock_weight[r]});
      tape->end.push_back(ReplayTape::Operand{ws.link_node[r], ws.link_weight[r]});
      ws.taped_empty[r] = rows[r] == 0;
    }
    ws.tape_fits = true;
  }
}

// Rank r's operands on ws.tape for its costs now: its ops walked in order,
// summing its clock's costs exactly as replay_iteration does, into the
// sides of the maxima the replay recorded them on (ws.weight_slot). Its
// link's weights are gaps, which do not depend on the rows. The replay's
// sums are kept apart from these on purpose: a re-weighted tape must give
// what a replay records (tests/search/workspace_reuse_test.cpp), and with
// one sum for both a wrong one would go unseen.
void Model::reweight_rank(int r, std::span<const std::int64_t> rows, Workspace& ws, const Routes& routes) const {
  const auto ri = static_cast<std::size_t>(r);
  const bool empty = rows[ri] == 0;
  double clock_weight = 0;
  for (int pc = op_begin_[ri]; pc < op_begin_[ri + 1]; ++pc) {
    const auto i = static_cast<std::size_t>(pc);
    const Op& op = ops_[i];
    const int slot = ws.weight_slot[i];
    switch (op.kind) {
      case OpKind::block:
        if (!empty) clock_weight += ws.op_seconds[i];
        break;
      case OpKind::send: {
        if (routes.peer != nullptr && routes.peer[i] < 0) break;
        const double ready_weight = clock_weight + ws.op_seconds[i];
        ws.tape.weight(slot) = ready_weight;
        clock_weight = op.nonblocking ? ready_weight : 0;
        break;
      }
      case OpKind::completion:
        if (empty) break;
        ws.tape.weight(slot) = clock_weight;
        clock_weight = 0;
        break;
      case OpKind::recv:
        if (routes.partner[pc] < 0 || (routes.peer != nullptr && routes.peer[i] < 0)) break;
        // Before the receive of a synchronous send: the side of the node
        // of the time it was reached (replay_ops).
        ws.tape.weight(slot) = clock_weight;
        clock_weight = network_.recv_overhead_s;
        break;
      case OpKind::handshake:
        if (routes.peer != nullptr && routes.peer[static_cast<std::size_t>(op.index)] < 0) break;
        ws.tape.weight(slot) = clock_weight;
        clock_weight = 0;
        break;
      case OpKind::collective: {
        // With one rank its clock goes on through the collective.
        if (slot >= 0) ws.tape.weight(slot) = clock_weight;
        const auto seq = static_cast<std::size_t>(op.index);
        if (op.nonblocking) [[unlikely]] {
          ws.collective_weight[seq] = ranks_ > 1 ? 0.0 : clock_weight;  // the result's side at its wait
          break;
        }
        clock_weight = (ranks_ > 1 ? 0.0 : clock_weight) + ws.collective_cost[seq];
        break;
      }
      case OpKind::collective_wait: {
        const auto seq = static_cast<std::size_t>(op.index);
        ws.tape.weight(slot) = clock_weight;
        ws.tape.weight(slot + 1) = ws.collective_weight[seq] + ws.collective_cost[seq];
        clock_weight = 0;
        break;
      }
    }
  }
  ws.tape.end[2 * ri].weight = clock_weight;
}

// Whether ws.tape is the max-plus form of the iteration of `rows` once
// re-weighted: recorded in full for the same ranks without rows (so the
// same ops and messages). Which times it compares does not depend on the
// costs: the replay runs each rank until it blocks on a message not yet
// sent or a collective not everyone has reached.
bool Model::tape_fits(std::span<const std::int64_t> rows, const Workspace& ws) const {
  if (!ws.tape_fits) return false;
  for (std::size_t r = 0; r < static_cast<std::size_t>(ranks_); ++r) {
    if ((rows[r] == 0) != (ws.taped_empty[r] != 0)) return false;
  }
  return true;
}

// The first iteration of `rows` on ws.tape, into ws.clock and ws.link: the
// tape re-weighted for the ranks update_costs re-costed (every rank when a
// collective's cost follows the rows), else recorded by a replay. Either
// way its times then come from the tape, so a distribution gets the same
// times whichever way its tape was made.
void Model::first_iteration_on_tape(std::span<const std::int64_t> rows, Workspace& ws, const Routes& routes) const {
  if (tape_fits(rows, ws)) {
    if (gathers_rows_) {
      for (int r = 0; r < ranks_; ++r) reweight_rank(r, rows, ws, routes);
    } else {
      for (int r : ws.recosted) reweight_rank(r, rows, ws, routes);
    }
  } else {
    replay_iteration(rows, ws, routes, nullptr, nullptr, &ws.tape);
  }
  clock_from_tape(ws);
}

// ws.clock and ws.link where ws.tape's iteration leaves the ranks from its
// starts.
void Model::clock_from_tape(Workspace& ws) const {
  ws.tape.evaluate();
  for (std::size_t r = 0; r < static_cast<std::size_t>(ranks_); ++r) {
    const ReplayTape::Operand& clock = ws.tape.end[2 * r];
    const ReplayTape::Operand& link = ws.tape.end[2 * r + 1];
    ws.clock[r] = ws.tape.value[static_cast<std::size_t>(clock.node)] + clock.weight;
    ws.link[r] = ws.tape.value[static_cast<std::size_t>(link.node)] + link.weight;
  }
}

namespace {

// Of the ranks whose iteration is the longest, the one on the critical path:
// the one that waited least (the others waited for it, and finish with it).
int bottleneck_rank(const std::vector<RankBreakdown>& ranks) {
  double longest = 0;
  for (const RankBreakdown& b : ranks) longest = std::max(longest, b.total_s);
  int bottleneck = 0;
  bool found = false;
  for (std::size_t r = 0; r < ranks.size(); ++r) {
    const RankBreakdown& b = ranks[r];
    if (b.total_s < longest * (1 - 1e-12)) continue;
    // Waits within rounding of each other are a tie, which the lowest rank
    // wins whatever the last bits.
    if (!found || b.wait_s < ranks[static_cast<std::size_t>(bottleneck)].wait_s - 1e-12 * longest) {
      bottleneck = static_cast<int>(r);
    }
    found = true;
  }
  return bottleneck;
}

}  // namespace

double Model::evaluate(std::span<const std::int64_t> rows, Workspace& ws, Prediction* detail, View view,
                       double limit) const {
  const bool any_empty = update_costs(rows, ws);
  if (forward_only_ && detail == nullptr) return pipeline_pace(rows, ws, any_empty);
  const Routes routes = routes_for(rows, ws, any_empty);
  // The first iteration from a common start, then (repeated_iterations) the
  // ones after it from where it left each rank.
  std::fill(ws.clock.begin(), ws.clock.end(), 0.0);
  std::fill(ws.link.begin(), ws.link.end(), 0.0);
  // The replayed intervals, for `mheta trace` only: never on the search's path.
  std::vector<ReplayEvent>* events =
      view == View::first_timeline && detail != nullptr ? &detail->timeline : nullptr;
  // A pipeline's pace is its own (pipeline_pace), and an iteration that
  // ends in a collective on every rank is its own period: no tape for them.
  const bool taped = !forward_only_ && !ends_in_collective_;
  // The period straight from the iteration's max-plus form; the replay
  // carried on is the way there only when that does not settle, and the
  // way to the repeated iteration's terms.
  if (detail == nullptr) {
    if (taped) {
      first_iteration_on_tape(rows, ws, routes);
    } else {
      replay_iteration(rows, ws, routes, nullptr, nullptr);
    }
    const double exact = period(rows, ws, taped, limit);
    return exact >= 0 ? exact : repeated_iterations(rows, ws, routes, nullptr);
  }

  replay_iteration(rows, ws, routes, detail->ranks.data(), events, taped ? &ws.tape : nullptr);
  double slowest = 0;
  for (int r = 0; r < ranks_; ++r) slowest = std::max(slowest, ws.clock[static_cast<std::size_t>(r)]);
  for (int r = 0; r < ranks_; ++r) {
    RankBreakdown& b = detail->ranks[static_cast<std::size_t>(r)];
    b.rows = rows[static_cast<std::size_t>(r)];
    b.total_s = ws.clock[static_cast<std::size_t>(r)];
    const IclaPlan& plan = ws.plans[static_cast<std::size_t>(r)];
    if (plan.in_core) continue;
    for (int m = 0; m < variables_; ++m) {
      ++b.out_of_core_variables;
      b.chunks = std::max(b.chunks, plan.chunks);
      b.icla_bytes += plan.icla_rows * variable_bytes_per_row_[static_cast<std::size_t>(m)];
    }
  }
  detail->slowest_rank = bottleneck_rank(detail->ranks);
  detail->first_iteration_s = slowest;
  if (forward_only_) {
    if (view != View::repeated) {
      detail->iteration_s = pipeline_pace(rows, ws, any_empty);  // the pace the first iteration is followed at
      return detail->iteration_s;
    }
    steady_state(rows, ws, any_empty, *detail);
  } else {
    // The iterations that follow the first, at their own pace; predict()'s
    // breakdown is theirs. From the tape's times, as in a search.
    if (taped) clock_from_tape(ws);
    const double exact = period(rows, ws, taped);
    const bool steady = view == View::repeated && ws.biased && steady_iteration(rows, ws, routes, *detail);
    const double replayed =
        steady ? exact : repeated_iterations(rows, ws, routes, view == View::repeated ? detail : nullptr);
    detail->iteration_s = exact >= 0 ? exact : replayed;
    if (view != View::repeated) return detail->iteration_s;
  }
  // A prediction's iteration is the mean of the run's, whose compute
  // varies: a search compares distributions by the replay of the median
  // compute alone (docs/model.md, "Compute that varies from iteration to
  // iteration").
  detail->typical_iteration_s = detail->iteration_s;
  if (!compute_variation_.empty()) varying_iterations(rows, ws, routes, *detail);
  // A pipeline's is the busiest stage (steady_state), unless varied.
  if (!forward_only_ || !compute_variation_.empty()) detail->slowest_rank = bottleneck_rank(detail->ranks);
  return detail->iteration_s;
}

double Model::iteration_seconds_below(std::span<const std::int64_t> rows, Workspace& workspace, double limit) const {
  check_rows(rows, ranks_, global_rows_);
  return evaluate(rows, workspace, nullptr, View::repeated, limit);
}

Prediction Model::predict(std::span<const std::int64_t> rows) const {
  Workspace workspace(*this);
  return predict(rows, workspace);
}

Prediction Model::predict(std::span<const std::int64_t> rows, Workspace& workspace) const {
  return replay_view(rows, workspace, View::repeated);
}

Prediction Model::first_iteration(std::span<const std::int64_t> rows) const {
  Workspace workspace(*this);
  return replay_view(rows, workspace, View::first);
}

Prediction Model::timeline(std::span<const std::int64_t> rows) const {
  Workspace workspace(*this);
  return replay_view(rows, workspace, View::first_timeline);
}

Prediction Model::replay_view(std::span<const std::int64_t> rows, Workspace& workspace, View view) const {
  check_rows(rows, ranks_, global_rows_);
  Prediction prediction;
  prediction.ranks.resize(static_cast<std::size_t>(ranks_));
  evaluate(rows, workspace, &prediction, view);
  if (view != View::repeated) prediction.typical_iteration_s = prediction.iteration_s;
  prediction.iterations = iterations_;
  prediction.run_s = run_seconds(prediction, iterations_);
  return prediction;
}

double run_seconds(const Prediction& prediction, std::int64_t iterations) {
  if (iterations <= 0) return 0;
  return prediction.first_iteration_s + static_cast<double>(iterations - 1) * prediction.iteration_s;
}

double Model::rank_busy_seconds(int rank, std::int64_t first_row, std::int64_t rows) const {
  if (rows <= 0) return 0;
  // GBS calls this ~10^5 times per search: constant work per op, no allocation.
  const IclaPlan plan = plan_rank(rank, rows);
  const double scale = compute_scale(rank, first_row, rows, plan);
  return own_time(rank, [&](int i) { return own_seconds(rank, ops_[static_cast<std::size_t>(i)], rows, scale, plan); });
}

}  // namespace mheta::model
