#pragma once
// The MHETA execution model (MHETA §4.2), compiled once from a profile and a
// cluster into flat arrays, then evaluated for any GEN_BLOCK distribution by
// replaying every rank's sections against the others (a LogGOPSim-style
// replay: arithmetic over flat arrays, no allocation once a Workspace is warm).
#include <array>
#include <cstdint>
#include <limits>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "model/cluster.hpp"
#include "model/collective_prices.hpp"
#include "model/icla_policy.hpp"
#include "model/message_matching.hpp"
#include "model/profile.hpp"
#include "model/replay_tape.hpp"

namespace mheta::model {

// The profile and cluster cannot be modelled together (rank counts differ,
// messages do not match, a collective has no cost curve, ...).
class ModelError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct RankBreakdown {
  std::int64_t rows = 0;
  double compute_s = 0;  // sum of T_Phi', scaled to the rank's new work
  double io_s = 0;       // sum of T_psi (Eq 1 / Eq 2), and reads of messages from out-of-core arrays
  double comm_s = 0;     // send and receive overheads and collective costs
  double wait_s = 0;     // blocked on messages (Eq 3 / Eq 4) and collectives
  double total_s = 0;    // when the rank finishes the iteration
  int out_of_core_variables = 0;
  std::int64_t chunks = 0;      // N_L of its out-of-core variables (the largest)
  std::int64_t icla_bytes = 0;  // memory its ICLAs take, all variables
};

// One interval of the replayed iteration on one rank (Model::timeline).
struct ReplayEvent {
  // link_wait: a wait or test holding the rank until its link has put out
  // the non-blocking sends it completes.
  enum class Kind { compute, io, send, wait, recv, collective_wait, collective, link_wait };
  Kind kind = Kind::compute;
  int rank = 0;
  int section = 0;  // in the rank's profile
  double start_s = 0;
  double end_s = 0;
  int peer = -1;            // send, wait, recv: the other rank
  std::int64_t bytes = 0;   // send, recv
  int message = -1;         // send, wait, recv: the message's number, shared by its two ends
  int collective = -1;      // collective_wait, collective: the sequence number
};

struct Prediction {
  // One iteration as the program repeats it: the period of the replay
  // carried on from iteration to iteration (docs/model.md, "Iterations
  // that overlap"), or, in a pipeline, the pace of its busiest stage
  // ("Pipelines: the steady state").
  double iteration_s = 0;
  // One iteration replayed from a common start (§4.2.2), the slowest
  // rank's time: the first iteration. iteration_s when a collective ends
  // every rank's iteration; more where iterations overlap (a pipeline's
  // fill, latencies the next iteration hides).
  double first_iteration_s = 0;
  // The typical iteration: with the compute's variation (docs/model.md,
  // "Compute that varies from iteration to iteration"), the largest over
  // the ranks of each one's median time per iteration, where iteration_s
  // is the run's mean; without it, iteration_s.
  double typical_iteration_s = 0;
  std::int64_t iterations = 0;
  double run_s = 0;  // run_seconds(*this, iterations) (the instrumented iteration is not counted apart)
  // The bottleneck: of the ranks finishing last, the one on the critical
  // path (the one that waited least; the others waited for it).
  int slowest_rank = 0;
  std::vector<RankBreakdown> ranks;
  std::vector<ReplayEvent> timeline;  // only from Model::timeline
};

// The run of `iterations` iterations: the first, then the rest at the pace
// the program repeats them.
double run_seconds(const Prediction& prediction, std::int64_t iterations);

// Refuses (ModelError, naming the rank and the quantity) a prediction with a
// time that is not finite: an absurd input must give an error, never "inf"
// or "nan" in an output.
void require_finite(const Prediction& prediction);

class Workspace;

// Message matching when some ranks own no rows: neighbours skip them.
struct MessageRouting {
  bool built = false;
  std::uint64_t key = 0;         // a hash of `empty`, to find the routing fast
  std::uint64_t used = 0;        // when it was last used (least recently used is rebuilt)
  std::vector<char> empty;       // which ranks own no rows
  std::vector<int> partner;      // per op: the send a recv matches, -1 none
  std::vector<int> peer;         // per op: effective peer after rerouting, -1 to drop
  std::vector<double> transfer;  // per op: a rerouted send's time to its peer after the gap it paid
};

class Model {
 public:
  Model(const Profile& profile, const Cluster& cluster);

