// Evaluating a distribution: per-rank compute and I/O (MHETA §4.2.1), then a
// replay of every rank's operations that propagates times along matched
// messages and collectives (§4.2.2, generalized to N ranks).
#include <algorithm>
#include <limits>

#include "model/inline_buffer.hpp"
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

void Model::plan_rank(int rank, std::int64_t rows, std::span<IclaPlan> plans) const {
  InlineBuffer<VariableDemand> demands(static_cast<std::size_t>(variables_));
  for (int m = 0; m < variables_; ++m) {
    demands[static_cast<std::size_t>(m)] = VariableDemand{rows, variable_bytes_per_row_[static_cast<std::size_t>(m)]};
  }
  plan_iclas(nodes_[static_cast<std::size_t>(rank)].memory_bytes, demands.span(), icla_options_, plans);
}

double Model::block_io_seconds(int rank, const Block& block, std::int64_t rows,
                               std::span<const IclaPlan> plans) const {
  const DiskCosts& disk = nodes_[static_cast<std::size_t>(rank)].disk;
  double seconds = 0;
  for (int t = block.io_begin; t < block.io_end; ++t) {
    const IoTerm& term = io_terms_[static_cast<std::size_t>(t)];
    const IclaPlan& plan = plans[static_cast<std::size_t>(term.variable)];
    if (plan.in_core) continue;  // T_psi = 0 in core
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
double Model::message_read_seconds(int rank, const Op& op, std::int64_t, std::span<const IclaPlan> plans) const {
  if (op.from_variable < 0 || plans[static_cast<std::size_t>(op.from_variable)].in_core) return 0;
  const RankVariable& v = rank_variables_[static_cast<std::size_t>(rank * variables_ + op.from_variable)];
  return v.read_overhead_s + v.read_s_per_byte * static_cast<double>(op.bytes);
}

// Neighbour exchanges skip ranks that own no rows (as io/ does): a message
// addressed to an empty rank goes on, in the same direction, to the next
// rank that owns rows; an empty rank sends and receives nothing.
void Model::reroute(std::span<const std::int64_t> rows, Workspace& ws) const {
  ws.send_ends.clear();
  ws.recv_ends.clear();
  for (int r = 0; r < ranks_; ++r) {
    const bool empty = rows[static_cast<std::size_t>(r)] == 0;
    ws.empty_key[static_cast<std::size_t>(r)] = empty;
    for (int i = op_begin_[static_cast<std::size_t>(r)]; i < op_begin_[static_cast<std::size_t>(r) + 1]; ++i) {
      const Op& op = ops_[static_cast<std::size_t>(i)];
      if (op.kind != OpKind::send && op.kind != OpKind::recv) continue;
      int peer = -1;
      if (!empty) {
        peer = rows[static_cast<std::size_t>(op.index)] > 0
                   ? op.index
                   : next_rank_with_rows(rows, op.index, op.index > r ? 1 : -1);
      }
      ws.peer[static_cast<std::size_t>(i)] = peer;
      if (peer < 0) continue;
      if (op.kind == OpKind::send) {
        ws.send_ends.push_back(MessageEnd{r, peer, op.tag, i});
      } else {
        ws.recv_ends.push_back(MessageEnd{peer, r, op.tag, i});
      }
    }
  }
  // Ends left unmatched by the rerouting are dropped, not waited for.
  match_messages(ws.send_ends, ws.recv_ends, ws.partner);
  ws.rerouted = true;
}

double Model::evaluate(std::span<const std::int64_t> rows, Workspace& ws, Prediction* detail, bool timeline) const {
  std::vector<ReplayEvent>* events = timeline && detail != nullptr ? &detail->timeline : nullptr;
  const auto record = [events](ReplayEvent::Kind kind, int rank, const Op& op, double start, double end,
                               int peer = -1, int message = -1) {
    if (events == nullptr) return;
    events->push_back(ReplayEvent{kind, rank, op.section, start, end, peer, op.bytes, message,
                                  op.kind == OpKind::collective ? op.index : -1});
  };
  // Compute scaling (T_Phi' = T_Phi * W'/W) and ICLA plans, per rank.
  std::int64_t first = 0;
  bool any_empty = false;
  for (int r = 0; r < ranks_; ++r) {
    const auto ri = static_cast<std::size_t>(r);
    const double captured = captured_work_[ri];
    ws.scale[ri] = captured > 0 ? work_of_rows(first, rows[ri]) / captured
                                : static_cast<double>(rows[ri]) / static_cast<double>(captured_rows_[ri]);
    plan_rank(r, rows[ri], std::span(ws.plans).subspan(ri * static_cast<std::size_t>(variables_),
                                                       static_cast<std::size_t>(variables_)));
    first += rows[ri];
    any_empty = any_empty || rows[ri] == 0;
  }
  const int* partner = base_partner_.data();
  if (any_empty) {
    bool same = ws.rerouted;
    for (int r = 0; same && r < ranks_; ++r) {
      same = (ws.empty_key[static_cast<std::size_t>(r)] != 0) == (rows[static_cast<std::size_t>(r)] == 0);
    }
    if (!same) reroute(rows, ws);
    partner = ws.partner.data();
  }

  std::fill(ws.clock.begin(), ws.clock.end(), 0.0);
  std::copy(op_begin_.begin(), op_begin_.end() - 1, ws.pc.begin());
  std::fill(ws.at_collective.begin(), ws.at_collective.end(), 0);
  std::fill(ws.arrival.begin(), ws.arrival.end(), -1.0);
  std::fill(ws.collective_arrived.begin(), ws.collective_arrived.end(), 0);
  std::fill(ws.collective_latest.begin(), ws.collective_latest.end(), 0.0);

  // Replay: each pass runs every rank until it blocks on a message not yet
  // sent or a collective not everyone has reached. Every op is executed
  // once, so the cost is linear in ranks x sections plus blocked visits.
  int finished = 0;
  while (finished < ranks_) {
    bool progress = false;
    for (int r = 0; r < ranks_; ++r) {
      const auto ri = static_cast<std::size_t>(r);
      const int end = op_begin_[ri + 1];
      int& pc = ws.pc[ri];
      if (pc == end) continue;
      double& clock = ws.clock[ri];
      RankBreakdown* out = detail != nullptr ? &detail->ranks[ri] : nullptr;
      const std::span<const IclaPlan> plans(ws.plans.data() + ri * static_cast<std::size_t>(variables_),
                                            static_cast<std::size_t>(variables_));
      const bool empty = rows[ri] == 0;
      for (; pc < end; ++pc) {
        const Op& op = ops_[static_cast<std::size_t>(pc)];
        bool blocked = false;
        switch (op.kind) {
          case OpKind::block: {
            if (empty) break;
            const Block& block = blocks_[static_cast<std::size_t>(op.index)];
            const double compute = block.compute_s * ws.scale[ri];
            const double io = block_io_seconds(r, block, rows[ri], plans);
            record(ReplayEvent::Kind::compute, r, op, clock, clock + compute);
            record(ReplayEvent::Kind::io, r, op, clock + compute, clock + compute + io);
            clock += compute + io;  // T_gamma = T_Phi + sum T_psi, summed over stages: T_tau
            if (out) {
              out->compute_s += compute;
              out->io_s += io;
            }
            break;
          }
          case OpKind::send: {
            const int peer = any_empty ? ws.peer[static_cast<std::size_t>(pc)] : op.index;
            if (peer < 0) break;
            const double disk = message_read_seconds(r, op, rows[ri], plans);
            record(ReplayEvent::Kind::send, r, op, clock, clock + network_.send_overhead_s + disk, peer, pc);
            clock += network_.send_overhead_s + disk;  // O->(q)
            const Link link = any_empty ? network_.link(r, peer) : base_link_[static_cast<std::size_t>(pc)];
            ws.arrival[static_cast<std::size_t>(pc)] = clock + link.seconds(static_cast<double>(op.bytes));
            if (out) {
              out->comm_s += network_.send_overhead_s;
              out->io_s += disk;
            }
            break;
          }
          case OpKind::recv: {
            const int send = partner[pc];
            if (send < 0 || (any_empty && ws.peer[static_cast<std::size_t>(pc)] < 0)) break;
            const double arrival = ws.arrival[static_cast<std::size_t>(send)];
            if (arrival < 0) {
              blocked = true;
              break;
            }
            const double wait = std::max(0.0, arrival - clock);  // Eq 3 / Eq 4
            const int from = any_empty ? ws.peer[static_cast<std::size_t>(pc)] : op.index;
            record(ReplayEvent::Kind::wait, r, op, clock, clock + wait, from, send);
            record(ReplayEvent::Kind::recv, r, op, clock + wait, clock + wait + network_.recv_overhead_s, from, send);
            clock += wait + network_.recv_overhead_s;                // O<-(q)
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
              ++ws.collective_arrived[seq];
              ws.collective_latest[seq] = std::max(ws.collective_latest[seq], clock);
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
                   ws.collective_latest[seq] + collective_cost_s_[seq]);
            clock = ws.collective_latest[seq] + collective_cost_s_[seq];
            if (out) {
              out->wait_s += wait;
              out->comm_s += collective_cost_s_[seq];
            }
            break;
          }
        }
        if (blocked) break;
        progress = true;
      }
      if (pc == end) ++finished;
    }
    if (!progress && finished < ranks_) {
      int stuck = 0;
      while (ws.pc[static_cast<std::size_t>(stuck)] == op_begin_[static_cast<std::size_t>(stuck) + 1]) ++stuck;
      const Op& op = ops_[static_cast<std::size_t>(ws.pc[static_cast<std::size_t>(stuck)])];
      throw ModelError("the profile's communication deadlocks: rank " + std::to_string(stuck) + " section " +
                       std::to_string(op.section) + " waits for a " +
                       (op.kind == OpKind::collective ? std::string("collective some rank never reaches")
                                                      : "message from rank " + std::to_string(op.index)) +
                       " while the others wait too");
    }
  }

  double slowest = 0;
  int slowest_rank = 0;
  for (int r = 0; r < ranks_; ++r) {
    if (ws.clock[static_cast<std::size_t>(r)] > slowest) {
      slowest = ws.clock[static_cast<std::size_t>(r)];
      slowest_rank = r;
    }
  }
  if (detail != nullptr) {
    detail->iteration_s = slowest;
    for (int r = 0; r < ranks_; ++r) {
      RankBreakdown& b = detail->ranks[static_cast<std::size_t>(r)];
      b.rows = rows[static_cast<std::size_t>(r)];
      b.total_s = ws.clock[static_cast<std::size_t>(r)];
      for (int m = 0; m < variables_; ++m) {
        const IclaPlan& plan = ws.plans[static_cast<std::size_t>(r * variables_ + m)];
        if (plan.in_core) continue;
        ++b.out_of_core_variables;
        b.chunks = std::max(b.chunks, plan.chunks);
        b.icla_bytes += plan.icla_rows * variable_bytes_per_row_[static_cast<std::size_t>(m)];
      }
    }
    // Ranks that wait for the bottleneck at the end finish with it: of
    // those finishing last, the bottleneck is the one on the critical path,
    // the one that waited least.
    detail->slowest_rank = slowest_rank;
    for (int r = 0; r < ranks_; ++r) {
      const RankBreakdown& b = detail->ranks[static_cast<std::size_t>(r)];
      const double least_wait = detail->ranks[static_cast<std::size_t>(detail->slowest_rank)].wait_s;
      if (b.total_s >= slowest * (1 - 1e-12) && b.wait_s < least_wait) detail->slowest_rank = r;
    }
  }
  return slowest;
}

double Model::iteration_seconds(std::span<const std::int64_t> rows, Workspace& workspace) const {
  check_rows(rows, ranks_, global_rows_);
  return evaluate(rows, workspace, nullptr);
}

Prediction Model::predict(std::span<const std::int64_t> rows) const {
  check_rows(rows, ranks_, global_rows_);
  Workspace workspace(*this);
  Prediction prediction;
  prediction.ranks.resize(static_cast<std::size_t>(ranks_));
  evaluate(rows, workspace, &prediction);
  prediction.iterations = iterations_;
  prediction.run_s = prediction.iteration_s * static_cast<double>(iterations_);
  require_finite(prediction);
  return prediction;
}

Prediction Model::timeline(std::span<const std::int64_t> rows) const {
  check_rows(rows, ranks_, global_rows_);
  Workspace workspace(*this);
  Prediction prediction;
  prediction.ranks.resize(static_cast<std::size_t>(ranks_));
  evaluate(rows, workspace, &prediction, true);
  prediction.iterations = iterations_;
  prediction.run_s = prediction.iteration_s * static_cast<double>(iterations_);
  return prediction;
}

double Model::rank_busy_seconds(int rank, std::int64_t first_row, std::int64_t rows) const {
  if (rows <= 0) return 0;
  const auto ri = static_cast<std::size_t>(rank);
  // GBS calls this ~10^6 times per search: no allocation for common sizes.
  InlineBuffer<IclaPlan> plan_buffer(static_cast<std::size_t>(variables_));
  const std::span<IclaPlan> plans = plan_buffer.span();
  plan_rank(rank, rows, plans);
  const double captured = captured_work_[ri];
  const double scale = captured > 0 ? work_of_rows(first_row, rows) / captured
                                    : static_cast<double>(rows) / static_cast<double>(captured_rows_[ri]);
  double seconds = 0;
  for (int i = op_begin_[ri]; i < op_begin_[ri + 1]; ++i) {
    const Op& op = ops_[static_cast<std::size_t>(i)];
    switch (op.kind) {
      case OpKind::block: {
        const Block& block = blocks_[static_cast<std::size_t>(op.index)];
        seconds += block.compute_s * scale + block_io_seconds(rank, block, rows, plans);
        break;
      }
      case OpKind::send:
        seconds += network_.send_overhead_s + message_read_seconds(rank, op, rows, plans);
        break;
      case OpKind::recv:
        seconds += network_.recv_overhead_s;
        break;
      case OpKind::collective:
        seconds += collective_cost_s_[static_cast<std::size_t>(op.index)];
        break;
    }
  }
  return seconds;
}

}  // namespace mheta::model
