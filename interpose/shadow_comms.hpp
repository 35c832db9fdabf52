#pragma once
// The virtual clock's transport (docs/emulation.md, "Virtual time"): a
// private duplicate, a shadow, of every communicator the program uses,
// created where the communicator is (MPI_COMM_WORLD and MPI_COMM_SELF at
// MPI_Init, the others by the intercepted creation calls), and the 8-byte
// times carried on it:
// - a sender posts its virtual send time on the shadow, to the same
//   destination with the same tag, before the data; MPI's non-overtaking
//   order then keeps the k-th time from a source with a tag matched to the
//   k-th message from it with that tag, and the receiver takes it from the
//   status's source and tag once the data has arrived (probes take nothing);
// - collectives carry their entry times in an allreduce(MAX) on the shadow,
//   posted where the collective is; neighbourhood collectives carry, to
//   each destination, the time its block arrives, in a neighbourhood
//   alltoall on the shadow (a duplicate keeps the communicator's topology).
// - a synchronous send's time says so; the receiver answers with the
//   virtual time its receive was posted, on a second duplicate (the
//   shadow's `acks`, so that answers never match times), and the send
//   completes no earlier than that answer's arrival (a rendezvous).
// Times are sent non-blocking (a few bytes go eagerly), so no rank ever
// waits on a time that is not already on its way.
#include <mpi.h>

#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <vector>

#include "interpose/emulated_network.hpp"
#include "interpose/neighbourhood.hpp"

namespace mheta::interpose {

// The latest entry time of a collective, exchanged without blocking.
struct EntryExchange {
  MPI_Request request = MPI_REQUEST_NULL;
  double mine = 0;
  double latest = 0;
};

// When the blocks of a neighbourhood collective arrive, exchanged without
// blocking. The vectors keep their size (MPI reads and writes them) until
// the request completes.
struct NeighbourExchange {
  MPI_Request request = MPI_REQUEST_NULL;
  std::vector<double> sent;      // when this rank's block reaches each destination
  std::vector<double> received;  // when each source's block reaches this rank (-inf: MPI_PROC_NULL)
  double sends_out = 0;          // when this rank's last block has left
};

// What travels ahead of a message: its sender's virtual send time, and
// whether the send is synchronous (an answer is awaited).
struct SendTime {
  double sent = 0;
  double synchronous = 0;  // 1: answer with the receive's post time
};

// The shadows of a communicator being duplicated without blocking
// (MPI_Comm_idup): duplicated alongside, adopted where the program's request
// completes.
struct PendingShadows {
  MPI_Comm comm = MPI_COMM_NULL;
  MPI_Comm acks = MPI_COMM_NULL;
  MPI_Request requests[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
  std::vector<int> world_ranks;
  std::vector<int> peer_world_ranks;
};

class ShadowComms {
 public:
  // MPI_Init has returned: shadows of MPI_COMM_WORLD and MPI_COMM_SELF.
  void start(bool sleep_wait);
  // Sends still in flight complete; shadows are freed. Before MPI_Finalize.
  void finish();

  // A communicator the program has just created: its shadow is created now
  // (a duplicate: collective over it, as its creation was), unless it
  // reaches processes of another MPI_COMM_WORLD (its messages then carry no
  // times).
  void add(MPI_Comm comm);
  // Before MPI_Comm_free(comm).
  void remove(MPI_Comm comm);
  // MPI_Comm_idup(comm, ...) has been posted on every member: the shadows of
  // the new communicator are duplicated from those of `comm`, without
  // blocking (nothing for a communicator without a shadow).
  std::unique_ptr<PendingShadows> post_duplicate(MPI_Comm comm);
  // The program's duplicate `comm` is complete: its shadows are taken (they
  // complete without waiting on anything more of the program: every member
  // posted them in the call that posted its own duplicate).
  void adopt(MPI_Comm comm, PendingShadows& pending);

  // The shadow of `comm`, MPI_COMM_NULL when the program's communicator was
  // not created through an intercepted call (its messages carry no times).
  MPI_Comm shadow(MPI_Comm comm) const;
  // The ranks of MPI_COMM_WORLD that `comm` holds (its local group), known
  // for communicators with a shadow.
  const std::vector<int>* members(MPI_Comm comm) const;
  // The ranks of MPI_COMM_WORLD that point-to-point peers on `comm` are: its
  // remote group for an intercommunicator, else its members.
  const std::vector<int>* peers(MPI_Comm comm) const;

  // Sender: posts `sent` for the message to `dest` with `tag` on `comm`,
  // before the message itself.
  void post_send_time(MPI_Comm comm, int dest, int tag, SendTime sent);
  // Receiver: the send time of the message that has just arrived from
  // `source` with `tag` on `comm`; nothing when none comes (a message sent
  // by a call the interposer does not see) within a bound, said once.
  std::optional<SendTime> take_send_time(MPI_Comm comm, int source, int tag);
  // Receiver of a synchronous send: answers with the virtual time its
  // receive was posted.
  void post_answer(MPI_Comm comm, int source, int tag, double receive_posted);
  // Synchronous sender: the answer of `dest` to the message sent with `tag`
  // (nothing within a bound: the receive was completed by a call the
  // interposer does not follow, said once).
  std::optional<double> take_answer(MPI_Comm comm, int dest, int tag);

  // Collectives: posts this rank's entry time on the shadow of `comm`.
  // Every member posts it at the same point of the program. Returns nothing
  // for a communicator without a shadow.
  std::unique_ptr<EntryExchange> post_entry(MPI_Comm comm, double entry);
  // The latest entry of every participant (waits, sleeping when waiting
  // sleeps).
  double latest_entry(EntryExchange& exchange);

  // Neighbourhood collectives. The neighbours of `comm` (nothing without a
  // shadow or a topology), worked out when its shadow was made.
  const Neighbourhood* neighbourhood(MPI_Comm comm) const;
  // Posts `arrivals` (one a destination of `comm`) on its shadow; every
  // member posts them at the same point of the program.
  std::unique_ptr<NeighbourExchange> post_arrivals(MPI_Comm comm, std::vector<double> arrivals, double sends_out);
  // The latest arrival of a block at this rank, or its own last block's
  // departure if later (waits, sleeping when waiting sleeps).
  double latest_arrival(NeighbourExchange& exchange);

 private:
  struct Shadow {
    MPI_Comm comm = MPI_COMM_NULL;
    MPI_Comm acks = MPI_COMM_NULL;  // answers to synchronous sends
    std::vector<int> world_ranks;
    std::vector<int> peer_world_ranks;
    std::optional<Neighbourhood> neighbourhood;  // a communicator with a topology
  };
  struct InFlight {
    double value[2] = {0, 0};
    MPI_Request request = MPI_REQUEST_NULL;
  };
  void post(MPI_Comm shadow, int dest, int tag, const double (&value)[2]);
  // Whether a time from `source` with `tag` is there on `shadow`, within a
  // bound; says once when not.
  bool arrives(MPI_Comm shadow, int source, int tag, const char* what);
  void complete_finished_sends();
  int wait(MPI_Request* request);

  mutable std::mutex mutex_;
  std::unordered_map<MPI_Comm, Shadow> shadows_;
  std::deque<InFlight> in_flight_;  // deque: elements never move, MPI reads their value
  bool sleep_wait_ = false;
  bool warned_missing_ = false;
};

}  // namespace mheta::interpose
