#pragma once
// What the category handlers share. dispatch.cpp sends every intercepted
// call to the handler of its category, in one of the files beside it:
// message_handlers.cpp (point-to-point), collective_handlers.cpp
// (collectives and communicators), completion_handlers.cpp (waits and
// tests), file_handlers.cpp (MPI-IO), window_handlers.cpp (one-sided);
// handler_support.cpp holds what several of them record and measure.
#include <mpi.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "interpose/call.hpp"
#include "interpose/call_signature.hpp"
#include "interpose/neighbour_messages.hpp"
#include "interpose/request_table.hpp"
#include "interpose/runtime.hpp"
#include "interpose/service.hpp"
#include "interpose/timeline.hpp"
#include "model/collective.hpp"

namespace mheta::interpose::handlers {

using Kind = PendingRequest::Kind;

// handler_support.cpp: what several handlers record and measure.

// What detection knows a call by (mutex() held): its function, two numbers
// (peer and tag, the variable of a file) and the size class of its data
// (bytes rounded to a power of two), so that the levels of a multigrid
// cycle, exchanging halos of halving sizes, are different calls, while a
// message whose size drifts a little stays the same call, and one whose
// size changes every step is seen so (varying_values.hpp). Its loose
// signature leaves the size out (call_signature.hpp).
CallSignature signature(Runtime& rt, Fn fn, int a, int b, std::int64_t bytes);
// The same for a call whose second number is a step that may vary (a
// file's offset step): its loose signature leaves the step out too.
struct SeenStep {
  int step = 0;
  bool varies = false;      // it was seen as varying
  bool steps_vary = false;  // some of the call's steps were (varying_values.hpp, see())
};
CallSignature signature_of_step(Runtime& rt, Fn fn, int a, const SeenStep& step, std::int64_t bytes);

// Two numbers of a call in one (a Sendrecv's two peers, the requests a
// Startall starts).
std::uint32_t combine(std::uint32_t a, std::uint32_t b);

// Byte counts summed, stopping at the largest instead of wrapping.
std::int64_t add_bytes(std::int64_t a, std::int64_t b);

// The bytes of `count` elements of `type`.
std::int64_t type_bytes(MPI_Count count, MPI_Datatype type);

// The bytes a completed receive got.
std::int64_t received_bytes(const MPI_Status* status);

// A message as the profile records it.
model::CommOp message(model::CommKind kind, int world_peer, std::int64_t bytes, int tag, bool nonblocking = false,
                      std::int64_t segments = 1);

// What one rank contributes to a collective (docs/interpose.md), in the
// unit of the cluster's curve for it and of the emulated network's price
// (virtual_time.hpp): per peer for alltoall(v/w), so an alltoallv gives the
// mean of its sends where an alltoall gives its send count.
std::int64_t collective_bytes(const CallInfo& c);

// What the emulated network prices one rank's part of a collective at
// (virtual_time.hpp): its own bytes, but a gather or reduce-scatter of
// unequal blocks (allgatherv, reduce_scatter) goes at its largest block on
// every rank. MPICH moves large ones round a ring, each of whose P - 1
// steps forwards some rank's block, so no rank is done before the largest
// has passed through it; the model prices them so (docs/model.md,
// "Collectives whose bytes follow the rows").
std::int64_t priced_bytes(const CallInfo& c);

// A blocking call, run by a service its own way (sleep-waiting) or as it is.
int run_blocking(Runtime& rt, Fn fn, CallInfo& c, CallRef call, NonblockingRef nonblocking);

// A message a rank sends itself (a periodic dimension of one rank in a
// Cartesian grid, a ring of one) is a copy in its memory, no message
// between ranks: not recorded. Its receive still ends a section while
// capturing, as any receive does (Timeline::receive_from_nobody): the
// compute after it may use what arrived.
Timeline::CommRef message_to_self(Runtime& rt, model::CommKind kind);

// A message sent or received: numbered in its channel, recorded while
// capturing (where: a non-blocking send's completion is recorded with it),
// told to the services.
Timeline::CommRef record_world_message(Runtime& rt, Fn fn, model::CommKind kind, int world_peer, std::int64_t bytes,
                                       int tag, bool nonblocking = false, std::int64_t segments = 1);

// The same for a peer of `comm`. A peer outside MPI_COMM_WORLD (a spawned
// process on a merged communicator) is no rank of the profile: its
// messages are not recorded.
Timeline::CommRef record_message(Runtime& rt, Fn fn, model::CommKind kind, MPI_Comm comm, int peer, std::int64_t bytes,
                                 int tag, bool nonblocking = false, std::int64_t segments = 1);

// The contiguous blocks `count` elements of `type` lie in, as a send's
// record keeps them (model::CommOp::segments, datatype_segments.hpp), while
// capturing; 1 otherwise. One call to MPI for a predefined type, more for a
// derived one: never on the default mode's path once capturing is over.
std::int64_t segments_while_capturing(Runtime& rt, MPI_Count count, MPI_Datatype type);
// The same whatever the phase (a persistent send's, once at its init): at
// least 1, as a send's record keeps them.
std::int64_t message_segments(MPI_Count count, MPI_Datatype type);

// Every call of a function is one call for detection, with the peer and
// tag it was given (a wildcard receive is the same call whichever message
// it gets), whether or not it is a message between ranks (MPI_PROC_NULL,
// MPI_COMM_SELF): the run's iterations are counted after detection by every
// call of the function that ends one (boundary_counter.hpp), so detection
// must see every call of it too.
void see_call(Runtime& rt, Fn fn, int peer, int tag, std::int64_t bytes, bool collective_point = false);

// A neighbourhood collective's blocks sent (mutex held): a non-blocking
// send to each destination (neighbour_messages.hpp), of `tag`
// (kNeighbourTag; kGroupTag for the rounds of a non-blocking collective
// over a group); where each is recorded.
std::vector<Timeline::CommRef> record_neighbour_sends(Runtime& rt, Fn fn, const NeighbourMessages& m,
                                                      int tag = kNeighbourTag);

// Where it completes, at `at` of the captured timeline (mutex held): its
// sends completed there, then its blocks received, as a wait on the same
// exchange of Isends and Irecvs records them.
void record_neighbour_completion(Runtime& rt, Fn fn, const NeighbourMessages& m, std::vector<Timeline::CommRef>& sent,
                                 Timeline::Place at, int tag = kNeighbourTag);

// A collective call as the capture records it: what one rank contributes
// in the profile's unit (collective_bytes) and at the emulated network's
// price (priced_bytes).
struct CollectiveCall {
  MPI_Comm comm = MPI_COMM_NULL;
  Collective collective = Collective::barrier;
  std::int64_t bytes = 0;
  std::int64_t priced_bytes = 0;
};

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

// A completion call that took longer than this waited for a request.
constexpr double kBlocked = 20e-6;

// A collective followed (mutex held): over every rank (`all`), numbered
// among the collectives and recorded while capturing; over some, as the
// messages of its rounds; with several threads, only those of
// MPI_COMM_WORLD keep one order on every rank. `posted`: non-blocking (an
// MPI_I... call, a persistent one's start), recorded as such so that its
// completion can be recorded with it (the returned place, or the rounds'
// sends: group_round_messages).
RecordedCollective record_collective(Runtime& rt, Fn fn, const CollectiveCall& call, bool all, bool posted);

// The handlers, by file.

// message_handlers.cpp
int handle_send(Runtime& rt, Fn fn, CallInfo& c, CallRef call, NonblockingRef nb);
int handle_recv(Runtime& rt, Fn fn, CallInfo& c, CallRef call, NonblockingRef nb);
int handle_sendrecv(Runtime& rt, Fn fn, CallInfo& c, CallRef call);
int handle_isendrecv(Runtime& rt, Fn fn, CallInfo& c, CallRef call);
int handle_post(Runtime& rt, Fn fn, Category category, CallInfo& c, CallRef call);
int handle_start(Runtime& rt, Fn fn, CallInfo& c, CallRef call);
int handle_request_free(Runtime& rt, CallInfo& c, CallRef call);
int handle_probe(Runtime& rt, Fn fn, CallInfo& c, CallRef call);
int handle_partitioned(Runtime& rt, Fn fn, CallInfo& c, CallRef call);
int handle_mprobe(Runtime& rt, Fn fn, CallInfo& c, CallRef call);

// collective_handlers.cpp
int handle_collective(Runtime& rt, Fn fn, Category category, CallInfo& c, CallRef call, NonblockingRef nb);
int handle_collective_init(Runtime& rt, CallInfo& c, CallRef call);
int handle_neighbour(Runtime& rt, Fn fn, Category category, CallInfo& c, CallRef call, NonblockingRef nb);
int handle_comm_create(Runtime& rt, Fn fn, CallInfo& c, CallRef call);
int handle_comm_icreate(Runtime& rt, CallInfo& c, CallRef call);
int handle_comm_connect(Runtime& rt, Fn fn, CallInfo& c, CallRef call);
int handle_comm_free(Runtime& rt, CallInfo& c, CallRef call);

// completion_handlers.cpp
int handle_completion(Runtime& rt, Fn fn, CallInfo& c, CallRef call);

// file_handlers.cpp
int handle_file_open(Runtime& rt, CallInfo& c, CallRef call);
int handle_file_close(Runtime& rt, CallInfo& c, CallRef call);
int handle_file_io(Runtime& rt, Fn fn, bool write, CallInfo& c, CallRef call);
int handle_file_sync(Runtime& rt, Fn fn, CallInfo& c, CallRef call);
int handle_file_control(Runtime& rt, Fn fn, CallInfo& c, CallRef call);
int handle_file_nonblocking(Runtime& rt, Fn fn, bool write, CallInfo& c, CallRef call);
int handle_file_split_begin(Runtime& rt, Fn fn, bool write, CallInfo& c, CallRef call);
int handle_file_split_end(Runtime& rt, CallInfo& c, CallRef call);
// Where a wait, a test or a split collective's end completes a
// non-blocking MPI-IO request.
void complete_file(Runtime& rt, PendingRequest& p, FileDelay& delay);

// window_handlers.cpp
int handle_win_create(Runtime& rt, CallInfo& c, CallRef call);
int handle_win_free(Runtime& rt, CallInfo& c, CallRef call);
int handle_win_transfer(Runtime& rt, Fn fn, Category category, CallInfo& c, CallRef call);
int handle_win_sync(Runtime& rt, Fn fn, Category category, CallInfo& c, CallRef call);

}  // namespace mheta::interpose::handlers
