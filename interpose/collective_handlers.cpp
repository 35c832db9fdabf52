// Collectives, neighbourhood collectives and the calls that create and free
// communicators: recorded over every rank or as the rounds of a group, met
// by the virtual clock.
#include <atomic>
#include <cstdio>
#include <mutex>
#include <optional>
#include <vector>

#include "interpose/communicators.hpp"
#include "interpose/handlers.hpp"
#include "interpose/neighbour_messages.hpp"
#include "interpose/neighbourhood.hpp"
#include "interpose/runtime.hpp"

namespace mheta::interpose::handlers {

namespace {

// The bytes of a neighbourhood collective's blocks, one per neighbour:
// `count` of `type` each, or per neighbour `counts` (of `types`, an
// alltoallw's).
std::vector<std::int64_t> neighbour_blocks(std::size_t neighbours, MPI_Count count, MPI_Datatype type,
                                           const CountArray& counts, const MPI_Datatype* types) {
  std::vector<std::int64_t> bytes(neighbours);
  for (std::size_t j = 0; j < neighbours; ++j) {
    bytes[j] = counts.empty() ? type_bytes(count, type)
                              : type_bytes(counts[static_cast<int>(j)], types != nullptr ? types[j] : type);
  }
  return bytes;
}

// The messages the capture records a neighbourhood collective on `comm` of
// rank `self` (of MPI_COMM_WORLD) as, given its blocks to the destinations.
std::shared_ptr<const NeighbourMessages> recorded_messages(int self, MPI_Comm comm, const Neighbourhood& neighbours,
                                                           const CallInfo& c, const std::vector<std::int64_t>& sent) {
  const std::vector<std::int64_t> received =
      neighbour_blocks(neighbours.sources.size(), c.count2, c.type2, c.counts2, c.types2);
  return std::make_shared<const NeighbourMessages>(neighbour_messages(
      self, world_ranks_of(comm, neighbours.destinations), sent, world_ranks_of(comm, neighbours.sources), received));
}

// A collective on an intercommunicator (between two coupled codes' groups)
// is not recorded (docs/interpose.md, "Limits"): the first one of the run
// says so, on its group's rank 0, so that a profile without its
// communication and waits does not pass for a whole one.
void say_intercommunicator_collective_unrecorded(const Runtime& rt, Fn fn, MPI_Comm comm) {
  static std::atomic<bool> said{false};
  if (said.load(std::memory_order_relaxed)) return;
  int local_rank = 0;
  PMPI_Comm_rank(comm, &local_rank);
  if (local_rank != 0 || said.exchange(true)) return;
  std::fprintf(stderr,
               "mheta interpose (rank %d): %s on an intercommunicator is not recorded: the profile leaves out its "
               "communication and the wait for the other group (point-to-point messages on intercommunicators are "
               "recorded)\n",
               rt.world_rank(), fn_name(fn));
}

}  // namespace

int handle_collective(Runtime& rt, Fn fn, Category category, CallInfo& c, CallRef call, NonblockingRef nb) {
  const bool following = rt.following();
  const bool all = following && over_all_ranks(c.comm, rt.world_size());
  VirtualClockService& clock = rt.clock();
  std::shared_ptr<EntryExchange> entry = clock.collective_posted(c.comm);  // where the collective is
  const int rc = run_blocking(rt, fn, c, call, nb);
  rt.leave();
  if (rc != MPI_SUCCESS) return rc;
  const bool posted = category != Category::collective;
  if (entry && !posted) {
    clock.collective_completed(entry.get(), c.comm, c.collective, static_cast<double>(priced_bytes(c)));
  }
  // Nothing to record, and no request for the clock to follow: no lock.
  if (!following && !(posted && entry)) return rc;
  {
    std::lock_guard lock(rt.mutex());
    RecordedCollective recorded{};
    if (following) {
      recorded = record_collective(rt, fn, {c.comm, c.collective, collective_bytes(c), priced_bytes(c)}, all, posted);
      if (!all && is_intercommunicator(c.comm)) say_intercommunicator_collective_unrecorded(rt, fn, c.comm);
    }
    // A non-blocking one completes with its request: its end time, and
    // where the capture records it.
    if (posted && (entry || recorded.op.timeline != 0 || recorded.rounds)) {
      PendingRequest pending{.kind = Kind::collective,
                             .comm = c.comm,
                             .bytes = priced_bytes(c),
                             .io = {},
                             .sent = recorded.op,
                             .collective = c.collective,
                             .exchange = entry};
      pending.messages = std::move(recorded.rounds);
      pending.sent_blocks = std::move(recorded.round_sends);
      rt.requests().add(*c.request, pending);
    }
  }
  if (!following) return rc;
  // Collectives on fewer ranks are calls too; with several threads only
  // MPI_COMM_WORLD's keep one order on every rank. Only a blocking one
  // over every rank is a point where every rank waits for the others (the
  // capture's end may gather the profile there): a rank that posted a
  // non-blocking one goes on, and may be what the others wait for (a
  // consensus whose MPI_Ibarrier is polled while messages are still
  // received).
  if (counts_for_detection(c.comm, rt.thread_level())) {
    see_call(rt, fn, all ? 0 : 1, 0, collective_bytes(c), all && !posted);
  }
  return rc;
}

// A communicator created (blocking): its members meet like a barrier, as the
// virtual clock times it, and the capture records that barrier (over every
// rank, or the rounds of one over the new group), so that a program which
// creates a communicator every iteration is priced for it.
int handle_comm_create(Runtime& rt, Fn fn, CallInfo& c, CallRef call) {
  const int rc = call();
  if (rc == MPI_SUCCESS) rt.clock().communicator_created(*c.newcomm);
  rt.leave();
  if (rc != MPI_SUCCESS || !rt.following() || c.newcomm == nullptr || *c.newcomm == MPI_COMM_NULL ||
      !counts_for_detection(*c.newcomm, rt.thread_level())) {
    return rc;
  }
  std::lock_guard lock(rt.mutex());
  record_collective(rt, fn, {.comm = *c.newcomm, .collective = Collective::barrier},
                    over_all_ranks(*c.newcomm, rt.world_size()), false);
  return rc;
}

// A persistent collective: each MPI_Start posts its entry time, and is
// recorded where it starts, as a non-blocking collective is where it is
// posted.
int handle_collective_init(Runtime& rt, CallInfo& c, CallRef call) {
  const int rc = call();
  rt.leave();
  if (rc != MPI_SUCCESS || (!rt.clock().carrying() && !rt.following())) return rc;
  PendingRequest pending{
      .kind = Kind::collective, .comm = c.comm, .bytes = priced_bytes(c), .io = {}, .collective = c.collective};
  pending.recorded_bytes = collective_bytes(c);
  pending.persistent = true;
  pending.active = false;
  std::lock_guard lock(rt.mutex());
  rt.requests().add(*c.request, pending);
  return rc;
}

// MPI_Comm_idup: the shadows are duplicated alongside the program's
// duplicate, the entry time posted like a collective's; both complete with
// the program's request.
int handle_comm_icreate(Runtime& rt, CallInfo& c, CallRef call) {
  VirtualClockService& clock = rt.clock();
  std::shared_ptr<EntryExchange> entry = clock.collective_posted(c.comm);
  const int rc = call();
  std::shared_ptr<PendingShadows> shadows = rc == MPI_SUCCESS ? clock.duplicate_posted(c.comm) : nullptr;
  rt.leave();
  if (rc != MPI_SUCCESS || !entry) return rc;
  std::lock_guard lock(rt.mutex());
  PendingRequest pending{.kind = Kind::comm_create, .comm = c.comm, .io = {}};
  pending.exchange = std::move(entry);
  pending.newcomm = c.newcomm;
  pending.shadows = std::move(shadows);
  rt.requests().add(*c.request, pending);
  return rc;
}

// Neighbourhood collectives, blocking, non-blocking and persistent: the
// times of the blocks go out where the collective is posted (a persistent
// one's at each MPI_Start), and it ends where it completes (virtual_clock.hpp).
// The capture records it so too (neighbour_messages.hpp): its sends where it
// is posted, their completion and its receives where it completes. On a
// communicator without a topology nothing is timed or recorded: the call is
// MPI's error.
int handle_neighbour(Runtime& rt, Fn fn, Category category, CallInfo& c, CallRef call, NonblockingRef nb) {
  VirtualClockService& clock = rt.clock();
  const bool following = rt.following();
  const bool recorded = following && between_ranks(c.comm);
  // The virtual clock keeps each communicator's neighbours; without it the
  // capture asks MPI at each call.
  const Neighbourhood* timed = clock.neighbourhood(c.comm);
  const Neighbourhood* neighbours = timed;
  std::optional<Neighbourhood> asked;
  if (neighbours == nullptr && recorded) {
    asked = neighbourhood_of(c.comm);
    if (asked) neighbours = &*asked;
  }
  std::vector<std::int64_t> blocks =
      neighbours != nullptr ? neighbour_blocks(neighbours->destinations.size(), c.count, c.type, c.counts, c.types)
                            : std::vector<std::int64_t>{};
  const bool persistent = category == Category::neighbour_init;
  std::shared_ptr<NeighbourExchange> exchange =
      timed != nullptr && !persistent ? clock.neighbour_posted(c.comm, blocks) : nullptr;
  const int rc = run_blocking(rt, fn, c, call, nb);
  rt.leave();
  if (rc != MPI_SUCCESS) return rc;
  // For detection: one call, to its destinations, of its bytes.
  std::uint32_t destinations = 0;
  std::int64_t bytes = 0;
  if (neighbours != nullptr) {
    for (const int d : neighbours->destinations) destinations = combine(destinations, static_cast<std::uint32_t>(d));
    for (const std::int64_t block : blocks) bytes = add_bytes(bytes, block);
  }
  std::shared_ptr<const NeighbourMessages> messages =
      recorded && neighbours != nullptr ? recorded_messages(rt.world_rank(), c.comm, *neighbours, c, blocks) : nullptr;
  if (category == Category::neighbour) {
    clock.neighbour_completed(exchange.get());
    if (messages) {
      std::lock_guard lock(rt.mutex());
      std::vector<Timeline::CommRef> sent = record_neighbour_sends(rt, fn, *messages);
      record_neighbour_completion(rt, fn, *messages, sent, rt.capturing() ? rt.timeline().here() : Timeline::Place{});
    }
  } else if (timed != nullptr || messages) {
    std::lock_guard lock(rt.mutex());
    PendingRequest pending{.kind = Kind::neighbour, .comm = c.comm, .io = {}};
    pending.persistent = persistent;
    pending.active = !persistent;
    pending.neighbours = std::move(exchange);
    pending.block_bytes = std::move(blocks);
    pending.messages = messages;
    if (messages && !persistent) pending.sent_blocks = record_neighbour_sends(rt, fn, *messages);
    rt.requests().add(*c.request, pending);
  }
  // A persistent one is seen where it starts.
  if (following && !persistent && counts_for_detection(c.comm, rt.thread_level())) {
    see_call(rt, fn, static_cast<int>(destinations), kNeighbourTag, bytes);
  }
  return rc;
}

// Dynamic processes (MPI_Comm_spawn(_multiple), accept, connect, join): a
// communicator whose processes are all of this MPI_COMM_WORLD is followed
// as any created one (it gets its shadow: every member calls this wrapper
// at the same point); one that reaches processes of another MPI_COMM_WORLD
// (spawned ones, which run unwatched, or another job's) cannot be, and the
// first such call says so, on the new communicator's local rank 0.
int handle_comm_connect(Runtime& rt, Fn fn, CallInfo& c, CallRef call) {
  const int rc = call();
  rt.leave();
  if (rc != MPI_SUCCESS || *c.newcomm == MPI_COMM_NULL) return rc;
  if (within_world(*c.newcomm)) {
    rt.clock().communicator_created(*c.newcomm);
    return rc;
  }
  static std::atomic<bool> said{false};
  int local_rank = 0;
  PMPI_Comm_rank(*c.newcomm, &local_rank);
  if (local_rank == 0 && !said.exchange(true)) {
    std::fprintf(stderr,
                 "mheta interpose (rank %d): %s connects processes of another MPI_COMM_WORLD, which the interposer "
                 "does not follow: messages and collectives on the communicator it returns, and on those made from "
                 "it, carry no virtual time (a receive completes at the receiver's own time, a collective waits for "
                 "no other process's clock) and are not in the profile; spawned processes run unwatched\n",
                 rt.world_rank(), fn_name(fn));
  }
  return rc;
}

int handle_comm_free(Runtime& rt, CallInfo& c, CallRef call) {
  rt.clock().communicator_freed(*c.newcomm);
  const int rc = call();
  rt.leave();
  return rc;
}

}  // namespace mheta::interpose::handlers
