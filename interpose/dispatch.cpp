// The category handlers: what an intercepted call means for the captured
// timeline, the requests the interposer follows, emulation and sleep-waiting.
#include "interpose/dispatch.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstdio>
#include <limits>
#include <mutex>
#include <optional>
#include <vector>

#include "interpose/clock.hpp"
#include "interpose/communicators.hpp"
#include "interpose/emulator.hpp"
#include "interpose/engaged.hpp"
#include "interpose/group_collective.hpp"
#include "interpose/neighbour_messages.hpp"
#include "interpose/neighbourhood.hpp"
#include "interpose/runtime.hpp"
#include "interpose/sleep_wait.hpp"

namespace mheta::interpose {

namespace {

using Kind = PendingRequest::Kind;

// What detection knows a call by: its function, two numbers (peer and tag,
// the variable of a file) and the size class of its data (bytes rounded to
// a power of two), so that the levels of a multigrid cycle, exchanging
// halos of halving sizes, are different calls, while a message whose size
// drifts a little stays the same call.
std::uint64_t signature(Fn fn, int a, int b, std::int64_t bytes) {
  const auto size_class = static_cast<std::uint64_t>(std::bit_width(static_cast<std::uint64_t>(std::max<std::int64_t>(0, bytes))));
  return (static_cast<std::uint64_t>(fn) << 48) ^ (size_class << 40) ^
         (static_cast<std::uint64_t>(static_cast<std::uint32_t>(a)) << 20) ^
         (static_cast<std::uint64_t>(static_cast<std::uint32_t>(b)) * 0x9E3779B1ULL);
}

// Two numbers of a call in one (a Sendrecv's two peers, the requests a
// Startall starts).
std::uint32_t combine(std::uint32_t a, std::uint32_t b) { return a * 65599U + b; }

// Byte counts of the large-count calls (MPI_Count counts of MPI_Count-sized
// datatypes) may not fit: they stop at the largest, never wrap negative.
constexpr std::int64_t kMostBytes = std::numeric_limits<std::int64_t>::max();

std::int64_t add_bytes(std::int64_t a, std::int64_t b) {
  std::int64_t sum = 0;
  return __builtin_add_overflow(a, b, &sum) ? kMostBytes : sum;
}

std::int64_t type_bytes(MPI_Count count, MPI_Datatype type) {
  if (type == MPI_DATATYPE_NULL || count <= 0) return 0;
  MPI_Count size = 0;
  PMPI_Type_size_x(type, &size);
  std::int64_t bytes = 0;
  if (size == MPI_UNDEFINED || size <= 0) return 0;
  return __builtin_mul_overflow(static_cast<std::int64_t>(count), static_cast<std::int64_t>(size), &bytes) ? kMostBytes
                                                                                                          : bytes;
}

std::int64_t received_bytes(const MPI_Status* status) {
  MPI_Count bytes = 0;
  PMPI_Get_elements_x(status, MPI_BYTE, &bytes);
  return bytes == MPI_UNDEFINED || bytes < 0 ? 0 : static_cast<std::int64_t>(bytes);
}

model::CommOp message(model::CommKind kind, int world_peer, std::int64_t bytes, int tag, bool nonblocking = false) {
  model::CommOp op;
  op.kind = kind;
  op.peer = world_peer;
  op.bytes = bytes;
  op.tag = tag;
  op.nonblocking = nonblocking;
  return op;
}

// What one rank contributes to a collective (docs/interpose.md), in the
// unit of the cluster's curve for it and of the emulated network's price
// (virtual_time.hpp): per peer for alltoall(v/w), so an alltoallv gives the
// mean of its sends where an alltoall gives its send count.
std::int64_t collective_bytes(const CallInfo& c) {
  if (c.counts.empty()) return type_bytes(c.count, c.type);
  int rank = 0;
  int size = 1;
  PMPI_Comm_rank(c.comm, &rank);
  PMPI_Comm_size(c.comm, &size);
  if (c.collective != Collective::alltoall) return type_bytes(c.counts[rank], c.type);  // allgatherv, reduce_scatter
  // alltoallv: the counts it sends to each peer; alltoallw: each with its
  // own datatype. The peers of an intercommunicator's are the remote group.
  int inter = 0;
  PMPI_Comm_test_inter(c.comm, &inter);
  if (inter) PMPI_Comm_remote_size(c.comm, &size);
  if (size <= 0) return 0;
  std::int64_t total = 0;
  for (int i = 0; i < size; ++i) {
    total = add_bytes(total, type_bytes(c.counts[i], c.types != nullptr ? c.types[i] : c.type));
  }
  return total / size;
}

// What the emulated network prices one rank's part of a collective at
// (virtual_time.hpp): its own bytes, but a gather or reduce-scatter of
// unequal blocks (allgatherv, reduce_scatter) goes at its largest block on
// every rank. MPICH moves large ones round a ring, each of whose P - 1
// steps forwards some rank's block, so no rank is done before the largest
// has passed through it; the model prices them so (docs/model.md,
// "Collectives whose bytes follow the rows").
std::int64_t priced_bytes(const CallInfo& c) {
  if (c.counts.empty() || c.collective == Collective::alltoall) return collective_bytes(c);
  int size = 1;
  PMPI_Comm_size(c.comm, &size);
  MPI_Count largest = 0;
  for (int i = 0; i < size; ++i) largest = std::max(largest, c.counts[i]);
  return type_bytes(largest, c.type);
}

// A blocking call, run by a service its own way (sleep-waiting) or as it is.
int run_blocking(Runtime& rt, Fn fn, CallInfo& c, CallRef call, NonblockingRef nonblocking) {
  if (nonblocking) {
    if (const auto rc = rt.run_blocking({fn, c, call, nonblocking, nullptr})) return *rc;
  }
  return call();
}

// A message a rank sends itself (a periodic dimension of one rank in a
// Cartesian grid, a ring of one) is a copy in its memory, no message
// between ranks: not recorded. Its receive still ends a section while
// capturing, as any receive does (Timeline::receive_from_nobody): the
// compute after it may use what arrived.
Timeline::CommRef message_to_self(Runtime& rt, model::CommKind kind) {
  if (kind == model::CommKind::recv && rt.capturing()) rt.timeline().receive_from_nobody();
  return {};
}

// A message sent or received: numbered in its channel, recorded while
// capturing (where: a non-blocking send's completion is recorded with it),
// told to the services.
Timeline::CommRef record_world_message(Runtime& rt, Fn fn, model::CommKind kind, int world_peer, std::int64_t bytes,
                                       int tag, bool nonblocking = false) {
  if (world_peer == rt.world_rank()) return message_to_self(rt, kind);
  Timeline::CommRef recorded;
  const std::int64_t number = rt.channels().next({kind, world_peer, tag});
  if (rt.capturing()) recorded = rt.timeline().add_comm(message(kind, world_peer, bytes, tag, nonblocking), number);
  rt.message({fn, kind == model::CommKind::send ? MessageEvent::Kind::send : MessageEvent::Kind::recv, world_peer,
              bytes, tag});
  return recorded;
}

// The same for a peer of `comm`. A peer outside MPI_COMM_WORLD (a spawned
// process on a merged communicator) is no rank of the profile: its
// messages are not recorded.
Timeline::CommRef record_message(Runtime& rt, Fn fn, model::CommKind kind, MPI_Comm comm, int peer,
                                 std::int64_t bytes, int tag, bool nonblocking = false) {
  const int world_peer = world_rank_of(comm, peer);
  if (world_peer == MPI_UNDEFINED) return {};
  return record_world_message(rt, fn, kind, world_peer, bytes, tag, nonblocking);
}

// A receive posted: its message is recorded where it completes.
void post_receive(Runtime& rt, Fn fn, int peer, std::int64_t bytes, int tag) {
  rt.message({fn, MessageEvent::Kind::recv_posted, peer, bytes, tag});
}

// Every call of a function is one call for detection, with the peer and
// tag it was given (a wildcard receive is the same call whichever message
// it gets), whether or not it is a message between ranks (MPI_PROC_NULL,
// MPI_COMM_SELF): the run's iterations are counted after detection by every
// call of the function that ends one (boundary_counter.hpp), so detection
// must see every call of it too.
void see_call(Runtime& rt, Fn fn, int peer, int tag, std::int64_t bytes, bool collective_point = false) {
  std::lock_guard lock(rt.mutex());
  rt.call_seen({fn, signature(fn, peer, tag, bytes), collective_point});
}

// A neighbourhood collective's blocks sent (mutex held): a non-blocking
// send to each destination (neighbour_messages.hpp), of `tag`
// (kNeighbourTag; kGroupTag for the rounds of a non-blocking collective
// over a group); where each is recorded.
std::vector<Timeline::CommRef> record_neighbour_sends(Runtime& rt, Fn fn, const NeighbourMessages& m,
                                                      int tag = kNeighbourTag) {
  std::vector<Timeline::CommRef> sent;
  sent.reserve(m.sends.size());
  for (const NeighbourMessage& block : m.sends) {
    sent.push_back(record_world_message(rt, fn, model::CommKind::send, block.peer, block.bytes, tag, true));
  }
  return sent;
}

// Where it completes, at `at` of the captured timeline (mutex held): its
// sends completed there, then its blocks received, as a wait on the same
// exchange of Isends and Irecvs records them.
void record_neighbour_completion(Runtime& rt, Fn fn, const NeighbourMessages& m, std::vector<Timeline::CommRef>& sent,
                                 Timeline::Place at, int tag = kNeighbourTag) {
  if (rt.capturing()) {
    for (const Timeline::CommRef& block : sent) rt.timeline().complete(block, at);
  }
  sent.clear();
  for (const NeighbourMessage& block : m.receives) {
    record_world_message(rt, fn, model::CommKind::recv, block.peer, block.bytes, tag);
  }
}

// A synchronous send (or its large-count twin): a rendezvous, timed so.
bool synchronous_send(Fn fn) {
  const Fn base = fn_base(fn);
  return base == Fn::Ssend || base == Fn::Issend || base == Fn::Ssend_init;
}

int handle_send(Runtime& rt, Fn fn, CallInfo& c, CallRef call, NonblockingRef nb) {
  const bool following = rt.following();
  const bool between = following && c.peer >= 0 && between_ranks(c.comm);
  VirtualClockService& clock = rt.clock();
  const bool synchronous = synchronous_send(fn);
  // Ahead of the message; its bytes go out when the link is free.
  const double posted = clock.send_posted(c.comm, c.peer, c.tag, type_bytes(c.count, c.type), synchronous);
  const int rc = run_blocking(rt, fn, c, call, nb);
  rt.leave();
  if (rc == MPI_SUCCESS && synchronous) {
    clock.synchronous_send_completed(c.comm, c.peer, c.tag, type_bytes(c.count, c.type), posted);
  } else if (rc == MPI_SUCCESS) {
    clock.send_completed(c.comm, c.peer, type_bytes(c.count, c.type), posted);
  }
  if (between && rc == MPI_SUCCESS) {
    std::lock_guard lock(rt.mutex());
    record_message(rt, fn, model::CommKind::send, c.comm, c.peer, type_bytes(c.count, c.type), c.tag);
  }
  if (following && rc == MPI_SUCCESS) see_call(rt, fn, c.peer, c.tag, type_bytes(c.count, c.type));
  return rc;
}

int handle_recv(Runtime& rt, Fn fn, CallInfo& c, CallRef call, NonblockingRef nb) {
  MPI_Status local{};
  const bool following = rt.following();
  const bool between = following && between_ranks(c.comm);
  if ((between || rt.clock().carrying()) && c.status == MPI_STATUS_IGNORE) c.status = &local;
  const double posted = rt.clock().now();
  // A receive from MPI_PROC_NULL returns at once and is never waited for:
  // its blocking form gives the status MPI defines (source MPI_PROC_NULL),
  // while MPICH 4.0's MPI_Test of an MPI_Irecv from MPI_PROC_NULL says
  // source 0, tag 0, which would change the program's status and have the
  // virtual clock wait for a send time rank 0 never posted.
  const int rc = run_blocking(rt, fn, c, call, c.peer == MPI_PROC_NULL ? NonblockingRef(nullptr) : nb);
  rt.leave();
  if (rc == MPI_SUCCESS) rt.clock().received(c.comm, c.status, posted);
  if (between && rc == MPI_SUCCESS) {
    std::lock_guard lock(rt.mutex());
    if (c.status->MPI_SOURCE >= 0) {
      record_message(rt, fn, model::CommKind::recv, c.comm, c.status->MPI_SOURCE, received_bytes(c.status),
                     c.status->MPI_TAG);
    } else if (c.peer == MPI_PROC_NULL && rt.capturing()) {
      rt.timeline().receive_from_nobody();
    }
  }
  if (following && rc == MPI_SUCCESS) see_call(rt, fn, c.peer, c.tag, type_bytes(c.count, c.type));  // the size it may receive
  return rc;
}

// A Sendrecv or an Isendrecv is one call for detection: its two peers and
// tags in one signature, of its send's size.
void see_sendrecv(Runtime& rt, Fn fn, const CallInfo& c) {
  see_call(rt, fn, static_cast<int>(combine(static_cast<std::uint32_t>(c.peer), static_cast<std::uint32_t>(c.peer2))),
           static_cast<int>(combine(static_cast<std::uint32_t>(c.tag), static_cast<std::uint32_t>(c.tag2))),
           type_bytes(c.count, c.type));
}

int handle_sendrecv(Runtime& rt, Fn fn, CallInfo& c, CallRef call) {
  MPI_Status local{};
  const bool following = rt.following();
  const bool between = following && between_ranks(c.comm);
  VirtualClockService& clock = rt.clock();
  if ((between || clock.carrying()) && c.status == MPI_STATUS_IGNORE) c.status = &local;
  const double posted = clock.now();
  const double sent = clock.send_posted(c.comm, c.peer, c.tag, type_bytes(c.count, c.type));
  const int rc = call();
  rt.leave();
  if (rc == MPI_SUCCESS) {
    clock.send_completed(c.comm, c.peer, type_bytes(c.count, c.type), sent);
    clock.received(c.comm, c.status, posted);
  }
  if (between && rc == MPI_SUCCESS) {
    std::lock_guard lock(rt.mutex());
    if (c.peer >= 0) record_message(rt, fn, model::CommKind::send, c.comm, c.peer, type_bytes(c.count, c.type), c.tag);
    if (c.status->MPI_SOURCE >= 0) {
      record_message(rt, fn, model::CommKind::recv, c.comm, c.status->MPI_SOURCE, received_bytes(c.status),
                     c.status->MPI_TAG);
    } else if (c.peer2 == MPI_PROC_NULL && rt.capturing()) {
      rt.timeline().receive_from_nobody();
    }
  }
  if (following && rc == MPI_SUCCESS) see_sendrecv(rt, fn, c);
  return rc;
}

// A receive posted from MPI_PROC_NULL (MPI_Irecv, MPI_Recv_init and their
// large-count twins) gets no message, but the wait or test that completes
// it is a receive for the capture, as the blocking one is (handle_recv): a
// halo exchange's edge rank whose completion completes only such receives
// would otherwise have its short compute after it join the section before.
// Followed as a real receive is, while following calls between ranks; the
// virtual clock has no send time to wait for.
void follow_receive_from_nobody(Runtime& rt, Category category, const CallInfo& c) {
  if (category != Category::irecv && category != Category::recv_init) return;
  if (!rt.following() || !between_ranks(c.comm)) return;
  PendingRequest pending{.kind = Kind::recv,
                         .comm = c.comm,
                         .peer = MPI_PROC_NULL,
                         .tag = c.tag,
                         .io = {},
                         .between = false,  // no message
                         .from_nobody = true};
  pending.persistent = category == Category::recv_init;
  pending.active = !pending.persistent;
  std::lock_guard lock(rt.mutex());
  rt.requests().add(*c.request, pending);
}

// Requests are followed while capturing is to come (messages between ranks)
// and for the virtual clock (every message: the clock also times those on
// MPI_COMM_SELF).
int handle_post(Runtime& rt, Fn fn, Category category, CallInfo& c, CallRef call) {
  VirtualClockService& clock = rt.clock();
  const bool timed = clock.carrying() && c.peer != MPI_PROC_NULL;
  const bool synchronous = synchronous_send(fn);
  // A send's time goes ahead of it; its bytes go out when the link is free.
  const double posted = timed && category == Category::isend
                            ? clock.send_posted(c.comm, c.peer, c.tag, type_bytes(c.count, c.type), synchronous)
                            : clock.now();
  const int rc = call();
  rt.leave();
  if (rc == MPI_SUCCESS && rt.following() && (category == Category::isend || category == Category::irecv)) {
    see_call(rt, fn, c.peer, c.tag, type_bytes(c.count, c.type));
  }
  if (rc != MPI_SUCCESS) return rc;
  if (c.peer == MPI_PROC_NULL) {
    follow_receive_from_nobody(rt, category, c);
    return rc;
  }
  const bool between = rt.following() && between_ranks(c.comm);
  if (!between && !timed) return rc;
  std::lock_guard lock(rt.mutex());
  const std::int64_t bytes = type_bytes(c.count, c.type);
  PendingRequest pending{.comm = c.comm, .peer = c.peer, .tag = c.tag, .bytes = bytes, .io = {}, .between = between};
  pending.posted_at = posted;
  pending.synchronous = synchronous;
  switch (category) {
    case Category::isend:  // recorded where it is posted, its completion where it completes
      if (between) pending.sent = record_message(rt, fn, model::CommKind::send, c.comm, c.peer, bytes, c.tag, true);
      if (timed || pending.sent.timeline != 0) {
        pending.kind = Kind::send;
        rt.requests().add(*c.request, pending);
      }
      break;
    case Category::irecv:  // recorded where it completes
      pending.kind = Kind::recv;
      rt.requests().add(*c.request, pending);
      if (between) post_receive(rt, fn, c.peer, bytes, c.tag);
      break;
    case Category::send_init:
    case Category::recv_init:
      pending.kind = category == Category::send_init ? Kind::send : Kind::recv;
      pending.persistent = true;
      pending.active = false;
      rt.requests().add(*c.request, pending);
      break;
    default:
      break;
  }
  return rc;
}

// A collective call as the capture records it: what one rank contributes
// in the profile's unit (collective_bytes) and at the emulated network's
// price (priced_bytes).
struct CollectiveCall {
  MPI_Comm comm = MPI_COMM_NULL;
  Collective collective = Collective::barrier;
  std::int64_t bytes = 0;
  std::int64_t priced_bytes = 0;
};

// The rounds of a collective over some but not all ranks
// (group_collective.hpp) as messages between ranks of MPI_COMM_WORLD: the
// k-th send and the k-th receive are round k's. Null for a group with a
// member outside MPI_COMM_WORLD, which is no communication of the profile's
// ranks.
std::shared_ptr<const NeighbourMessages> group_round_messages(const Runtime& rt, const CollectiveCall& call) {
  const std::vector<int> world = world_members(call.comm);
  if (std::find(world.begin(), world.end(), MPI_UNDEFINED) != world.end()) return nullptr;
  const auto me = std::find(world.begin(), world.end(), rt.world_rank()) - world.begin();
  auto rounds = std::make_shared<NeighbourMessages>();
  for (const GroupRound& round :
       group_rounds(call.collective, static_cast<int>(world.size()), static_cast<int>(me), call.priced_bytes)) {
    rounds->sends.push_back({.peer = world[static_cast<std::size_t>(round.to)], .bytes = round.bytes});
    rounds->receives.push_back({.peer = world[static_cast<std::size_t>(round.from)], .bytes = round.bytes});
  }
  return rounds;
}

// A blocking collective over a group (mutex held): its rounds in turn, each
// round's send, its receive, and the send's completion, numbered in their
// channels while calls are followed.
void record_group_collective(Runtime& rt, Fn fn, const CollectiveCall& call) {
  const std::shared_ptr<const NeighbourMessages> rounds = group_round_messages(rt, call);
  if (!rounds) return;
  for (std::size_t k = 0; k < rounds->sends.size(); ++k) {
    const Timeline::CommRef sent = record_world_message(rt, fn, model::CommKind::send, rounds->sends[k].peer,
                                                        rounds->sends[k].bytes, kGroupTag, true);
    record_world_message(rt, fn, model::CommKind::recv, rounds->receives[k].peer, rounds->receives[k].bytes, kGroupTag);
    // Synchronous: the last member to enter waits for its messages to
    // arrive, as the virtual clock keeps it until its latest entry plus the
    // cost (group_collective.hpp).
    if (rt.capturing()) rt.timeline().complete(sent, rt.timeline().here(), true);
  }
}

// A collective as recorded: over every rank, its place; over a group
// posted without waiting, its rounds and their sends as recorded. Such a
// non-blocking one is recorded as a program's own Isends and Irecvs to the
// same members would be: every round's send where it is posted
// (record_collective), their completion and every round's receive where
// its request completes (complete). The rounds then travel while the rank
// computes: a member's wait ends once the messages of the members it
// receives from have arrived, which is the virtual clock's end (the latest
// entry plus the cost) for a group of two, and up to k - 1 rounds' time
// before it for larger ones whose members wait at once.
struct RecordedCollective {
  Timeline::CommRef op{};
  std::shared_ptr<const NeighbourMessages> rounds{};
  std::vector<Timeline::CommRef> round_sends{};
};

// A collective followed (mutex held): over every rank (`all`), numbered
// among the collectives and recorded while capturing; over some, as the
// messages of its rounds; with several threads, only those of
// MPI_COMM_WORLD keep one order on every rank. `posted`: non-blocking (an
// MPI_I... call, a persistent one's start), recorded as such so that its
// completion can be recorded with it (the returned place, or the rounds'
// sends: group_round_messages).
RecordedCollective record_collective(Runtime& rt, Fn fn, const CollectiveCall& call, bool all, bool posted) {
  RecordedCollective recorded{};
  if (all) {
    const std::int64_t number = rt.channels().next(collective_channel());
    if (rt.capturing()) {
      model::CommOp op;
      op.kind = model::CommKind::collective;
      op.collective = call.collective;
      op.bytes = call.bytes;
      op.nonblocking = posted;
      recorded.op = rt.timeline().add_comm(op, number);
    }
    rt.collective({fn, call.collective, call.bytes});
  } else if (between_ranks(call.comm) && counts_for_detection(call.comm, rt.thread_level())) {
    if (!posted) {
      record_group_collective(rt, fn, call);
    } else if ((recorded.rounds = group_round_messages(rt, call))) {
      recorded.round_sends = record_neighbour_sends(rt, fn, *recorded.rounds, kGroupTag);
    }
  }
  return recorded;
}

int handle_start(Runtime& rt, Fn fn, CallInfo& c, CallRef call) {
  VirtualClockService& clock = rt.clock();
  if (clock.carrying()) {
    // The send times go ahead of the messages the starts post, the entry
    // times of collectives where they start.
    std::lock_guard lock(rt.mutex());
    for (int i = 0; i < c.nreq; ++i) {
      PendingRequest* p = rt.requests().oldest(c.requests[i]);
      if (p == nullptr || !p->persistent) continue;
      p->posted_at = p->kind == Kind::send ? clock.send_posted(p->comm, p->peer, p->tag, p->bytes, p->synchronous)
                                           : clock.now();
      p->active = true;
      if (p->kind == Kind::collective) p->exchange = clock.collective_posted(p->comm);
      if (p->kind == Kind::neighbour) p->neighbours = clock.neighbour_posted(p->comm, p->block_bytes);
    }
  }
  const int rc = call();
  rt.leave();
  if (!rt.following() || rc != MPI_SUCCESS) return rc;
  std::lock_guard lock(rt.mutex());
  std::uint32_t peers = 0;  // the requests started, for detection: one call, whatever it starts
  std::uint32_t tags = 0;
  std::int64_t bytes = 0;
  for (int i = 0; i < c.nreq; ++i) {
    PendingRequest* found = rt.requests().oldest(c.requests[i]);
    if (found == nullptr || !found->persistent) continue;
    PendingRequest& p = *found;
    p.active = true;
    if (p.kind == Kind::collective) {
      RecordedCollective recorded = record_collective(rt, fn, {p.comm, p.collective, p.recorded_bytes, p.bytes},
                                                      over_all_ranks(p.comm, rt.world_size()), true);
      p.sent = recorded.op;
      p.messages = std::move(recorded.rounds);
      p.sent_blocks = std::move(recorded.round_sends);
      continue;
    }
    if (p.from_nobody) continue;  // no message, and no part of the call for detection, as before it was followed
    if (p.kind == Kind::neighbour) {  // its blocks go out
      if (p.messages) p.sent_blocks = record_neighbour_sends(rt, fn, *p.messages);
      tags = combine(tags, static_cast<std::uint32_t>(kNeighbourTag));
      for (const std::int64_t block : p.block_bytes) bytes += block;
      continue;
    }
    peers = combine(peers, static_cast<std::uint32_t>(p.peer) * 2U + (p.kind == Kind::send ? 1U : 0U));
    tags = combine(tags, static_cast<std::uint32_t>(p.tag));
    bytes += p.bytes;
    if (!p.between) continue;
    if (p.kind == Kind::send) {
      p.sent = record_message(rt, fn, model::CommKind::send, p.comm, p.peer, p.bytes, p.tag, true);
    } else {
      post_receive(rt, fn, p.peer, p.bytes, p.tag);
    }
  }
  rt.call_seen({fn, signature(fn, static_cast<int>(peers), static_cast<int>(tags), bytes)});
  return rc;
}

int handle_request_free(Runtime& rt, CallInfo& c, CallRef call) {
  const MPI_Request request = *c.requests;
  const int rc = call();
  rt.leave();
  std::lock_guard lock(rt.mutex());
  rt.requests().remove_oldest(request);
  return rc;
}

// A non-blocking MPI-IO request of an emulated slower disk completes late.
// ROMIO may transfer inside the call that posts it, or asynchronously (POSIX
// aio), the transfer then finishing during the wait. Its real duration is
// taken as: from its issue to the return of the completion call when that
// call blocked (the transfer ended there), else the issue and the completion
// call (a lower bound: the transfer ended unseen while the program computed).
// The emulated disk takes io_factor times that from the issue; the
// completion call sleeps until the latest such time among the requests it
// completed, before it returns: I/O time, never compute.
struct FileDelay {
  double call_start = 0;  // the completion call's
  double done_at = 0;
  bool blocked = false;
  double until = 0;  // out: the latest emulated completion
};

// What the virtual clock still has to learn of the requests a completion
// call completed: it may wait (a send time on its way, the other ranks'
// entries to a collective), so it runs after the bookkeeping's mutex is
// released.
struct ClockCompletion {
  Kind kind = Kind::recv;
  MPI_Comm comm = MPI_COMM_NULL;
  MPI_Status status{};
  std::shared_ptr<EntryExchange> exchange{};
  model::Collective collective{};
  double bytes = 0;
  double posted_at = 0;  // recv: the receive's post; send: the synchronous send's
  int peer = MPI_PROC_NULL;  // synchronous send
  int tag = 0;
  MPI_Comm newcomm = MPI_COMM_NULL;  // comm_create
  std::shared_ptr<PendingShadows> shadows{};
  std::shared_ptr<NeighbourExchange> neighbours{};  // neighbour
};
thread_local std::vector<ClockCompletion> t_clock_completions;

// A non-blocking MPI-IO request (or a split collective's) has completed:
// the virtual clock, or the sleep of the wall clock's slower disk
// (`delay.until`), moves to its emulated completion: its turn on the
// emulation's disk, or its transfer stretched by the I/O factor.
void complete_file(Runtime& rt, PendingRequest& p, FileDelay& delay) {
  VirtualClockService& clock = rt.clock();
  if (p.disk_done_at) {  // its time was the disk's from the issue (and recorded then)
    if (clock.on()) {
      clock.wait_until(*p.disk_done_at);
    } else {
      delay.until = std::max(delay.until, *p.disk_done_at);
    }
    return;
  }
  double transfer =
      delay.blocked ? delay.done_at - p.issued_at : p.issue_seconds + (delay.done_at - delay.call_start);
  // Virtual time: the time the thread waited for a core between the
  // issue and the end of the wait is not the disk's.
  if (clock.on() && delay.blocked) transfer = std::max(0.0, transfer - (thread_queued_s() - p.queued_at_issue));
  const double emulated = rt.file_io_factor() * transfer;
  // The captured write already holds the issue's time; the rest of the
  // emulated transfer is the write's too.
  if (p.recorded && rt.capturing()) rt.timeline().add_io_seconds(p.io, p.write, emulated - p.issue_seconds);
  delay.until = std::max(delay.until, p.issued_at + emulated);
  clock.wait_until(p.posted_at + emulated);
}

// A followed receive between ranks has completed with `status`: numbered
// in its channel, recorded while capturing, told to the services. A
// receive from MPI_PROC_NULL (source < 0) is no message, and a process of
// another MPI_COMM_WORLD no rank of the profile.
void record_completed_receive(Runtime& rt, MPI_Comm comm, const MPI_Status& status) {
  if (status.MPI_SOURCE < 0) return;
  const int world_peer = world_rank_of(comm, status.MPI_SOURCE);
  if (world_peer == MPI_UNDEFINED) return;
  if (world_peer == rt.world_rank()) {
    message_to_self(rt, model::CommKind::recv);
    return;
  }
  const std::int64_t bytes = received_bytes(&status);
  const std::int64_t number = rt.channels().next({model::CommKind::recv, world_peer, status.MPI_TAG});
  if (rt.capturing()) rt.timeline().add_comm(message(model::CommKind::recv, world_peer, bytes, status.MPI_TAG), number);
  rt.message({Fn::count_, MessageEvent::Kind::recv_completed, world_peer, bytes, status.MPI_TAG});
}

// The message the receive half of an Isendrecv got. MPICH 4.0's status of
// an Isendrecv does not name it (source 0, tag 0, no elements when both
// halves are between ranks): a source and tag the call named are taken
// from the call (its size then is the most the receive could take).
MPI_Status sendrecv_received(const PendingRequest& p, const MPI_Status* status) {
  MPI_Status received = status != MPI_STATUS_IGNORE ? *status : MPI_Status{};
  if (p.recv_peer != MPI_ANY_SOURCE) received.MPI_SOURCE = p.recv_peer;
  if (p.recv_tag != MPI_ANY_TAG) received.MPI_TAG = p.recv_tag;
  if (p.recv_peer != MPI_ANY_SOURCE && p.recv_tag != MPI_ANY_TAG) {
    PMPI_Status_set_elements_x(&received, MPI_BYTE, p.recv_bytes);
  }
  return received;
}

// A followed request has completed with `status`, in a completion call at
// `at` of the captured timeline.
void complete(Runtime& rt, MPI_Request request, const MPI_Status* status, FileDelay& delay, Timeline::Place at) {
  PendingRequest* found = rt.requests().oldest(request);
  if (found == nullptr) return;
  PendingRequest& p = *found;
  if (p.persistent && !p.active) return;  // an inactive persistent request: nothing completed
  VirtualClockService& clock = rt.clock();
  switch (p.kind) {
    case Kind::recv:
      if (p.from_nobody) {  // its status may name rank 0 (MPICH 4.0's test): neither a message nor a send time
        if (rt.capturing()) rt.timeline().receive_from_nobody();
        break;
      }
      if (clock.carrying() && status != MPI_STATUS_IGNORE) {
        t_clock_completions.push_back({.kind = Kind::recv, .comm = p.comm, .status = *status, .posted_at = p.posted_at});
      }
      if (p.between && status != MPI_STATUS_IGNORE) record_completed_receive(rt, p.comm, *status);
      break;
    case Kind::send:
      if (rt.capturing()) rt.timeline().complete(p.sent, at);
      p.sent = {};  // a persistent send is recorded again at its next start
      if (p.synchronous) {  // waits for the receive's answer: after the mutex
        t_clock_completions.push_back({.kind = Kind::send,
                                       .comm = p.comm,
                                       .bytes = static_cast<double>(p.bytes),
                                       .posted_at = p.posted_at,
                                       .peer = p.peer,
                                       .tag = p.tag});
      } else {
        clock.send_completed(p.comm, p.peer, p.bytes, p.posted_at);
      }
      break;
    case Kind::sendrecv: {  // both halves, as an Isend's and an Irecv's completions
      const MPI_Status received = sendrecv_received(p, status);
      if (clock.carrying()) {  // the send half's bytes have left
        clock.send_completed(p.comm, p.peer, p.bytes, p.posted_at);
        t_clock_completions.push_back(
            {.kind = Kind::recv, .comm = p.comm, .status = received, .posted_at = p.posted_at});
      }
      if (!p.between) break;
      if (rt.capturing()) rt.timeline().complete(p.sent, at);
      if (p.recv_peer != MPI_PROC_NULL) {
        record_completed_receive(rt, p.comm, received);
      } else if (rt.capturing()) {  // MPICH 4.0 leaves the status as it was: no message to read from it
        rt.timeline().receive_from_nobody();
      }
      break;
    }
    case Kind::comm_create:
      t_clock_completions.push_back({.kind = Kind::comm_create,
                                     .comm = p.comm,
                                     .exchange = p.exchange,
                                     .newcomm = *p.newcomm,
                                     .shadows = p.shadows});
      break;
    case Kind::collective:
      if (rt.capturing()) rt.timeline().complete(p.sent, at);
      p.sent = {};  // a persistent one is recorded again at its next start
      if (p.messages) record_neighbour_completion(rt, Fn::count_, *p.messages, p.sent_blocks, at, kGroupTag);
      p.messages = nullptr;
      t_clock_completions.push_back({.kind = Kind::collective,
                                     .comm = p.comm,
                                     .exchange = p.exchange,
                                     .collective = p.collective,
                                     .bytes = static_cast<double>(p.bytes)});
      break;
    case Kind::file:
      complete_file(rt, p, delay);
      break;
    case Kind::neighbour:
      if (p.neighbours) t_clock_completions.push_back({.kind = Kind::neighbour, .neighbours = p.neighbours});
      if (p.messages) record_neighbour_completion(rt, Fn::count_, *p.messages, p.sent_blocks, at);
      break;
    case Kind::prefetch:
      // T_A: the compute between the prefetch's issue and its wait (§4.1.1),
      // or the rank's next blocking request on the disk (Timeline::overlap_since).
      if (rt.capturing()) rt.timeline().add_overlap(p.io, rt.timeline().overlap_since(p.overlap_from));
      break;
  }
  if (p.persistent) {
    p.active = false;
  } else {
    rt.requests().remove_oldest(request);
  }
}

// The handles a completion call was given, before it set them to
// MPI_REQUEST_NULL.
thread_local std::vector<MPI_Request> t_before;

void complete_all(Runtime& rt, Fn fn, const CallInfo& c, int n, FileDelay& delay);

// A completion call that took longer than this waited for a request.
constexpr double kBlocked = 20e-6;

int handle_completion(Runtime& rt, Fn fn, CallInfo& c, CallRef call) {
  thread_local std::vector<MPI_Status> statuses;
  const int n = c.nreq;
  t_before.assign(c.requests, c.requests + n);
  MPI_Status single{};
  if (c.status == MPI_STATUS_IGNORE) c.status = &single;
  if (c.statuses == MPI_STATUSES_IGNORE) {
    statuses.resize(static_cast<std::size_t>(std::max(n, 1)));
    c.statuses = statuses.data();
  }
  int rc = MPI_SUCCESS;
  FileDelay delay;
  delay.call_start = now_s();
  const bool waits = fn == Fn::Wait || fn == Fn::Waitall || fn == Fn::Waitany || fn == Fn::Waitsome;
  // A wait, polled by its test (sleep-waiting).
  const auto test = [&](int* done) {
    switch (fn) {
      case Fn::Wait:
        return PMPI_Test(c.requests, done, c.status);
      case Fn::Waitall:
        return PMPI_Testall(n, c.requests, done, c.statuses);
      case Fn::Waitany:
        return PMPI_Testany(n, c.requests, c.index, done, c.status);
      default: {
        const int r = PMPI_Testsome(n, c.requests, c.outcount, c.indices, c.statuses);
        *done = *c.outcount != 0;
        return r;
      }
    }
  };
  const auto by_service = waits ? rt.run_blocking({fn, c, call, nullptr, test}) : std::nullopt;
  rc = by_service ? *by_service : call();
  if (rc != MPI_SUCCESS) {
    rt.leave();
    return rc;
  }
  delay.done_at = now_s();
  delay.blocked = delay.done_at - delay.call_start > kBlocked;
  t_clock_completions.clear();
  complete_all(rt, fn, c, n, delay);
  VirtualClockService& clock = rt.clock();
  for (ClockCompletion& done : t_clock_completions) {
    switch (done.kind) {
      case Kind::recv:
        clock.received(done.comm, &done.status, done.posted_at);
        break;
      case Kind::send:
        clock.synchronous_send_completed(done.comm, done.peer, done.tag, static_cast<std::int64_t>(done.bytes),
                                         done.posted_at);
        break;
      case Kind::neighbour:
        clock.neighbour_completed(done.neighbours.get());
        break;
      case Kind::comm_create:  // the new members meet like a barrier
        if (done.shadows) clock.duplicate_completed(done.newcomm, *done.shadows);
        clock.collective_completed(done.exchange.get(), done.comm, model::Collective::barrier, 0);
        break;
      default:
        clock.collective_completed(done.exchange.get(), done.comm, done.collective, done.bytes);
        break;
    }
  }
  // Under the virtual clock a late completion is a time, not a sleep.
  if (!clock.on()) sleep_io_until(delay.until);
  rt.leave();
  return rc;
}

// The followed requests a completion call completed.
void complete_all(Runtime& rt, Fn fn, const CallInfo& c, int n, FileDelay& delay) {
  const std::vector<MPI_Request>& before = t_before;
  std::lock_guard lock(rt.mutex());
  if (rt.requests().empty()) return;
  // One place for every send the call completes, before the receives it
  // completes are recorded: the call waits for all of them at once.
  const Timeline::Place at = rt.capturing() ? rt.timeline().here() : Timeline::Place{};
  const bool all_done = (fn == Fn::Wait || fn == Fn::Waitall) || ((fn == Fn::Test || fn == Fn::Testall) && *c.flag);
  if (all_done) {
    for (int i = 0; i < n; ++i) {
      if (before[static_cast<std::size_t>(i)] != MPI_REQUEST_NULL) {
        complete(rt, before[static_cast<std::size_t>(i)], fn == Fn::Wait || fn == Fn::Test ? c.status : &c.statuses[i],
                 delay, at);
      }
    }
  } else if (fn == Fn::Waitany || (fn == Fn::Testany && *c.flag)) {
    if (*c.index != MPI_UNDEFINED) complete(rt, before[static_cast<std::size_t>(*c.index)], c.status, delay, at);
  } else if (fn == Fn::Waitsome || fn == Fn::Testsome) {
    if (*c.outcount != MPI_UNDEFINED) {
      for (int k = 0; k < *c.outcount; ++k)
        complete(rt, before[static_cast<std::size_t>(c.indices[k])], &c.statuses[k], delay, at);
    }
  }
}

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

// MPI-IO calls collective over the file's communicator. Under the virtual
// clock they synchronize the ranks first, then their I/O is timed.
bool collective_file_call(Fn fn) {
  switch (fn_base(fn)) {
    case Fn::File_open:
    case Fn::File_close:
    case Fn::File_read_all:
    case Fn::File_read_at_all:
    case Fn::File_read_ordered:
    case Fn::File_write_all:
    case Fn::File_write_at_all:
    case Fn::File_write_ordered:
    case Fn::File_sync:
    case Fn::File_set_size:
    case Fn::File_preallocate:
      return true;
    default:
      return false;
  }
}

void synchronize_file_call(Runtime& rt, Fn fn, MPI_File fh) {
  if (rt.clock().carrying() && collective_file_call(fn)) rt.clock().synchronize(rt.clock().file_comm(fh));
}

// An MPI-IO call's time. Emulating, it is stretched by the emulated disk
// (and so returned), after the time the thread waited for a core is taken
// out, as compute is measured by CPU time (docs/emulation.md); the virtual
// clock's emulated disk times it by what it moved instead.
struct IoTimer {
  explicit IoTimer(const Runtime& rt) : start(now_s()), queued(rt.measures_cpu() ? thread_queued_s() : 0) {}
  double seconds(Runtime& rt, DiskOp op = DiskOp::other, std::int64_t bytes = 0) const {
    const double wall = now_s() - start;
    return rt.time_file_io(rt.measures_cpu() ? wall - (thread_queued_s() - queued) : wall, wall, op, bytes);
  }
  double start;
  double queued;
};

// Opening and closing a file: collective, and disk time under the virtual
// clock (the profile records neither).
int handle_file_open(Runtime& rt, CallInfo& c, CallRef call) {
  if (rt.clock().carrying()) rt.clock().synchronize(c.comm);
  const IoTimer timer(rt);
  const int rc = call();
  if (rt.clock().on()) timer.seconds(rt);
  rt.leave();
  if (rc == MPI_SUCCESS) rt.clock().file_opened(*c.fh_out, c.comm);
  if (rt.following() && rc == MPI_SUCCESS) {
    std::lock_guard lock(rt.mutex());
    rt.files().open(*c.fh_out, c.filename, c.info, rt.world_rank());
  }
  return rc;
}

int handle_file_close(Runtime& rt, CallInfo& c, CallRef call) {
  const MPI_File fh = *c.fh_out;
  synchronize_file_call(rt, Fn::File_close, fh);
  const IoTimer timer(rt);
  const int rc = call();
  if (rt.clock().on()) timer.seconds(rt);
  rt.leave();
  rt.clock().file_closed(fh);
  std::lock_guard lock(rt.mutex());
  rt.files().close(fh);
  return rc;
}

// Where an MPI-IO call reads or writes (FileVariables::note_access).
FilePointer file_pointer(Fn fn) {
  switch (fn_base(fn)) {
    case Fn::File_read_at:
    case Fn::File_read_at_all:
    case Fn::File_read_at_all_begin:
    case Fn::File_write_at:
    case Fn::File_write_at_all:
    case Fn::File_write_at_all_begin:
    case Fn::File_iread_at:
    case Fn::File_iread_at_all:
    case Fn::File_iwrite_at:
    case Fn::File_iwrite_at_all:
      return FilePointer::explicit_offset;
    case Fn::File_read_shared:
    case Fn::File_read_ordered:
    case Fn::File_read_ordered_begin:
    case Fn::File_write_shared:
    case Fn::File_write_ordered:
    case Fn::File_write_ordered_begin:
    case Fn::File_iread_shared:
    case Fn::File_iwrite_shared:
      return FilePointer::shared;
    default:
      return FilePointer::individual;
  }
}

// Blocking MPI-IO: timed, stretched by the emulated disk, recorded.
int handle_file_io(Runtime& rt, Fn fn, bool write, CallInfo& c, CallRef call) {
  synchronize_file_call(rt, fn, c.fh);
  const IoTimer timer(rt);
  const int rc = call();
  const std::int64_t bytes = type_bytes(c.count, c.type);
  const double seconds = timer.seconds(rt, write ? DiskOp::write : DiskOp::read, bytes);
  rt.leave();
  if (!rt.following() || rc != MPI_SUCCESS) return rc;
  std::lock_guard lock(rt.mutex());
  const int variable = rt.files().variable_of(c.fh);
  if (write && rt.capturing()) rt.files().note_write(variable);
  if (rt.capturing()) rt.timeline().blocking_io();  // of any file: one disk
  if (rt.capturing() && variable >= 0) {
    const Timeline::IoRef ref = rt.timeline().add_io(variable, write, bytes, seconds, false);
    if (write) rt.files().note_write_record(variable, ref);
    rt.files().note_access(c.fh, variable, file_pointer(fn), c.offset, bytes);
  }
  rt.file_io({fn, variable, write, bytes});
  rt.call_seen({fn, signature(fn, variable, rt.files().offset_step(c.fh, c.offset), bytes)});
  return rc;
}

// MPI_File_sync (and set_size, preallocate): where a synced write spends
// its time, so the cost of the writes before it. Stretched like them by the
// emulated disk, and recorded with the last write of the file's variable.
int handle_file_sync(Runtime& rt, Fn fn, CallInfo& c, CallRef call) {
  synchronize_file_call(rt, fn, c.fh);
  const IoTimer timer(rt);
  const int rc = call();
  const double seconds = timer.seconds(rt);
  rt.leave();
  if (!rt.capturing() || rc != MPI_SUCCESS) return rc;
  std::lock_guard lock(rt.mutex());
  rt.files().add_to_last_write(rt.timeline(), rt.files().variable_of(c.fh), seconds);
  return rc;
}

// A prefetch issued as a synchronous read while capturing (MHETA §4.1.1,
// Fig 5) hands the program an already complete generalized request, so its
// wait is a no-op whatever wait function it uses.
struct ReadDone {
  MPI_Datatype type;
  MPI_Count count;
};

int query_read(void* state, MPI_Status* status) {
  const auto* done = static_cast<ReadDone*>(state);
  PMPI_Status_set_elements_x(status, done->type, done->count);
  PMPI_Status_set_cancelled(status, 0);
  status->MPI_SOURCE = MPI_UNDEFINED;
  status->MPI_TAG = MPI_UNDEFINED;
  return MPI_SUCCESS;
}
int free_read(void* state) {
  delete static_cast<ReadDone*>(state);
  return MPI_SUCCESS;
}
int cancel_read(void*, int) { return MPI_SUCCESS; }

// The reads take the count of the call, an int's or a large-count twin's:
// MPI-4's large-count reads take either.
#if MPI_VERSION >= 4
#define MHETA_READ(Name) PMPI_##Name##_c
#else
#define MHETA_READ(Name) PMPI_##Name
#endif
int synchronous_read(const CallInfo& c, MPI_Status* status) {
  switch (c.sync_read) {
    case SyncRead::individual:
      return MHETA_READ(File_read)(c.fh, c.buf, c.count, c.type, status);
    case SyncRead::individual_all:
      return MHETA_READ(File_read_all)(c.fh, c.buf, c.count, c.type, status);
    case SyncRead::shared:
      return MHETA_READ(File_read_shared)(c.fh, c.buf, c.count, c.type, status);
    case SyncRead::at:
      return MHETA_READ(File_read_at)(c.fh, c.offset, c.buf, c.count, c.type, status);
    case SyncRead::at_all:
      return MHETA_READ(File_read_at_all)(c.fh, c.offset, c.buf, c.count, c.type, status);
    case SyncRead::none:
      break;
  }
  return MPI_ERR_INTERN;
}
#undef MHETA_READ

// A non-blocking MPI-IO request issued at `timer`'s start, of `seconds` at
// its issue; on an emulated disk it completes at its `turn`.
PendingRequest issued_file_request(Runtime& rt, const IoTimer& timer, bool write, double seconds,
                                   const std::optional<DiskTurn>& turn) {
  PendingRequest file;
  file.kind = Kind::file;
  file.issued_at = timer.start;
  file.issue_seconds = turn ? turn->seconds : seconds;
  file.write = write;
  if (turn) file.disk_done_at = turn->done_at;
  if (rt.clock().on()) {
    file.posted_at = rt.clock().now();
    file.queued_at_issue = timer.queued;
  }
  return file;
}

// An MPI-IO call's access (mutex held): the variable of its file, noted
// as written by a write while capturing, with where it read or wrote.
int note_file_access(Runtime& rt, Fn fn, const CallInfo& c, bool write, std::int64_t bytes) {
  const int variable = rt.files().variable_of(c.fh);
  if (rt.capturing()) {
    if (write) rt.files().note_write(variable);
    rt.files().note_access(c.fh, variable, file_pointer(fn), c.offset, bytes);
  }
  return variable;
}

// A request's I/O recorded where it was issued, while capturing (mutex
// held): its time at the issue now, the rest where it completes.
void record_at_issue(Runtime& rt, int variable, std::int64_t bytes, PendingRequest& file) {
  if (!rt.capturing() || variable < 0) return;
  file.io = rt.timeline().add_io(variable, file.write, bytes, file.issue_seconds, false);
  file.recorded = true;
  if (file.write) rt.files().note_write_record(variable, file.io);
}

// Whether a request issued is followed to its completion: its time is
// recorded, or emulated.
bool followed_to_completion(Runtime& rt, const PendingRequest& file) {
  return file.recorded || file.disk_done_at || rt.file_io_factor() > 1 || rt.clock().on();
}

// An MPI-IO call, told to the services and to detection (mutex held).
void tell_file_io(Runtime& rt, Fn fn, const CallInfo& c, int variable, bool write, std::int64_t bytes) {
  if (!rt.following()) return;
  rt.file_io({fn, variable, write, bytes});
  rt.call_seen({fn, signature(fn, variable, rt.files().offset_step(c.fh, c.offset), bytes)});
}

int handle_file_nonblocking(Runtime& rt, Fn fn, bool write, CallInfo& c, CallRef call) {
  const IoTimer timer(rt);
  const double start = timer.start;
  const bool as_sync_read = !write && rt.capturing() && c.sync_read != SyncRead::none;
  int rc = MPI_SUCCESS;
  if (as_sync_read) {
    MPI_Status status{};
    rc = synchronous_read(c, &status);
    if (rc == MPI_SUCCESS) {
      rc = PMPI_Grequest_start(query_read, free_read, cancel_read, new ReadDone{c.type, c.count}, c.request);
      if (rc == MPI_SUCCESS) PMPI_Grequest_complete(*c.request);
    }
  } else {
    rc = call();
  }
  const double issue_seconds = now_s() - start;
  const std::int64_t bytes = type_bytes(c.count, c.type);
  const DiskOp op = write ? DiskOp::write : DiskOp::read;
  // On an emulated disk the request takes its turn on the disk from its
  // issue; its whole time is known then.
  const std::optional<DiskTurn> turn =
      !as_sync_read && rc == MPI_SUCCESS ? rt.disk_request(op, bytes, start) : std::nullopt;
  const double seconds = as_sync_read ? timer.seconds(rt, op, bytes) : issue_seconds;
  rt.leave();
  if (rc != MPI_SUCCESS) return rc;
  std::lock_guard lock(rt.mutex());
  const int variable = note_file_access(rt, fn, c, write, bytes);
  if (as_sync_read && variable >= 0) {
    const Timeline::IoRef ref = rt.timeline().add_io(variable, false, bytes, seconds, true);
    rt.requests().add(*c.request,
                      {.kind = Kind::prefetch, .overlap_from = rt.timeline().overlap_start(), .io = ref});
  } else {
    PendingRequest file = issued_file_request(rt, timer, write, seconds, turn);
    // ROMIO performs a write's transfer inside the call; its time is the
    // write's, and so is the emulated rest of it, slept where the request
    // completes.
    if (write) record_at_issue(rt, variable, bytes, file);
    if (followed_to_completion(rt, file)) rt.requests().add(*c.request, file);
  }
  tell_file_io(rt, fn, c, variable, write, bytes);
  return rc;
}

// Split collective MPI-IO (MPI_File_read_all_begin ... _end): timed as the
// non-blocking collective I/O it is (MPI_File_iread_all ...), issued at the
// begin (on the emulated disk when the emulation has one)
// and completed at the end. The capture records it as the collective read
// or write it is, where it begins (ROMIO does the transfer there), with the
// time of its end added when that waited (complete_file).
int handle_file_split_begin(Runtime& rt, Fn fn, bool write, CallInfo& c, CallRef call) {
  const IoTimer timer(rt);
  const int rc = call();
  const double issue_seconds = now_s() - timer.start;
  const std::int64_t bytes = type_bytes(c.count, c.type);
  const std::optional<DiskTurn> turn =
      rc == MPI_SUCCESS ? rt.disk_request(write ? DiskOp::write : DiskOp::read, bytes, timer.start) : std::nullopt;
  rt.leave();
  if (rc != MPI_SUCCESS) return rc;
  std::lock_guard lock(rt.mutex());
  const int variable = note_file_access(rt, fn, c, write, bytes);
  PendingRequest file = issued_file_request(rt, timer, write, issue_seconds, turn);
  record_at_issue(rt, variable, bytes, file);
  if (followed_to_completion(rt, file)) rt.split_file_io()[c.fh] = file;
  tell_file_io(rt, fn, c, variable, write, bytes);
  return rc;
}

int handle_file_split_end(Runtime& rt, CallInfo& c, CallRef call) {
  FileDelay delay;
  delay.call_start = now_s();
  const int rc = call();
  delay.done_at = now_s();
  delay.blocked = delay.done_at - delay.call_start > kBlocked;
  {
    std::lock_guard lock(rt.mutex());
    const auto begun = rt.split_file_io().find(c.fh);
    if (begun != rt.split_file_io().end()) {
      if (rc == MPI_SUCCESS) complete_file(rt, begun->second, delay);
      rt.split_file_io().erase(begun);
    }
  }
  // Under the virtual clock a late completion is a time, not a sleep.
  if (!rt.clock().on()) sleep_io_until(delay.until);
  rt.leave();
  return rc;
}

// A probe waits like a receive (without spinning when waits sleep) and is
// never compute; it takes nothing from the message.
int handle_probe(Runtime& rt, Fn fn, CallInfo& c, CallRef call) {
  int rc = MPI_SUCCESS;
  if (fn == Fn::Probe && rt.settings().wait == WaitMode::sleep) {
    rc = poll_with_sleeps([&](int* done) { return PMPI_Iprobe(c.peer, c.tag, c.comm, done, c.status); });
  } else {
    rc = call();
  }
  rt.leave();
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

// A matched probe (MPI_Mprobe, MPI_Improbe) takes the message's send time:
// the receive of the matched message (MPI_Mrecv, MPI_Imrecv) cannot be told
// from the status, and the message has arrived when the probe finds it.
int handle_mprobe(Runtime& rt, Fn fn, CallInfo& c, CallRef call) {
  MPI_Status local{};
  if (rt.clock().carrying() && c.status == MPI_STATUS_IGNORE) c.status = &local;
  const double posted = rt.clock().now();
  int found = 1;
  int rc = MPI_SUCCESS;
  if (fn == Fn::Mprobe && rt.settings().wait == WaitMode::sleep) {
    rc = poll_with_sleeps([&](int* done) { return PMPI_Improbe(c.peer, c.tag, c.comm, done, c.message, c.status); });
  } else {
    rc = call();
    if (c.flag != nullptr) found = *c.flag;
  }
  rt.leave();
  if (rc == MPI_SUCCESS && found) rt.clock().received(c.comm, c.status, posted);
  return rc;
}

// MPI_Isendrecv(_replace): the send time goes ahead; one request completes
// both halves. The capture records it as them: its send where it is posted,
// as an Isend's, and its receive where the request completes, as an
// Irecv's; detection sees one call, as a Sendrecv.
int handle_isendrecv(Runtime& rt, Fn fn, CallInfo& c, CallRef call) {
  VirtualClockService& clock = rt.clock();
  const std::int64_t sent_bytes = c.peer == MPI_PROC_NULL ? 0 : type_bytes(c.count, c.type);
  // Both halves complete by one request, timed from when the send's bytes
  // start out; the receive half counts as posted then too, which only a
  // synchronous send it answers would see (a little late while earlier
  // sends still hold the link).
  const double posted = clock.send_posted(c.comm, c.peer, c.tag, sent_bytes);
  const int rc = call();
  rt.leave();
  if (rc != MPI_SUCCESS) return rc;
  const bool following = rt.following();
  if (following) see_sendrecv(rt, fn, c);
  const bool between = following && between_ranks(c.comm);
  if (!between && !clock.carrying()) return rc;
  std::lock_guard lock(rt.mutex());
  PendingRequest pending{.kind = Kind::sendrecv,
                         .comm = c.comm,
                         .peer = c.peer,
                         .tag = c.tag,
                         .bytes = sent_bytes,
                         .io = {},
                         .between = between};
  pending.posted_at = posted;
  pending.recv_peer = c.peer2;
  pending.recv_tag = c.tag2;
  pending.recv_bytes = type_bytes(c.count2, c.type2);
  if (between && c.peer != MPI_PROC_NULL) {
    pending.sent = record_message(rt, fn, model::CommKind::send, c.comm, c.peer, sent_bytes, c.tag, true);
  }
  if (between && c.peer2 != MPI_PROC_NULL) post_receive(rt, fn, c.peer2, pending.recv_bytes, c.tag2);
  rt.requests().add(*c.request, pending);
  return rc;
}

// A persistent collective: each MPI_Start posts its entry time, and is
// recorded where it starts, as a non-blocking collective is where it is
// posted.
int handle_collective_init(Runtime& rt, CallInfo& c, CallRef call) {
  const int rc = call();
  rt.leave();
  if (rc != MPI_SUCCESS || (!rt.clock().carrying() && !rt.following())) return rc;
  PendingRequest pending{.kind = Kind::collective,
                         .comm = c.comm,
                         .bytes = priced_bytes(c),
                         .io = {},
                         .collective = c.collective};
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

// Windows: the virtual clock keeps a communicator of each one's group, on
// which their fences meet like a barrier. The capture records the one-sided
// communication of windows whose ranks are all of MPI_COMM_WORLD
// (captured_windows.hpp); with several threads, only the fences of windows
// of MPI_COMM_WORLD keep one order on every rank, as for collectives
// (communicators.hpp).
int handle_win_create(Runtime& rt, CallInfo& c, CallRef call) {
  const int rc = call();
  if (rc == MPI_SUCCESS) rt.clock().window_created(*c.win_out, c.comm);
  if (rc == MPI_SUCCESS && rt.following() && c.comm != MPI_COMM_NULL) {
    std::vector<int> world = world_members(c.comm);
    const bool over_all = over_all_ranks(c.comm, rt.world_size()) && counts_for_detection(c.comm, rt.thread_level());
    if (std::find(world.begin(), world.end(), MPI_UNDEFINED) == world.end()) {
      std::lock_guard lock(rt.mutex());
      rt.windows().add(*c.win_out, std::move(world), over_all);
    }
  }
  rt.leave();
  return rc;
}

int handle_win_free(Runtime& rt, CallInfo& c, CallRef call) {
  const MPI_Win win = *c.win_out;
  const int rc = call();
  rt.leave();
  if (rc == MPI_SUCCESS) {
    rt.clock().window_freed(win);
    std::lock_guard lock(rt.mutex());
    rt.windows().remove(win);
  }
  return rc;
}

// A put, get or accumulate: its bytes go out on the rank's link (the call
// that ends its epoch waits for them). Captured (a get priced as a put of
// its bytes, as the virtual clock does): in a general active target epoch,
// added to what the origin sends the target at its MPI_Win_complete; in a
// passive target or a fence epoch, a non-blocking send to the target,
// completed at the flush or unlock that completes it, or at the fence that
// ends the epoch.
int handle_win_transfer(Runtime& rt, Fn fn, CallInfo& c, CallRef call) {
  const int rc = call();
  rt.leave();
  if (rc != MPI_SUCCESS) return rc;
  const std::int64_t bytes = type_bytes(c.count, c.type);
  rt.clock().window_transfer(c.win, c.peer, bytes);
  if (!rt.following() || c.peer < 0) return rc;
  {
    std::lock_guard lock(rt.mutex());
    CapturedWindow* w = rt.windows().find(c.win);
    if (w == nullptr || static_cast<std::size_t>(c.peer) >= w->world.size()) return rc;
    const int target = w->world[static_cast<std::size_t>(c.peer)];
    if (target != rt.world_rank()) {  // else no message between ranks
      if (!w->targets.empty()) {
        w->put_bytes[target] = add_bytes(w->put_bytes[target], bytes);
      } else if ((w->locks > 0 || w->over_all) && rt.capturing()) {
        const Timeline::CommRef sent =
            rt.timeline().add_comm(message(model::CommKind::send, target, bytes, kWindowTag, true), -1);
        if (w->locks > 0) {
          w->passive.emplace_back(target, sent);
        } else {
          w->pending.push_back(sent);
        }
      }
    }
  }
  see_call(rt, fn, c.peer, kWindowTag, bytes);
  return rc;
}

// A fence of a window over every rank (mutex held): its epoch's transfers
// completed there, then a barrier, numbered among the collectives while
// calls are followed, like any collective over every rank.
void record_fence(Runtime& rt, Fn fn, CapturedWindow& w) {
  if (rt.capturing()) {
    const Timeline::Place here = rt.timeline().here();
    for (const Timeline::CommRef& transfer : w.pending) rt.timeline().complete(transfer, here);
  }
  w.pending.clear();
  record_collective(rt, fn, {.collective = Collective::barrier}, true, false);
}

// The other ranks of `group` as ranks of MPI_COMM_WORLD.
std::vector<int> others_of(const Runtime& rt, MPI_Group group) {
  std::vector<int> world = world_ranks_of(group);
  std::erase_if(world, [&](int r) { return r == MPI_UNDEFINED || r == rt.world_rank(); });
  return world;
}

// General active target (mutex held; captured_windows.hpp). MPI_Win_post:
// a notice to each origin.
void record_post(Runtime& rt, Fn fn, CapturedWindow& w, MPI_Group group) {
  w.origins = others_of(rt, group);
  w.notices.clear();
  for (const int origin : w.origins) {
    w.notices.push_back(record_world_message(rt, fn, model::CommKind::send, origin, 0, kEpochTag, true));
  }
}

// MPI_Win_start: the targets whose notices its complete waits for.
void record_start(const Runtime& rt, CapturedWindow& w, MPI_Group group) {
  w.targets = others_of(rt, group);
  w.put_bytes.clear();
}

// MPI_Win_complete: for each target in turn, its notice, then the bytes put
// there, which go as soon as that target's post is known (not after every
// target's: an earlier target's bytes are not held by a later post).
void record_complete(Runtime& rt, Fn fn, CapturedWindow& w) {
  std::vector<Timeline::CommRef> sent;
  for (const int target : w.targets) {
    record_world_message(rt, fn, model::CommKind::recv, target, 0, kEpochTag);
    sent.push_back(record_world_message(rt, fn, model::CommKind::send, target, w.put_bytes[target], kEpochTag, true));
  }
  if (rt.capturing()) {
    const Timeline::Place here = rt.timeline().here();
    for (const Timeline::CommRef& s : sent) rt.timeline().complete(s, here);
  }
  w.targets.clear();
  w.put_bytes.clear();
}

// MPI_Win_wait (or an MPI_Win_test that returned true): what each origin sent.
void record_wait(Runtime& rt, Fn fn, CapturedWindow& w) {
  if (rt.capturing()) {
    const Timeline::Place here = rt.timeline().here();
    for (const Timeline::CommRef& notice : w.notices) rt.timeline().complete(notice, here);
  }
  for (const int origin : w.origins) record_world_message(rt, fn, model::CommKind::recv, origin, 0, kEpochTag);
  w.origins.clear();
  w.notices.clear();
}

// Passive target (mutex held): a lock opens an epoch; a flush or an unlock
// completes the transfers to its target (`peer`, a rank of the window's
// group) or to every target, and an unlock closes the epoch. A local flush
// completes them too: their bytes have left, which is what the model's
// completion waits for; the target's receive waits for their arrival.
void record_passive_sync(Runtime& rt, Fn fn, Category category, CapturedWindow& w, const CallInfo& c) {
  const Fn base = fn_base(fn);
  if (category == Category::win_lock) {  // MPI_Win_sync too, which opens nothing
    if (base == Fn::Win_lock || base == Fn::Win_lock_all) ++w.locks;
    return;
  }
  const bool every = c.every_target;
  const int target = !every && c.peer >= 0 && static_cast<std::size_t>(c.peer) < w.world.size()
                         ? w.world[static_cast<std::size_t>(c.peer)]
                         : -1;
  const auto done = [&](const std::pair<int, Timeline::CommRef>& t) { return every || t.first == target; };
  if (rt.capturing()) {
    const Timeline::Place here = rt.timeline().here();
    for (const auto& transfer : w.passive) {
      if (done(transfer)) rt.timeline().complete(transfer.second, here);
    }
  }
  std::erase_if(w.passive, done);
  if ((base == Fn::Win_unlock || base == Fn::Win_unlock_all) && w.locks > 0) --w.locks;
}

// The one-sided synchronization the capture records (mutex held). For a
// fence of a recorded window, whether it is over every rank (a collective
// point for detection); none for any other call.
std::optional<bool> record_window_sync(Runtime& rt, Fn fn, Category category, const CallInfo& c) {
  CapturedWindow* w = rt.windows().find(c.win);
  if (w == nullptr) return std::nullopt;
  switch (category) {
    case Category::win_fence:
      if (w->over_all) record_fence(rt, fn, *w);
      return w->over_all;
    case Category::win_post:
      record_post(rt, fn, *w, c.group);
      break;
    case Category::win_start:
      record_start(rt, *w, c.group);
      break;
    case Category::win_complete:
      record_complete(rt, fn, *w);
      break;
    case Category::win_wait:
      if (c.flag == nullptr || *c.flag != 0) record_wait(rt, fn, *w);
      break;
    case Category::win_lock:
    case Category::win_flush:
    case Category::win_flush_local:
      record_passive_sync(rt, fn, category, *w, c);
      break;
    default:
      break;
  }
  return std::nullopt;
}

// One-sided synchronization: the fence, general active target (post,
// start, complete, wait, test) and passive target (lock, unlock, flush,
// sync). It runs as it is, and the time a rank spends in it is no compute;
// then the clock follows it (virtual_clock_windows.cpp) on a window it saw
// created. A window it did not (a large-count MPI_Win_create_c) is not
// followed: its calls are no time on the clock, said once.
int handle_win_sync(Runtime& rt, Fn fn, Category category, CallInfo& c, CallRef call) {
  const int rc = call();
  rt.leave();
  if (rc == MPI_SUCCESS && rt.following()) {
    std::optional<bool> fence_over_all;
    {
      std::lock_guard lock(rt.mutex());
      fence_over_all = record_window_sync(rt, fn, category, c);
    }
    if (fence_over_all) see_call(rt, fn, 0, 0, 0, *fence_over_all);  // over every rank: like a barrier
  }
  VirtualClockService& clock = rt.clock();
  if (rc != MPI_SUCCESS || !clock.carrying()) return rc;
  bool followed = true;
  switch (category) {
    case Category::win_fence:
      followed = clock.fence(c.win);
      break;
    case Category::win_post:
      followed = clock.window_posted(c.win, c.group);
      break;
    case Category::win_start:
      followed = clock.window_started(c.win, c.group);
      break;
    case Category::win_complete:
      followed = clock.window_completed(c.win);
      break;
    case Category::win_wait:  // MPI_Win_test ends the epoch only when it returns true
      followed = c.flag != nullptr && *c.flag == 0 ? clock.knows_window(c.win) : clock.window_waited(c.win);
      break;
    case Category::win_flush:
    case Category::win_flush_local:
      followed = clock.window_flushed(c.win, c.peer, c.every_target, category == Category::win_flush_local);
      break;
    default:  // a lock or MPI_Win_sync: no time
      followed = clock.knows_window(c.win);
      break;
  }
  static std::atomic<bool> said{false};
  if (!followed && clock.on() && !said.exchange(true)) {
    std::fprintf(stderr,
                 "mheta interpose (rank %d): the virtual clock does not follow %s on a window it did not see "
                 "created (MPI_Win_create_c, MPI_Win_allocate_c, ...), nor any synchronization of such a window: "
                 "the time a rank spends in one is no time on its clock and synchronizes no other rank's\n",
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

int handle(Runtime& rt, Fn fn, Category category, CallInfo& c, CallRef call, NonblockingRef nb) {
  switch (category) {
    case Category::send:
      return handle_send(rt, fn, c, call, nb);
    case Category::recv:
      return handle_recv(rt, fn, c, call, nb);
    case Category::sendrecv:
      return handle_sendrecv(rt, fn, c, call);
    case Category::isend:
    case Category::irecv:
    case Category::send_init:
    case Category::recv_init:
      return handle_post(rt, fn, category, c, call);
    case Category::start:
      return handle_start(rt, fn, c, call);
    case Category::request_free:
      return handle_request_free(rt, c, call);
    case Category::completion:
      return handle_completion(rt, fn, c, call);
    case Category::collective:
    case Category::icollective:  // posting one is the synchronizing step the model prices
      return handle_collective(rt, fn, category, c, call, nb);
    case Category::file_open:
      return handle_file_open(rt, c, call);
    case Category::file_close:
      return handle_file_close(rt, c, call);
    case Category::file_read:
      return handle_file_io(rt, fn, false, c, call);
    case Category::file_write:
      return handle_file_io(rt, fn, true, c, call);
    case Category::file_iread:
      return handle_file_nonblocking(rt, fn, false, c, call);
    case Category::file_iwrite:
      return handle_file_nonblocking(rt, fn, true, c, call);
    case Category::file_sync:
      return handle_file_sync(rt, fn, c, call);
    case Category::probe:
    case Category::mrecv:  // never compute; the message's time was taken by its probe
      return handle_probe(rt, fn, c, call);
    case Category::isendrecv:
      return handle_isendrecv(rt, fn, c, call);
    case Category::mprobe:
      return handle_mprobe(rt, fn, c, call);
    case Category::collective_init:
      return handle_collective_init(rt, c, call);
    case Category::comm_icreate:
      return handle_comm_icreate(rt, c, call);
    case Category::comm_create:
      return handle_comm_create(rt, fn, c, call);
    case Category::comm_free:
      return handle_comm_free(rt, c, call);
    case Category::comm_connect:
      return handle_comm_connect(rt, fn, c, call);
    case Category::neighbour:
    case Category::ineighbour:
    case Category::neighbour_init:
      return handle_neighbour(rt, fn, category, c, call, nb);
    case Category::file_split_read:
      return handle_file_split_begin(rt, fn, false, c, call);
    case Category::file_split_write:
      return handle_file_split_begin(rt, fn, true, c, call);
    case Category::file_split_end:
      return handle_file_split_end(rt, c, call);
    case Category::win_create:
      return handle_win_create(rt, c, call);
    case Category::win_free:
      return handle_win_free(rt, c, call);
    case Category::win_transfer:
      return handle_win_transfer(rt, fn, c, call);
    case Category::win_fence:
    case Category::win_post:
    case Category::win_start:
    case Category::win_complete:
    case Category::win_wait:
    case Category::win_lock:
    case Category::win_flush:
    case Category::win_flush_local:
      return handle_win_sync(rt, fn, category, c, call);
  }
  return call();
}

// Calls in progress on this process's threads. Two at once: the virtual
// clock cannot order the ranks' events and falls back to the wall clock.
std::atomic<int> g_calls_inside{0};

class CallInside {
 public:
  explicit CallInside(Runtime& rt) {
    if (g_calls_inside.fetch_add(1, std::memory_order_acq_rel) > 0 && rt.clock().on()) rt.clock().fall_back();
  }
  ~CallInside() { g_calls_inside.fetch_sub(1, std::memory_order_acq_rel); }
  CallInside(const CallInside&) = delete;
  CallInside& operator=(const CallInside&) = delete;
};

}  // namespace

int dispatch(Fn fn, Category category, CallInfo& c, CallRef call, NonblockingRef nb) {
  const ReentryGuard guard;
  if (guard.nested()) return call();
  Runtime& rt = Runtime::get();
  const CallInside inside(rt);
  rt.enter(fn);
  const int rc = handle(rt, fn, category, c, call, nb);
  rt.after_call(fn);
  return rc;
}

}  // namespace mheta::interpose
