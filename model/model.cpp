// Compiling a profile and a cluster into the model's flat arrays.
#include "model/model.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "model/in_core_compute.hpp"
#include "model/io_cost.hpp"
#include "model/iteration_collectives.hpp"

namespace mheta::model {

namespace {

std::string where(int rank, int section) {
  return "rank " + std::to_string(rank) + " section " + std::to_string(section);
}

}  // namespace

Model::Model(const Profile& profile, const Cluster& cluster)
    : ranks_(profile.rank_count()),
      variables_(static_cast<int>(profile.variables.size())),
      global_rows_(profile.global_rows()),
      iterations_(profile.iterations),
      network_(cluster.network),
      nodes_(cluster.nodes),
      captured_rows_(profile.distribution.rows),
      in_core_compute_ratio_(in_core_compute_ratios(profile)) {
  if (cluster.ranks() != ranks_) {
    throw ModelError("the cluster describes " + std::to_string(cluster.ranks()) + " nodes but the profile has " +
                     std::to_string(ranks_) + " ranks (node i describes the node rank i runs on)");
  }
  icla_options_.buffers = profile.prefetch ? 2 : 1;
  for (const Variable& v : profile.variables) {
    variable_bytes_per_row_.push_back(v.bytes_per_row);
    const bool program_file = v.io == VariableIo::program_file;
    program_file_.push_back(program_file ? 1 : 0);
    // A program's own file is not held in memory by the ICLA policy.
    if (!program_file) row_bytes_ += static_cast<std::uint64_t>(v.bytes_per_row);
  }
  if (!profile.row_weights.empty()) {
    row_weight_prefix_.resize(profile.row_weights.size() + 1, 0.0);
    std::partial_sum(profile.row_weights.begin(), profile.row_weights.end(), row_weight_prefix_.begin() + 1);
  }
  rank_variables_.resize(static_cast<std::size_t>(ranks_) * static_cast<std::size_t>(variables_));
  op_begin_.push_back(0);
  std::int64_t first = 0;
  for (int r = 0; r < ranks_; ++r) {
    captured_work_.push_back(work_of_rows(first, captured_rows_[static_cast<std::size_t>(r)]));
    first += captured_rows_[static_cast<std::size_t>(r)];
    compile_rank(r, profile);
    op_begin_.push_back(static_cast<int>(ops_.size()));
    op_rank_.resize(ops_.size(), r);
  }
  for (int r = 0; r < ranks_; ++r) ranks_without_ops_ += op_begin_[static_cast<std::size_t>(r)] == op_begin_[static_cast<std::size_t>(r) + 1];
  compile_compute_variation(profile);
  compile_collectives();
  price_collectives_by_capture(profile);
  compile_messages();
  compile_completions();
  // A profile whose waits form a cycle would deadlock the replay: find out
  // now, on the distribution it was instrumented with.
  Workspace workspace(*this);
  evaluate(captured_rows_, workspace, nullptr);
}

// Sample by sample (docs/model.md, "Compute that varies from iteration to
// iteration"); the reader checked that every rank has as many.
void Model::compile_compute_variation(const Profile& profile) {
  const std::size_t samples = profile.ranks.front().compute_variation.size();
  for (std::size_t r = 0; r < profile.ranks.size(); ++r) {
    if (profile.ranks[r].compute_variation.size() != samples) {
      throw ModelError("rank " + std::to_string(r) + "'s compute_variation has " +
                       std::to_string(profile.ranks[r].compute_variation.size()) + " samples, rank 0's " +
                       std::to_string(samples));
    }
  }
  for (std::size_t k = 0; k < samples; ++k) {
    for (const RankProfile& rank : profile.ranks) compute_variation_.push_back(rank.compute_variation[k]);
  }
}

double Model::work_of_rows(std::int64_t first_row, std::int64_t rows) const {
  if (row_weight_prefix_.empty()) return static_cast<double>(rows);
  return row_weight_prefix_[static_cast<std::size_t>(first_row + rows)] -
         row_weight_prefix_[static_cast<std::size_t>(first_row)];
}

void Model::compile_rank(int rank, const Profile& profile) {
  const std::int64_t rows = captured_rows_[static_cast<std::size_t>(rank)];
  if (rows == 0) {
    throw ModelError("rank " + std::to_string(rank) +
                     " owned no rows in the instrumented iteration, so its costs are unknown; instrument with a "
                     "distribution that gives every rank rows (Blk)");
  }
  const RankProfile& rp = profile.ranks[static_cast<std::size_t>(rank)];
  const Node& node = nodes_[static_cast<std::size_t>(rank)];
  const DiskCosts& disk = node.disk;
  const Slowdown scale = normalization(rank, rp, node);

  // Per-byte latencies r(m), w(m) and T_A per byte, from what the rank
  // measured over the whole iteration (MHETA §4.1.1): the request overheads
  // O_r, O_w are node constants, the rest is proportional to the bytes.
  std::vector<IoStats> reads(static_cast<std::size_t>(variables_));
  std::vector<IoStats> writes(static_cast<std::size_t>(variables_));
  std::vector<double> overlap(static_cast<std::size_t>(variables_), 0.0);
  std::vector<std::int64_t> prefetched_bytes(static_cast<std::size_t>(variables_), 0);
  double compute = 0;
  for (const Section& section : rp.sections) {
    for (const Stage& stage : section.stages) {
      compute += scale.cpu * stage.compute_s;
      for (const StageIo& io : stage.io) {
        const auto m = static_cast<std::size_t>(io.variable);
        reads[m].count += io.reads.count;
        reads[m].bytes += io.reads.bytes;
        reads[m].seconds += scale.io * io.reads.seconds;
        writes[m].count += io.writes.count;
        writes[m].bytes += io.writes.bytes;
        writes[m].seconds += scale.io * io.writes.seconds;
        if (io.prefetch) {
          overlap[m] += scale.cpu * io.overlap_compute_s;
          prefetched_bytes[m] += io.reads.bytes;
        }
      }
    }
  }
  for (int m = 0; m < variables_; ++m) {
    const auto i = static_cast<std::size_t>(m);
    const IoCalibration read =
        calibrate_io(reads[i].count, reads[i].bytes, reads[i].seconds, {disk.read_overhead_s, disk.read_s_per_byte},
                     {disk.cached_read_overhead_s, disk.cached_read_s_per_byte});
    const IoCalibration write =
        calibrate_io(writes[i].count, writes[i].bytes, writes[i].seconds, {disk.write_overhead_s, disk.write_s_per_byte},
                     {disk.buffered_write_overhead_s, disk.buffered_write_s_per_byte});
    rank_variables_[static_cast<std::size_t>(rank * variables_ + m)] = RankVariable{
        read.overhead_s, read.s_per_byte, write.overhead_s, write.s_per_byte,
        prefetched_bytes[i] > 0 ? overlap[i] / static_cast<double>(prefetched_bytes[i]) : 0.0};
  }
  const double work = captured_work_[static_cast<std::size_t>(rank)];
  compute_per_work_.push_back(work > 0 ? compute / work : 0.0);

  // Where the rank's non-blocking sends were completed: at each place
  // (section, before comm op k), the latest send completed there, which
  // the link puts out after all those before it; (-1, -1): none. Those
  // not completed in the iteration hold the rank at its end. The
  // synchronous ones completed there each add a handshake after it, the
  // non-blocking collectives completed there a wait for each.
  using Place = std::pair<int, int>;
  const Place none{-1, -1};
  struct Completed {
    Place latest{-1, -1};
    std::vector<Place> synchronous;
    std::vector<Place> collectives;
  };
  std::vector<std::vector<Completed>> completed(rp.sections.size());
  for (std::size_t s = 0; s < rp.sections.size(); ++s) completed[s].resize(rp.sections[s].comm.size() + 1);
  Completed completed_at_end;
  for (std::size_t s = 0; s < rp.sections.size(); ++s) {
    for (std::size_t k = 0; k < rp.sections[s].comm.size(); ++k) {
      const CommOp& c = rp.sections[s].comm[k];
      if (c.kind == CommKind::recv || !c.nonblocking) continue;
      Completed& at =
          c.completed_section < 0
              ? completed_at_end
              : completed[static_cast<std::size_t>(c.completed_section)][static_cast<std::size_t>(c.completed_comm)];
      const Place here{static_cast<int>(s), static_cast<int>(k)};
      if (c.kind == CommKind::collective) {
        at.collectives.push_back(here);
        continue;
      }
      at.latest = std::max(at.latest, here);
      if (c.synchronous) at.synchronous.push_back(here);
    }
  }
  std::vector<std::vector<int>> comm_op(rp.sections.size());  // the op of each send and collective
  const auto op_of = [&](const Place& comm) {
    return comm_op[static_cast<std::size_t>(comm.first)][static_cast<std::size_t>(comm.second)];
  };
  const auto add_completion = [&](const Completed& at, int section_index) {
    if (at.latest != none) {
      ops_.push_back(Op{OpKind::completion, false, false, op_of(at.latest), section_index, 0, -1, 0});
      for (const Place& send : at.synchronous) {
        ops_.push_back(Op{OpKind::handshake, false, false, op_of(send), section_index, 0, -1, 0});
        ++handshakes_;
      }
    }
    // Its collective's op for now; compile_collectives makes it the
    // sequence number.
    for (const Place& collective : at.collectives) {
      ops_.push_back(Op{OpKind::collective_wait, false, false, op_of(collective), section_index, 0, -1, 0});
    }
  };

  for (std::size_t s = 0; s < rp.sections.size(); ++s) {
    const Section& section = rp.sections[s];
    const int section_index = static_cast<int>(s);
    comm_op[s].assign(section.comm.size(), -1);
    // One block per section: its stages add up (T_tau = sum of T_gamma).
    Block block{0.0, static_cast<int>(io_terms_.size()), 0};
    for (const Stage& stage : section.stages) {
      block.compute_s += scale.cpu * stage.compute_s;
      for (const StageIo& io : stage.io) {
        if (program_file_[static_cast<std::size_t>(io.variable)] != 0) {
          add_program_io(block, rank, io, profile.variables[static_cast<std::size_t>(io.variable)].per_row);
          continue;
        }
        const double owned =
            static_cast<double>(rows) * static_cast<double>(variable_bytes_per_row_[static_cast<std::size_t>(io.variable)]);
        io_terms_.push_back(IoTerm{io.variable, static_cast<double>(io.reads.bytes) / owned,
                                   static_cast<double>(io.writes.bytes) / owned, io.prefetch});
      }
    }
    // A program that was not forced out of core did no I/O for variables
    // that fitted; assume one sweep per iteration (a write-back too for
    // read-write variables) in its first section when they no longer fit.
    if (s == 0 && !profile.forced_out_of_core) {
      for (int m = 0; m < variables_; ++m) {
        const auto i = static_cast<std::size_t>(m);
        if (reads[i].count > 0 || writes[i].count > 0 || program_file_[i] != 0) continue;
        const bool read_write = profile.variables[i].access == Access::read_write;
        io_terms_.push_back(IoTerm{m, 1.0, read_write ? 1.0 : 0.0, profile.prefetch});
      }
    }
    block.io_end = static_cast<int>(io_terms_.size());
    ops_.push_back(Op{OpKind::block, false, false, static_cast<int>(blocks_.size()), section_index, 0, -1, 0});
    blocks_.push_back(block);
    for (std::size_t k = 0; k < section.comm.size(); ++k) {
      add_completion(completed[s][k], section_index);
      const CommOp& c = section.comm[k];
      switch (c.kind) {
        case CommKind::send:
          comm_op[s][k] = static_cast<int>(ops_.size());
          ops_.push_back(
              Op{OpKind::send, c.nonblocking, c.synchronous, c.peer, section_index, c.tag, c.from_variable, c.bytes});
          segments_s_.resize(ops_.size(), 0.0);
          // Blocks beyond the first (docs/model.md, "Messages of
          // non-contiguous datatypes"); absent on a cluster measured before.
          segments_s_.back() = static_cast<double>(c.segments - 1) * network_.segment_s.value_or(0.0);
          ++sends_;
          break;
        case CommKind::recv:
          ops_.push_back(Op{OpKind::recv, false, false, c.peer, section_index, c.tag, -1, c.bytes});
          ++recvs_;
          break;
        case CommKind::collective:
          // The sequence number is filled in by compile_collectives.
          comm_op[s][k] = static_cast<int>(ops_.size());
          ops_.push_back(Op{OpKind::collective, c.nonblocking, false, static_cast<int>(c.collective), section_index, 0,
                            -1, c.bytes});
          break;
      }
    }
    add_completion(completed[s][section.comm.size()], section_index);
  }
  add_completion(completed_at_end, static_cast<int>(rp.sections.size()) - 1);
}

// A completion's gap_s: the gaps of the sends its rank posted after the one
// it completes and before it. The rank's own time (own_time) finds when the
// link put that send out from when it has put out all of them: the link
// went on with those without a pause, or it paused, and then that send had
// left before the rank reached the completion (docs/model.md, "A
// non-blocking send's gap").
void Model::compile_completions() {
  std::vector<double> posted_through(ops_.size(), 0.0);  // per send: its rank's gaps up to it
  for (int r = 0; r < ranks_; ++r) {
    double posted = 0;
    for (int i = op_begin_[static_cast<std::size_t>(r)]; i < op_begin_[static_cast<std::size_t>(r) + 1]; ++i) {
      Op& op = ops_[static_cast<std::size_t>(i)];
      if (op.kind == OpKind::send) {
        posted += op.gap_s;
        posted_through[static_cast<std::size_t>(i)] = posted;
      } else if (op.kind == OpKind::completion) {
        op.gap_s = posted - posted_through[static_cast<std::size_t>(op.index)];
      }
    }
  }
}

// A stage's I/O on a program's own file, at the rank's calibrated request
// overheads and per-byte latencies (the same calibrate_io as an array's, so
// the captured iteration's own time comes back): count·O + bytes·r for the
// reads, likewise for the writes. Not Eq 1: the program chose its requests,
// memory did not. Its bytes were the rank's block of rows (per_row): a rank
// with other rows moves bytes, and makes requests, in proportion;
// otherwise the same at any rows.
void Model::add_program_io(Block& block, int rank, const StageIo& io, bool per_row) const {
  const RankVariable& v = rank_variables_[static_cast<std::size_t>(rank * variables_ + io.variable)];
  const double seconds = static_cast<double>(io.reads.count) * v.read_overhead_s +
                         static_cast<double>(io.reads.bytes) * v.read_s_per_byte +
                         static_cast<double>(io.writes.count) * v.write_overhead_s +
                         static_cast<double>(io.writes.bytes) * v.write_s_per_byte;
  if (per_row) {
    block.program_io_per_row_s += seconds / static_cast<double>(captured_rows_[static_cast<std::size_t>(rank)]);
  } else {
    block.program_io_s += seconds;
  }
}

// Every rank must call the same collectives in the same order (MPI requires
// it); the k-th collective of every rank is instance k, priced once at the
// largest byte count any rank gave it.
//
// An extension of §4.2.2, which prices a collective at the instrumented
// bytes: a gather (gather, allgather(v)) in which every rank gave a whole
// number of bytes per row it owned, the same for all, carries the rows'
// data (a distributed vector gathered whole, as cg's), so its bytes follow
// the distribution. It is priced per distribution at the largest share
// (cost_collectives): its steps are paced by the largest block (each step
// of a ring or recursive-doubling allgather forwards blocks, and the step
// that carries the largest ends last), and the emulated network's virtual
// clock ends each rank's gather at its own block's cost, so the next
// synchronization waits for the largest. Evidence: cg on HY1, 4 ranks,
// docs/model.md "Collectives whose bytes follow the rows".
void Model::compile_collectives() {
  std::vector<int> counts(static_cast<std::size_t>(ranks_), 0);
  std::vector<std::int64_t> bytes;
  for (int r = 0; r < ranks_; ++r) {
    for (int i = op_begin_[static_cast<std::size_t>(r)]; i < op_begin_[static_cast<std::size_t>(r) + 1]; ++i) {
      Op& op = ops_[static_cast<std::size_t>(i)];
      if (op.kind == OpKind::collective_wait) {  // after its collective, numbered by now
        op.index = ops_[static_cast<std::size_t>(op.index)].index;
        continue;
      }
      if (op.kind != OpKind::collective) continue;
      const auto collective = static_cast<Collective>(op.index);
      const int seq = counts[static_cast<std::size_t>(r)]++;
      if (r == 0) {
        collective_ops_.push_back(collective);
        bytes.push_back(op.bytes);
      } else if (seq >= static_cast<int>(collective_ops_.size()) ||
                 collective_ops_[static_cast<std::size_t>(seq)] != collective) {
        throw ModelError(where(r, op.section) + ": collective #" + std::to_string(seq) + " is " +
                         std::string(collective_name(collective)) + ", but rank 0 " +
                         (seq < static_cast<int>(collective_ops_.size())
                              ? "calls " + std::string(collective_name(collective_ops_[static_cast<std::size_t>(seq)]))
                              : std::string("calls no such collective")) +
                         " there; every rank must call the same collectives in the same order");
      } else {
        bytes[static_cast<std::size_t>(seq)] = std::max(bytes[static_cast<std::size_t>(seq)], op.bytes);
      }
      op.index = seq;
    }
    if (counts[static_cast<std::size_t>(r)] != static_cast<int>(collective_ops_.size())) {
      throw ModelError("rank " + std::to_string(r) + " calls " + std::to_string(counts[static_cast<std::size_t>(r)]) +
                       " collectives per iteration but rank 0 calls " + std::to_string(collective_ops_.size()));
    }
  }
  for (std::size_t seq = 0; seq < collective_ops_.size(); ++seq) {
    const std::optional<double> cost = network_.collective_seconds(collective_ops_[seq], ranks_, bytes[seq]);
    if (!cost) {
      throw ModelError("the cluster has no cost curve for " + std::string(collective_name(collective_ops_[seq])) +
                       " (nor for the collective it can borrow one from, nor a point measured at " +
                       std::to_string(bytes[seq]) + " bytes), which the profile uses");
    }
    collective_cost_s_.push_back(*cost);
    CollectivePrice price;
    price.call = static_cast<int>(seq);
    price.op = collective_ops_[seq];
    price.bytes = bytes[seq];
    price.cluster_s = *cost;
    collective_prices_.push_back(price);
  }
  compile_gathered_rows();
}

// Collectives as the program paid for them (docs/model.md): a collective
// whose every rank ends with the result of all, captured on the wall clock
// on this cluster, costs what it cost the program from its last arrival:
// the smallest time inside over the ranks. Not a gather of the rows' data,
// whose bytes, and so cost, change with the distribution, nor a profile
// taken elsewhere (its times are that cluster's).
void Model::price_collectives_by_capture(const Profile& profile) {
  const auto calls = iteration_collectives(profile);
  if (!calls || calls->size() != collective_prices_.size()) return;
  for (std::size_t seq = 0; seq < collective_prices_.size(); ++seq) {
    CollectivePrice& price = collective_prices_[seq];
    price.inside_s = (*calls)[seq].inside_s;
    price.by_capture =
        captured_here_ && price.inside_s && ends_together(price.op) && collective_bytes_per_row_[seq] <= 0;
    if (price.by_capture) collective_cost_s_[seq] = *price.inside_s;
  }
}

namespace {
bool gathers(Collective op) { return op == Collective::gather || op == Collective::allgather; }
}  // namespace

void Model::compile_gathered_rows() {
  collective_bytes_per_row_.assign(collective_ops_.size(), 0.0);
  std::vector<std::int64_t> per_row(collective_ops_.size(), -1);  // -1: not seen; 0: does not follow the rows
  for (int r = 0; r < ranks_; ++r) {
    const std::int64_t rows = captured_rows_[static_cast<std::size_t>(r)];
    for (int i = op_begin_[static_cast<std::size_t>(r)]; i < op_begin_[static_cast<std::size_t>(r) + 1]; ++i) {
      const Op& op = ops_[static_cast<std::size_t>(i)];
      if (op.kind != OpKind::collective) continue;
      std::int64_t& k = per_row[static_cast<std::size_t>(op.index)];
      const bool whole = gathers(collective_ops_[static_cast<std::size_t>(op.index)]) && op.bytes > 0 &&
                         op.bytes % rows == 0;
      const std::int64_t mine = whole ? op.bytes / rows : 0;
      k = k < 0 || k == mine ? mine : 0;
    }
  }
  for (std::size_t seq = 0; seq < per_row.size(); ++seq) {
    if (per_row[seq] <= 0) continue;
    collective_bytes_per_row_[seq] = static_cast<double>(per_row[seq]);
    gathers_rows_ = true;
  }
}

// The collectives' costs for `rows`: a gather of the rows' data at the
// largest share. The others keep the instrumented cost the workspace starts
// with, so a profile without such a gather costs nothing here.
void Model::cost_collectives(std::span<const std::int64_t> rows, Workspace& ws) const {
  if (!gathers_rows_) return;
  const std::int64_t largest = *std::max_element(rows.begin(), rows.end());
  for (std::size_t seq = 0; seq < collective_ops_.size(); ++seq) {
    if (collective_bytes_per_row_[seq] <= 0) continue;
    const auto bytes = std::llround(collective_bytes_per_row_[seq] * static_cast<double>(largest));
    ws.collective_cost[seq] =
        network_.collective_seconds(collective_ops_[seq], ranks_, bytes).value_or(collective_cost_s_[seq]);
  }
}

void Model::compile_messages() {
  std::vector<MessageEnd> sends;
  std::vector<MessageEnd> recvs;
  base_partner_.assign(ops_.size(), -1);
  base_transfer_s_.assign(ops_.size(), 0.0);
  for (int r = 0; r < ranks_; ++r) {
    for (int i = op_begin_[static_cast<std::size_t>(r)]; i < op_begin_[static_cast<std::size_t>(r) + 1]; ++i) {
      Op& op = ops_[static_cast<std::size_t>(i)];
      if (op.kind == OpKind::send) {
        sends.push_back(MessageEnd{r, op.index, op.tag, i});
        // LogGP: the sender is busy while the bytes leave (its gap), and the
        // message arrives the link's latency after that, at the time
        // T_{i->j}(n) after the send that the link's cost gives (§4.2.2;
        // the line L + n/B, or the measured curve).
        const Link& link = network_.link(r, op.index);
        const double bytes = static_cast<double>(op.bytes);
        // A non-contiguous message's blocks hold the sender and delay the
        // arrival as more bytes would: in its gap.
        op.gap_s = link.gap_seconds(bytes) + segment_seconds(i);
        base_transfer_s_[static_cast<std::size_t>(i)] = link.startup_seconds();
      } else if (op.kind == OpKind::recv) {
        recvs.push_back(MessageEnd{op.index, r, op.tag, i});
      }
    }
  }
  forward_only_ = collective_ops_.empty();
  for (const MessageEnd& e : sends) forward_only_ = forward_only_ && e.src < e.dst;
  for (const MessageEnd& e : recvs) forward_only_ = forward_only_ && e.src < e.dst;
  forward_only_ = forward_only_ && handshakes_ == 0;
  ends_in_collective_ = !collective_ops_.empty();
  for (int r = 0; r < ranks_; ++r) {
    const int last = op_begin_[static_cast<std::size_t>(r) + 1] - 1;
    if (last < op_begin_[static_cast<std::size_t>(r)]) continue;  // no ops: idle
    const Op& op = ops_[static_cast<std::size_t>(last)];
    ends_in_collective_ = ends_in_collective_ && op.kind == OpKind::collective && !op.nonblocking;
  }
  const MatchResult result = match_messages(sends, recvs, base_partner_);
  if (result.unmatched > 0) {
    const Op& op = ops_[static_cast<std::size_t>(result.first_unmatched)];
    const int rank = static_cast<int>(
        std::upper_bound(op_begin_.begin(), op_begin_.end(), result.first_unmatched) - op_begin_.begin() - 1);
    const bool is_send = op.kind == OpKind::send;
    throw ModelError(where(rank, op.section) + ": " + (is_send ? "sends to" : "receives from") + " rank " +
                     std::to_string(op.index) + " (tag " + std::to_string(op.tag) + ") but rank " +
                     std::to_string(op.index) + " has no matching " + (is_send ? "receive" : "send") + " (" +
                     std::to_string(result.unmatched) + " unmatched message ends in all)");
  }
}

// Predicting another cluster (docs/model.md): the rank's compute and I/O
// were measured at the rates it was captured with (its slowdown against the
// machine); on the cluster's node they take target / source as long. A
// profile or a node that states no rates leaves the times as measured: the
// profile is then taken as captured on this cluster, as before the rates
// were recorded (the cluster then says which ranks, normalization_warning).
Slowdown Model::normalization(int rank, const RankProfile& captured, const Node& node) {
  if (!captured.slowdown || !node.slowdown) {
    if (!captured.slowdown && node.slowdown) unnormalized_ranks_.push_back(rank);
    return Slowdown{1, 1};
  }
  const Slowdown scale{node.slowdown->cpu / captured.slowdown->cpu, node.slowdown->io / captured.slowdown->io};
  captured_here_ = captured_here_ && scale == Slowdown{1, 1};
  return scale;
}

std::string Model::normalization_warning() const {
  if (unnormalized_ranks_.empty()) return "";
  std::string ranks;
  for (std::size_t i = 0; i < unnormalized_ranks_.size() && i < 8; ++i) {
    ranks += (i > 0 ? ", " : "") + std::to_string(unnormalized_ranks_[i]);
  }
  if (unnormalized_ranks_.size() > 8) ranks += ", ...";
  return "the profile records no rates it was captured with (written before profiles recorded their "
         "\"slowdown\") for rank " + ranks +
         ", while the cluster states its nodes' rates: that compute and I/O are taken as measured, as if the "
         "profile had been captured on this cluster; capture it again to predict another cluster";
}

std::int64_t Model::max_in_core_rows(int rank) const {
  if (row_bytes_ == 0) return global_rows_;
  const auto rows = static_cast<std::int64_t>(nodes_[static_cast<std::size_t>(rank)].memory_bytes / row_bytes_);
  return std::min(rows, global_rows_);
}

double Model::compute_seconds_per_work(int rank) const { return compute_per_work_[static_cast<std::size_t>(rank)]; }

Workspace::Workspace(const Model& model)
    : costed_rows(static_cast<std::size_t>(model.ranks_), -1),
      costed_first(static_cast<std::size_t>(model.ranks_), -1),
      plans(static_cast<std::size_t>(model.ranks_)),
      scale(static_cast<std::size_t>(model.ranks_)),
      op_seconds(model.ops_.size()),
      busy(static_cast<std::size_t>(model.ranks_)),
      collective_cost(model.collective_cost_s_),
      clock(static_cast<std::size_t>(model.ranks_)),
      pc(static_cast<std::size_t>(model.ranks_)),
      at_collective(static_cast<std::size_t>(model.ranks_)),
      sent(model.ops_.size()),
      reached(model.handshakes_ > 0 ? model.ops_.size() : 0),
      reached_node(model.handshakes_ > 0 ? model.ops_.size() : 0),
      link(static_cast<std::size_t>(model.ranks_)),
      base_scale(static_cast<std::size_t>(model.ranks_)),
      sample_seconds(model.compute_variation_.size()),
      previous_clock(static_cast<std::size_t>(model.ranks_)),
      previous_link(static_cast<std::size_t>(model.ranks_)),
      window_clock(static_cast<std::size_t>(model.ranks_)),
      iteration_terms(static_cast<std::size_t>(model.ranks_)),
      window_terms(static_cast<std::size_t>(model.ranks_)),
      collective_arrived(model.collective_ops_.size()),
      collective_latest(model.collective_ops_.size()),
      clock_node(static_cast<std::size_t>(model.ranks_)),
      link_node(static_cast<std::size_t>(model.ranks_)),
      sent_node(model.ops_.size()),
      collective_node(model.collective_ops_.size()),
      clock_weight(static_cast<std::size_t>(model.ranks_)),
      link_weight(static_cast<std::size_t>(model.ranks_)),
      sent_weight(model.ops_.size()),
      collective_weight(model.collective_ops_.size()),
      collective_first(model.collective_ops_.size()),
      weight_slot(model.ops_.size(), -1),
      taped_empty(static_cast<std::size_t>(model.ranks_)),
      policy(2 * static_cast<std::size_t>(model.ranks_)),
      policy_weight(2 * static_cast<std::size_t>(model.ranks_)),
      cycle_mean(2 * static_cast<std::size_t>(model.ranks_)),
      bias(2 * static_cast<std::size_t>(model.ranks_)),
      walk_mark(2 * static_cast<std::size_t>(model.ranks_)),
      first_clock(static_cast<std::size_t>(model.ranks_)),
      first_link(static_cast<std::size_t>(model.ranks_)),
      owner_before(static_cast<std::size_t>(model.ranks_)),
      owner_after(static_cast<std::size_t>(model.ranks_)),
      sort_scratch(static_cast<std::size_t>(std::max(model.sends_, model.recvs_))),
      channel_counts(static_cast<std::size_t>(model.ranks_) + 1) {
  for (MessageRouting& routing : routings) {
    routing.empty.resize(static_cast<std::size_t>(model.ranks_));
    routing.partner.resize(model.ops_.size());
    routing.peer.resize(model.ops_.size());
    routing.transfer.resize(model.ops_.size());
  }
  // A tape node per maximum: at most one per op, and two more per
  // handshake; the states' starts before.
  const std::size_t nodes =
      2 * static_cast<std::size_t>(model.ranks_) + model.ops_.size() + 2 * static_cast<std::size_t>(model.handshakes_);
  tape.value.reserve(nodes);
  tape.larger.reserve(nodes);
  tape.end.reserve(2 * static_cast<std::size_t>(model.ranks_));
  recosted.reserve(static_cast<std::size_t>(model.ranks_));
  const std::size_t states = 2 * static_cast<std::size_t>(model.ranks_);
  depth.resize(states);
  reached_mean.resize(states);
  order.reserve(states);
  level.reserve(states);
  next_level.reserve(states);
  walk.reserve(nodes);
  best_mean.resize(nodes);
  best_depth.resize(nodes);
  best_value.resize(nodes);
  best_state.resize(nodes);
  node_seen.resize(nodes);
  user_begin.resize(nodes + 1);
  user_fill.reserve(nodes);
  users.resize(2 * nodes + states);
  send_ends.reserve(static_cast<std::size_t>(model.sends_));
  recv_ends.reserve(static_cast<std::size_t>(model.recvs_));
}

void require_finite(const Prediction& prediction) {
  auto check = [](double seconds, const std::string& what) {
    if (!std::isfinite(seconds)) {
      throw ModelError("the predicted " + what +
                       " is not a finite number: the profile or cluster holds values too large to model");
    }
  };
  for (std::size_t r = 0; r < prediction.ranks.size(); ++r) {
    const RankBreakdown& b = prediction.ranks[r];
    const std::string rank = "rank " + std::to_string(r) + " ";
    check(b.compute_s, rank + "compute time");
    check(b.io_s, rank + "I/O time");
    check(b.comm_s, rank + "communication time");
    check(b.wait_s, rank + "waiting time");
    check(b.total_s, rank + "time");
  }
  check(prediction.iteration_s, "iteration time");
  check(prediction.first_iteration_s, "first iteration's time");
  check(prediction.run_s, "run time");
}

}  // namespace mheta::model