  int ranks() const { return ranks_; }
  std::int64_t global_rows() const { return global_rows_; }
  std::int64_t iterations() const { return iterations_; }
  const std::vector<std::int64_t>& instrumented_rows() const { return captured_rows_; }

  // Predicted seconds of one iteration with `rows[i]` rows on rank i.
  // `rows` must have ranks() entries adding up to global_rows().
  double iteration_seconds(std::span<const std::int64_t> rows, Workspace& workspace) const {
    return iteration_seconds_below(rows, workspace, kNoLimit);
  }
  // The same when it is below `limit`; otherwise some value at least
  // `limit` (a search that keeps only what beats its best needs no more,
  // and the period's computation may stop at the first cycle that reaches
  // it: docs/model.md, "The period", "Testing moves against a time").
  double iteration_seconds_below(std::span<const std::int64_t> rows, Workspace& workspace, double limit) const;
  static constexpr double kNoLimit = std::numeric_limits<double>::infinity();

  // The same evaluation, with every rank's breakdown of the iteration as
  // the program repeats it (its total: its time per iteration; in a
  // pipeline: its steady state, each rank waiting for the busiest of the
  // ranks it hears from).
  Prediction predict(std::span<const std::int64_t> rows) const;
  Prediction predict(std::span<const std::int64_t> rows, Workspace& workspace) const;

  // One iteration replayed from a common start (§4.2.2), every rank's
  // breakdown as Eq 3 / Eq 4 give it: the first iteration (predict()'s
  // when a collective ends every iteration), its iteration_s the pace
  // that follows it.
  Prediction first_iteration(std::span<const std::int64_t> rows) const;

  // first_iteration with every rank's replayed intervals, in the order they
  // were replayed (for `mheta trace`).
  Prediction timeline(std::span<const std::int64_t> rows) const;

  // Whether the program is a pipeline whose iterations overlap: every
  // message goes to a higher rank and there is no collective.
  bool pipelined() const { return forward_only_; }

  // Rank-local time (compute, I/O, message overheads; no waiting) of `rank`
  // owning `rows` rows starting at global row `first_row`. Non-decreasing in
  // `rows`: the per-rank model generalized binary search works with.
  double rank_busy_seconds(int rank, std::int64_t first_row, std::int64_t rows) const;

  // The most rows `rank` can own with every distributed variable in core.
  std::int64_t max_in_core_rows(int rank) const;

  // Empty when every rank's compute and I/O were normalized from the rates
  // it was captured with to its node's, or when the cluster states no rates
  // (the profile is then taken as captured on it); else a warning naming
  // the ranks whose profile predates recorded rates (docs/model.md,
  // "Predicting another cluster").
  std::string normalization_warning() const;

  // Each collective of the iteration: the cluster's price, what it cost the
  // program when captured, and which of the two the model prices it at
  // (docs/model.md, "Collectives as the program paid for them").
  const std::vector<CollectivePrice>& collective_prices() const { return collective_prices_; }

  // Instrumented compute time per unit of work (row, or row weight),
  // normalized to the cluster's node.
  double compute_seconds_per_work(int rank) const;

  // The work (rows, or the sum of row weights) of global rows [first, first+rows).
  double work_of_rows(std::int64_t first_row, std::int64_t rows) const;

  // Predicted seconds to move every distributed variable from distribution
  // `from` to `to` (model/redistribution_cost.cpp): the slowest rank's disk
  // reads of its old block, messages of the rows that change owner, disk
  // writes of its new block and the read-back verifying it, plus a fixed
  // cost of syncing and committing. The whole price io/'s runtime weighs.
  double redistribution_seconds(std::span<const std::int64_t> from, std::span<const std::int64_t> to) const;

