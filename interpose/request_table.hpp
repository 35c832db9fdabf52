#pragma once
// The requests the interposer follows from their post to their completion.
#include <mpi.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

#include "interpose/neighbour_messages.hpp"
#include "interpose/shadow_comms.hpp"
#include "interpose/timeline.hpp"
#include "model/collective.hpp"

namespace mheta::interpose {

// A request the interposer follows until it completes.
struct PendingRequest {
  enum class Kind : std::uint8_t { recv, send, file, prefetch, collective, comm_create, sendrecv, neighbour };
  Kind kind = Kind::recv;
  bool persistent = false;
  bool active = true;  // persistent requests: started and not yet completed
  MPI_Comm comm = MPI_COMM_NULL;
  int peer = MPI_ANY_SOURCE;  // rank in comm
  int tag = 0;
  std::int64_t bytes = 0;
  double issued_at = 0;  // file: emulated completion is issued_at + io_factor * duration
  double issue_seconds = 0;
  Timeline::OverlapStart overlap_from{};  // prefetch: where its T_A begins
  Timeline::IoRef io;                     // prefetch; file: when `recorded`
  bool recorded = false;                  // file: issued while capturing, its time is in `io`
  bool write = false;                     // file: a write
  bool between = true;          // recv, sendrecv: a message between ranks, recorded while capturing
  // recv: from MPI_PROC_NULL, followed only so that its completion counts as
  // a receive in the capture (Timeline::receive_from_nobody); no message,
  // and nothing for the virtual clock to wait for.
  bool from_nobody = false;
  // send, sendrecv, collective: as recorded in the capture going on (its
  // completion is recorded with it).
  Timeline::CommRef sent{};
  // The virtual clock (virtual_clock.hpp).
  double posted_at = 0;                     // send, recv: virtual time of the post; file: of the issue
  bool synchronous = false;                 // send: Issend, Ssend_init (answered by the receive)
  std::int64_t segments = 1;                // persistent send: its data's contiguous blocks
  int recv_peer = MPI_ANY_SOURCE;           // sendrecv: the receive half's source, tag and size
  int recv_tag = MPI_ANY_TAG;
  std::int64_t recv_bytes = 0;
  double queued_at_issue = 0;               // file: the thread's run-queue time at the issue
  std::optional<double> disk_done_at{};     // file on the emulation's disk: when it completes it
                                            //   (virtual time, or wall time on the wall clock)
  model::Collective collective{};           // collective: which
  std::int64_t recorded_bytes = 0;          // persistent collective: what the profile records of it
  std::shared_ptr<EntryExchange> exchange{};  // collective, comm_create: its entry times
  MPI_Comm* newcomm = nullptr;                  // comm_create: where MPI writes the new communicator
  std::shared_ptr<PendingShadows> shadows{};    // comm_create: its shadows, duplicated alongside
  std::shared_ptr<NeighbourExchange> neighbours{};  // neighbour: its blocks' arrivals
  std::vector<std::int64_t> block_bytes{};          // neighbour: its block to each destination
  // neighbour, and a collective over a group: the messages the capture
  // records it as (null: not recorded), and its sends as recorded in the
  // capture going on, completed with it.
  std::shared_ptr<const NeighbourMessages> messages{};
  std::vector<Timeline::CommRef> sent_blocks{};
};

// MPI may hand out a handle again as soon as the request it named completes.
// With several threads, a request can be posted under a handle whose
// completion another thread has not processed yet; so the entries of one
// handle are kept in posting order and a completion takes the oldest.
class RequestTable {
 public:
  void add(MPI_Request request, const PendingRequest& pending) { table_[request].push_back(pending); }
  PendingRequest* oldest(MPI_Request request) {
    const auto it = table_.find(request);
    return it == table_.end() ? nullptr : &it->second.front();
  }
  void remove_oldest(MPI_Request request) {
    const auto it = table_.find(request);
    if (it == table_.end()) return;
    it->second.erase(it->second.begin());
    if (it->second.empty()) table_.erase(it);
  }
  bool empty() const { return table_.empty(); }

 private:
  std::unordered_map<MPI_Request, std::vector<PendingRequest>> table_;
};

}  // namespace mheta::interpose
