#pragma once
// One rank's captured iteration as it happens: sections of stages, each
// section ended by the communication that follows it in program order
// (MHETA §3.1). Fed by the category handlers; knows nothing of MPI.
#include <cstdint>
#include <unordered_set>
#include <vector>

#include "interpose/message_channels.hpp"
#include "model/profile.hpp"

namespace mheta::interpose {

class Timeline {
 public:
  Timeline();

  // Compute between two MPI calls, or up to a mark.
  void add_compute(double seconds);
  // One read or write request of a variable (local index); returns the
  // position of its StageIo so a prefetch's T_A can be added when it completes.
  struct IoRef {
    std::size_t section = 0;
    std::size_t stage = 0;
    std::size_t io = 0;
  };
  IoRef add_io(int variable, bool write, std::int64_t bytes, double seconds, bool prefetch);
  void add_overlap(IoRef ref, double seconds);
  // More time for a request already recorded: a non-blocking write's
  // emulated completion, a sync of the variable's writes. The count and bytes
  // stay.
  void add_io_seconds(IoRef ref, bool write, double seconds);
  // A message sent or received, a collective; returns where it is, so a
  // non-blocking send's or collective's completion can be recorded with it. `number`: the
  // message's in its channel since MPI_Init (message_channels.hpp), the
  // first of each channel kept as where the period begins in it; < 0:
  // unknown.
  struct CommRef {
    std::uint64_t timeline = 0;  // the timeline it is in (0: none)
    std::size_t section = 0;
    std::size_t comm = 0;
  };
  CommRef add_comm(const model::CommOp& op, std::int64_t number = -1);
  // The place a completion call is at: before the next operation of the
  // last section's comm (section -1: nothing recorded yet).
  struct Place {
    int section = -1;
    int comm = 0;
  };
  Place here() const;
  // A non-blocking send or collective of this timeline was completed at
  // `at` (a wait or test): recorded with it, and the work after it begins
  // a new section, so the compute before the completion is told from the
  // compute after. `synchronous`: a send's completion also waited for the
  // receiver to reach its receive (model::CommOp::synchronous).
  void complete(CommRef op, Place at, bool synchronous = false);
  // A receive from MPI_PROC_NULL completed: no message, but the work after
  // it begins a new section, as after any receive, since a program that
  // receives from nobody at the edge of its ranks computes as if it had
  // received (a wavefront's first rank: each block's receive, its few
  // microseconds of relaxation, its send; all its compute ahead of all its
  // sends would replay as a pipeline that starts a whole sweep late).
  void receive_from_nobody();
  // Stage marks (mheta_stage_begin/end) close the current stage.
  void mark_stage();

  // Compute recorded so far.
  double total_compute() const { return total_compute_; }
  // A prefetch's T_A (§4.1.1) is the compute between its issue and its wait,
  // up to the rank's first blocking MPI-IO request after the issue if one
  // comes sooner: the disk serves a rank's requests one at a time, in order
  // (docs/model.md, "A prefetch holds up the requests behind it"), so that
  // request waits for the prefetch to finish and the compute after it
  // overlaps nothing. Where a prefetch's T_A begins:
  struct OverlapStart {
    double compute = 0;
    std::size_t blocking_requests = 0;
  };
  OverlapStart overlap_start() const { return {total_compute_, blocking_io_compute_.size()}; }
  // A blocking MPI-IO request of the rank (a read, a write, a sync).
  void blocking_io() { blocking_io_compute_.push_back(total_compute_); }
  // T_A of a prefetch issued at `start` whose wait is now.
  double overlap_since(OverlapStart start) const;
  const std::vector<model::Section>& sections() const { return sections_; }
  bool empty() const { return sections_.empty(); }
  // Where the period begins in each channel it has messages of (those
  // recorded with their number), in the order first seen.
  const std::vector<ChannelStart>& channel_starts() const { return channel_starts_; }

  // Several captured periods of one loop as one: the first's sections,
  // stages and messages (and where it began in each channel), and for each stage the median, over the periods
  // of the same shape (the same sections, stages, messages and variables),
  // of its compute and of its I/O seconds. One period's compute is one
  // sample of a time that moves from iteration to iteration (a rank's CPU
  // time varies by tens of per cent with what shares its caches); the
  // slowest of several ranks' single samples is well above their typical
  // iteration, the median of a few periods is not.
  static Timeline median_of(const std::vector<Timeline>& periods);

  // Gaps shorter than this after non-blocking sends stay in the section
  // before them instead of opening a section of their own, so an
  // Isend/Irecv/Waitall group is one communication point, not three; but
  // never after a completed receive or collective, whose data the compute
  // after it may need (a wavefront that receives a block, relaxes it for a
  // few microseconds and sends it on is one section per block, not all its
  // compute ahead of all its messages, which replays as a pipeline that
  // never overlaps), nor after a blocking send, whose bytes the compute
  // after it would delay (a ping-pong's reply computed before it is sent).
  static constexpr double kMinSectionCompute = 20e-6;

 private:
  model::Stage& stage_for_work();
  model::Section& open_section();

  std::uint64_t id_;
  std::vector<model::Section> sections_;
  std::vector<ChannelStart> channel_starts_;
  std::unordered_set<Channel, ChannelHash> channels_seen_;  // those of channel_starts_
  double total_compute_ = 0;
  std::vector<double> blocking_io_compute_;  // total_compute_ at each blocking MPI-IO request
  bool stage_closed_ = false;
  // A send's completion, or a receive from nobody, in the last section:
  // the next work opens another.
  bool completion_closes_section_ = false;
};

}  // namespace mheta::interpose