 private:
  friend class Workspace;
  // completion: the wait or test that completed non-blocking sends;
  // handshake: there, the wait of a synchronous one for its receiver to
  // have reached the receive (CommOp::synchronous); collective_wait: there,
  // the wait for a non-blocking collective's result.
  enum class OpKind : std::uint8_t { block, send, recv, collective, completion, handshake, collective_wait };

  struct Op {
    OpKind kind;
    // send: non-blocking, its gap runs on the rank's link beside what
    // follows, until its completion (docs/model.md). collective: posted
    // (MPI_Iallreduce, a persistent one's MPI_Start): the rank goes on,
    // and its collective_wait holds it until the result is there.
    bool nonblocking;
    // send: synchronous (a handshake follows its completion). Beside the
    // other flag, in what would be padding: a larger op slows the replay.
    bool synchronous;
    // block: into blocks_; send/recv: peer rank; collective and
    // collective_wait: sequence number; completion: the op of the latest
    // send it completes; handshake: the op of its send.
    int index;
    int section;  // in the rank's profile, for error messages
    int tag;
    int from_variable;  // send: out-of-core source variable, or -1
    std::int64_t bytes;
    // send: the time its bytes take to leave on the link to its peer (bytes
    // x the link's s/byte), which the sender spends in a blocking send
    // (LogGP's gap, the size-dependent part of the paper's O->(q)).
    // completion: the gaps of the sends the rank posted after the one it
    // completes and before it (own_time).
    double gap_s = 0;
  };
  struct Block {
    double compute_s;
    int io_begin;
    int io_end;
    // I/O on the program's own files (docs/model.md, "I/O the program does
    // itself"): paid whatever the memory, the same at any rows ...
    double program_io_s = 0;
    // ... plus this much per row the rank owns (files it streamed its block
    // of rows through).
    double program_io_per_row_s = 0;
  };
  struct IoTerm {
    int variable;
    double read_sweeps;  // bytes read in this stage / bytes of the variable owned
    double write_sweeps;
    bool prefetch;
  };
  struct RankVariable {
    double read_overhead_s;  // O_r as this rank's requests of m cost (calibrate_io)
    double read_s_per_byte;
    double write_overhead_s;
    double write_s_per_byte;
    double overlap_s_per_byte;  // T_A per byte of ICLA
  };

