#pragma once
// The virtual clock's arithmetic (docs/emulation.md, "Virtual time"): how a
// rank's virtual time advances with compute, I/O, messages and collectives
// on the emulated network. No MPI here: the transport of send and entry
// times is shadow_comms.hpp's, the wiring the category handlers'
// (handlers.hpp).
#include <cstdint>

#include "interpose/emulated_network.hpp"
#include "model/collective.hpp"

namespace mheta::interpose {

// When a message sent at virtual time `sent` over `link` has fully arrived:
// the link's latency, then its bytes at the link's bandwidth (Hockney).
double message_arrival(double sent, const Link& link, std::int64_t bytes);

// The time a sender's link is busy putting `bytes` on the wire: a blocking
// send, or the wait of a non-blocking one, completes no earlier than this
// after the send was posted.
double injection_time(const Link& link, std::int64_t bytes);

// A collective's duration on the emulated network once its last participant
// has entered, for `ranks` participants and `bytes` per rank (per peer for
// alltoall), with the standard algorithms of MPICH in the Hockney model
// (alpha = latency, beta = 1 / bandwidth, k = ceil(log2 P)):
//   barrier                          k alpha                (dissemination)
//   bcast, reduce, allreduce, scan   k (alpha + n beta)     (binomial tree, recursive doubling)
//   gather, scatter, allgather,
//   reduce_scatter                   k alpha + (P-1) n beta (binomial / Bruck / recursive halving)
//   alltoall                         (P-1)(alpha + n beta)  (pairwise exchange)
// One participant costs nothing.
double collective_cost(model::Collective op, int ranks, double bytes, const Link& link);

// The slowest of a set of links (the largest latency, the smallest
// bandwidth): a collective runs at the pace of its slowest pair.
Link slowest(const Link& a, const Link& b);

// One rank's virtual time, in seconds since MPI_Init returned (every rank
// starts at 0 there: MPI_Init is collective). It only moves forward.
class VirtualClock {
 public:
  // Its resolution (MPI_Wtick): that of the CPU and monotonic clocks it is
  // advanced from.
  static constexpr double kTick = 1e-9;

  double now() const { return now_; }

  // Compute between two MPI calls: the thread's CPU time times the CPU
  // factor. CPU time does not grow when ranks share cores, so no dilation.
  double advance_compute(double cpu_s, double cpu_factor);
  // A blocking MPI-IO call that lasted `wall_s`, of which `queued_s` waiting
  // on a run queue for a core (not the disk's time): the rest times the I/O
  // factor. Returns the advance.
  double advance_io(double wall_s, double queued_s, double io_factor);
  // Waits: the clock moves to `t` if that is later (a message's arrival, a
  // collective's end, an emulated disk's completion).
  void wait_until(double t);
  void advance(double seconds);

 private:
  double now_ = 0;
};

}  // namespace mheta::interpose