  void compile_rank(int rank, const Profile& profile);
  void compile_compute_variation(const Profile& profile);
  void add_program_io(Block& block, int rank, const StageIo& io, bool per_row) const;
  Slowdown normalization(int rank, const RankProfile& captured, const Node& node);
  void compile_collectives();
  void price_collectives_by_capture(const Profile& profile);
  void compile_messages();
  // segments_s_ of op `i` (0 past the last send's).
  double segment_seconds(int i) const {
    const auto at = static_cast<std::size_t>(i);
    return at < segments_s_.size() ? segments_s_[at] : 0.0;
  }
  void compile_gathered_rows();
  void cost_collectives(std::span<const std::int64_t> rows, Workspace& ws) const;
  void reroute(std::span<const std::int64_t> rows, Workspace& ws, MessageRouting& routing) const;
  const MessageRouting& routing_for(std::span<const std::int64_t> rows, Workspace& ws) const;
  IclaPlan plan_rank(int rank, std::int64_t rows) const;
  double work_scale(int rank, std::int64_t first_row, std::int64_t rows) const;
  // T_Phi'/T_Phi: work_scale, times the rank's in-core compute ratio when
  // `plan` keeps it in core (docs/model.md, "Compute in core").
  double compute_scale(int rank, std::int64_t first_row, std::int64_t rows, const IclaPlan& plan) const;
  double block_io_seconds(int rank, const Block& block, std::int64_t rows, const IclaPlan& plan) const;
  double message_read_seconds(int rank, const Op& op, const IclaPlan& plan) const;
  double own_seconds(int rank, const Op& op, std::int64_t rows, double scale, const IclaPlan& plan) const;
  template <class Seconds>
  double own_time(int rank, const Seconds& seconds, const int* peer = nullptr, const int* partner = nullptr) const;
  void compile_completions();
  void cost_rank(int rank, std::int64_t first_row, std::int64_t rows, Workspace& ws) const;
  bool update_costs(std::span<const std::int64_t> rows, Workspace& ws) const;
  double pipeline_pace(std::span<const std::int64_t> rows, Workspace& ws, bool any_empty) const;
  void steady_state(std::span<const std::int64_t> rows, Workspace& ws, bool any_empty, Prediction& detail) const;
  // Where each message goes for the rows evaluated: per op, the send a
  // receive matches, the peer after rerouting (null: the profile's), and a
  // send's time to its peer after its gap.
  struct Routes {
    const int* partner;
    const int* peer;
    const double* transfer;
  };
  Routes routes_for(std::span<const std::int64_t> rows, Workspace& ws, bool any_empty) const;
  void replay_iteration(std::span<const std::int64_t> rows, Workspace& ws, const Routes& routes,
                        RankBreakdown* out_ranks, std::vector<ReplayEvent>* events, ReplayTape* tape = nullptr) const;
  template <bool kTaped>
  void replay_ops(std::span<const std::int64_t> rows, Workspace& ws, const Routes& routes, RankBreakdown* out_ranks,
                  std::vector<ReplayEvent>* events, ReplayTape* tape) const;
  void reweight_rank(int r, std::span<const std::int64_t> rows, Workspace& ws, const Routes& routes) const;
  bool tape_fits(std::span<const std::int64_t> rows, const Workspace& ws) const;
  void first_iteration_on_tape(std::span<const std::int64_t> rows, Workspace& ws, const Routes& routes) const;
  void clock_from_tape(Workspace& ws) const;
  double cycle_time(Workspace& ws, double limit) const;
  void determine_values(Workspace& ws, int states) const;
  void spread_cycle_times(Workspace& ws, double tie) const;
  void index_users(Workspace& ws) const;
  double period(std::span<const std::int64_t> rows, Workspace& ws, bool taped, double limit = kNoLimit) const;
  void next_iteration_from_tape(Workspace& ws) const;
  bool steady_iteration(std::span<const std::int64_t> rows, Workspace& ws, const Routes& routes,
                        Prediction& detail) const;
  double common_shift(std::span<const std::int64_t> rows, const Workspace& ws) const;
  double repeated_iterations(std::span<const std::int64_t> rows, Workspace& ws, const Routes& routes,
                             Prediction* detail) const;
  void varying_iterations(std::span<const std::int64_t> rows, Workspace& ws, const Routes& routes,
                          Prediction& detail) const;
  void scale_compute(std::span<const std::int64_t> rows, Workspace& ws, std::span<const double> base,
                     const double* factors) const;
  enum class View { repeated, first, first_timeline };
  double evaluate(std::span<const std::int64_t> rows, Workspace& ws, Prediction* detail, View view = View::repeated,
                  double limit = kNoLimit) const;
  Prediction replay_view(std::span<const std::int64_t> rows, Workspace& ws, View view) const;

  int ranks_ = 0;
  int variables_ = 0;
  std::int64_t global_rows_ = 0;
  std::int64_t iterations_ = 1;
  IclaOptions icla_options_;
  Network network_;
  std::vector<Node> nodes_;
  std::vector<std::int64_t> variable_bytes_per_row_;
  std::vector<char> program_file_;  // per variable: a program's own file, not an out-of-core array
  std::uint64_t row_bytes_ = 0;  // one row of every out-of-core array (what memory must hold)
  std::vector<double> row_weight_prefix_;  // empty: every row weighs 1
  std::vector<std::int64_t> captured_rows_;
  std::vector<double> captured_work_;
  std::vector<double> compute_per_work_;
  std::vector<double> in_core_compute_ratio_;  // per rank (in_core_compute.hpp)
  // The profile's compute_variation, sample by sample: [sample * ranks_ +
  // rank] (compute_variation.hpp); empty when it has none.
  std::vector<double> compute_variation_;
  std::vector<int> unnormalized_ranks_;  // captured without rates, predicted on a node with them
  std::vector<RankVariable> rank_variables_;  // ranks_ x variables_
  std::vector<Op> ops_;
  std::vector<int> op_begin_;  // ranks_ + 1
  int ranks_without_ops_ = 0;  // idle in the iteration (a ping-pong's onlookers): finished from the start
  std::vector<int> op_rank_;   // per op: the rank whose op it is
  std::vector<Block> blocks_;
  std::vector<IoTerm> io_terms_;
  std::vector<Collective> collective_ops_;  // per sequence number
  // Per sequence number, at the instrumented bytes: the cluster's price, or
  // what it cost the program (price_collectives_by_capture).
  std::vector<double> collective_cost_s_;
  std::vector<CollectivePrice> collective_prices_;  // per sequence number
  bool captured_here_ = true;  // every rank's rates are its node's: the profile is taken as captured on this cluster
  // Per sequence number: bytes per row a rank gives a gather of its rows'
  // data (0: its bytes do not follow the rows); then priced per
  // distribution (cost_collectives).
  std::vector<double> collective_bytes_per_row_;
  bool gathers_rows_ = false;  // some collective follows the rows
  std::vector<int> base_partner_;           // per op: matching send of a recv, or -1
  std::vector<double> base_transfer_s_;     // per op: a send's latency to its peer, after its gap
  // Per op: what a send's blocks cost beyond its bytes (segments x the
  // cluster's segment_s, in its gap); 0 for a contiguous one.
  std::vector<double> segments_s_;
  int sends_ = 0;
  // Every message goes from a lower rank to a higher one and there is no
  // collective (a pipeline): nothing holds a rank back from its next
  // iteration but the ranks below it, so iterations overlap and the
  // iteration time is the busiest rank's own time (pipeline_pace).
  bool forward_only_ = false;
  // The handshakes of synchronous sends: a receiver's arrival at the
  // receive holds the sender (a dependency against the messages'
  // direction). Each takes two maxima of the tape beside its receive's
  // one more.
  int handshakes_ = 0;
  // Every rank that does anything ends its iteration in a collective: the
  // first iteration from a common start is the period (a common shift
  // after one), with no need of the iteration's max-plus form.
  bool ends_in_collective_ = false;
  int recvs_ = 0;
};

// Scratch state for evaluations, sized once for a model. Not thread-safe:
// one per thread. It remembers each rank's own costs from the evaluation
// before, so a distribution that differs in a few ranks (a search moving
// rows) recomputes only theirs before the replay.
class Workspace {
 public:
  explicit Workspace(const Model& model);

 private:
  friend class Model;
  // Per rank: the rows and first row its costs below were computed for
  // (-1: none yet), its ICLA plan (the same for all its variables) and its
  // compute scale.
  std::vector<std::int64_t> costed_rows;
  std::vector<std::int64_t> costed_first;
  std::vector<IclaPlan> plans;
  std::vector<double> scale;
  std::vector<double> op_seconds;  // per op: the rank's own time (block: T_tau; send: O-> and disk)
  std::vector<double> busy;        // per rank, in a pipeline: its own time of the iteration (own_time)
  std::vector<int> recosted;       // the ranks whose costs the last update_costs recomputed
  std::vector<double> collective_cost;  // per collective sequence number, for the rows evaluated
  // The replay.
  std::vector<double> clock;
  std::vector<int> pc;
  std::vector<char> at_collective;
  // Per op (sends): when its bytes have left; the message reaches its peer
  // after the transfer time of the routing in use, so a send whose peer
  // changes (another rank emptied) keeps its time.
  std::vector<double> sent;
  // Per op (synchronous sends, with handshakes_): when the receiver reached
  // the receive of it, kNotReached before (not a negative time: the steady
  // iteration starts the ranks' clocks at their biases, which may be
  // below 0); on the tape, the node of that time.
  static constexpr double kNotReached = -std::numeric_limits<double>::infinity();
  std::vector<double> reached;
  std::vector<int> reached_node;
  // Per rank: when its link has put out every message it posted so far
  // (one at a time, in post order).
  std::vector<double> link;
  // Per rank, the compute scale of the rows evaluated, while
  // varying_iterations scales it iteration by iteration, and there each
  // rank's time in each sample ([sample * ranks + rank]).
  std::vector<double> base_scale;
  std::vector<double> sample_seconds;
  // Per rank, the iterations after the first (repeated_iterations): clock
  // and link where the iteration before began, the clock where the window
  // of the mean began, and the terms of one iteration and of the window.
  std::vector<double> previous_clock;
  std::vector<double> previous_link;
  std::vector<double> window_clock;
  std::vector<RankBreakdown> iteration_terms;
  std::vector<RankBreakdown> window_terms;
  std::vector<int> collective_arrived;
  std::vector<double> collective_latest;
  // The max-plus form of the first iteration (replay_tape.hpp), and the
  // node of the tape each time of the replay is: per rank its clock and
  // link, per op a send's time, per sequence number a collective's latest
  // arrival.
  ReplayTape tape;
  std::vector<int> clock_node;
  std::vector<int> link_node;
  std::vector<int> sent_node;
  std::vector<int> collective_node;
  // ... and the costs added since that node (per rank, per send, per
  // collective), and per op the side of the maximum its rank's clock
  // weight went to (-1: none), for re-weighting the tape
  // (Model::reweight_rank); per collective the op of the first to arrive.
  std::vector<double> clock_weight;
  std::vector<double> link_weight;
  std::vector<double> sent_weight;
  std::vector<double> collective_weight;
  std::vector<int> collective_first;
  std::vector<int> weight_slot;
  std::vector<char> taped_empty;  // per rank: owned no rows when the tape was recorded
  bool tape_fits = false;         // the tape holds a whole recorded iteration
  // The period from the tape (cycle_time.cpp), per state: the state its
  // time comes from and the weight of that edge (the policy), its cycle
  // time and bias, and the best of the sources the tape's evaluation found.
  std::vector<int> policy;
  std::vector<double> policy_weight;
  std::vector<double> cycle_mean;
  std::vector<double> bias;
  std::vector<int> walk_mark;
  std::vector<int> walk;
  bool biased = false;  // cycle_time found the period: ws.bias holds its biases
  std::vector<double> first_clock;  // per rank, where the first iteration left it
  std::vector<double> first_link;
  std::vector<int> depth;
  std::vector<double> reached_mean;
  std::vector<int> order;
  std::vector<int> level;
  std::vector<int> next_level;
  std::vector<double> best_mean;  // per node of the tape
  std::vector<int> best_depth;
  std::vector<double> best_value;
  std::vector<int> best_state;
  std::vector<char> node_seen;
  std::vector<int> user_begin;  // per node + 1: where its users start in `users`
  std::vector<int> user_fill;
  std::vector<int> users;
  // Message matching when some ranks own no rows, for the sets of empty
  // ranks used last: a search's round tries moves that empty a donor, fill
  // an empty rank, both, or drop a rank, and goes back and forth between
  // them.
  std::array<MessageRouting, 8> routings;
  std::uint64_t routing_uses = 0;
  std::vector<int> owner_before;     // per rank: the nearest rank below that owns rows, or -1
  std::vector<int> owner_after;      // ... above
  std::vector<MessageEnd> send_ends;
  std::vector<MessageEnd> recv_ends;
  std::vector<MessageEnd> sort_scratch;
  std::vector<int> channel_counts;
};

}  // namespace mheta::model
