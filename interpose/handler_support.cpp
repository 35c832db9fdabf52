// What several category handlers record and measure: a call's signature for
// detection, its bytes, its messages and collectives as the capture records them.
#include <algorithm>
#include <bit>
#include <limits>
#include <mutex>
#include <vector>

#include "interpose/communicators.hpp"
#include "interpose/datatype_segments.hpp"
#include "interpose/group_collective.hpp"
#include "interpose/handlers.hpp"
#include "interpose/neighbour_messages.hpp"
#include "interpose/runtime.hpp"

namespace mheta::interpose::handlers {

namespace {

// Byte counts of the large-count calls (MPI_Count counts of MPI_Count-sized
// datatypes) may not fit: they stop at the largest, never wrap negative.
constexpr std::int64_t kMostBytes = std::numeric_limits<std::int64_t>::max();

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

}  // namespace

namespace {

// `b.step` is in the loose signature unless it is a value that may vary
// (`b.varies` then says whether it was seen to, `b.steps_vary` whether some
// of the call's were).
CallSignature compose(Runtime& rt, Fn fn, int a, const SeenStep& b, std::int64_t bytes, bool b_may_vary) {
  const std::uint64_t to =
      (static_cast<std::uint64_t>(fn) << 48) ^ (static_cast<std::uint64_t>(static_cast<std::uint32_t>(a)) << 20);
  // Whether its sizes vary (varying_values.hpp) is a question about a
  // function and peer, whatever the tag or the file's offset: a tag or an
  // offset that changes every step (seen as a step, or as varying, only
  // after some) would make every call a new one, and its sizes would be
  // found varying only after that. A size that varies is seen as one no
  // size class is: 127 bits; a step that varies as one no step is.
  constexpr std::uint64_t kVaryingSize = 127;
  constexpr int kVaryingStep = 0x7fffffff;
  const std::int64_t size = std::max<std::int64_t>(0, bytes);
  const auto size_class = static_cast<std::uint64_t>(std::bit_width(static_cast<std::uint64_t>(size)));
  const VaryingValues::Seen sized = rt.varying_values().see(to, size, static_cast<std::int64_t>(size_class));
  const auto term = [](int v) { return static_cast<std::uint64_t>(static_cast<std::uint32_t>(v)) * 0x9E3779B1ULL; };
  const std::uint64_t b_term = term(b.step);
  CallSignature s;
  s.exact = to ^ ((sized.varies ? kVaryingSize : size_class) << 40) ^ term(b.varies ? kVaryingStep : b.step);
  s.classed = to ^ (size_class << 40) ^ b_term;
  s.content = to ^ ((sized.call_varies ? kVaryingSize : size_class) << 40) ^
              term(b.varies || b.steps_vary ? kVaryingStep : b.step);
  s.loose = ((b_may_vary ? to : to ^ b_term) & ~kVaries) | (sized.varies || b.varies ? kVaries : 0);
  return s;
}

}  // namespace

CallSignature signature(Runtime& rt, Fn fn, int a, int b, std::int64_t bytes) {
  return compose(rt, fn, a, {.step = b}, bytes, false);
}

CallSignature signature_of_step(Runtime& rt, Fn fn, int a, const SeenStep& step, std::int64_t bytes) {
  return compose(rt, fn, a, step, bytes, true);
}

std::uint32_t combine(std::uint32_t a, std::uint32_t b) { return a * 65599U + b; }

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

model::CommOp message(model::CommKind kind, int world_peer, std::int64_t bytes, int tag, bool nonblocking,
                      std::int64_t segments) {
  return {
      .kind = kind, .peer = world_peer, .bytes = bytes, .tag = tag, .nonblocking = nonblocking, .segments = segments};
}

std::int64_t message_segments(MPI_Count count, MPI_Datatype type) {
  return std::max<std::int64_t>(1, datatype_segments(count, type));
}

std::int64_t segments_while_capturing(Runtime& rt, MPI_Count count, MPI_Datatype type) {
  return rt.capturing() ? message_segments(count, type) : 1;
}

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

std::int64_t priced_bytes(const CallInfo& c) {
  if (c.counts.empty() || c.collective == Collective::alltoall) return collective_bytes(c);
  int size = 1;
  PMPI_Comm_size(c.comm, &size);
  MPI_Count largest = 0;
  for (int i = 0; i < size; ++i) largest = std::max(largest, c.counts[i]);
  return type_bytes(largest, c.type);
}

int run_blocking(Runtime& rt, Fn fn, CallInfo& c, CallRef call, NonblockingRef nonblocking) {
  if (nonblocking) {
    if (const auto rc = rt.run_blocking({fn, c, call, nonblocking, nullptr})) return *rc;
  }
  return call();
}

Timeline::CommRef message_to_self(Runtime& rt, model::CommKind kind) {
  if (kind == model::CommKind::recv && rt.capturing()) rt.timeline().receive_from_nobody();
  return {};
}

Timeline::CommRef record_world_message(Runtime& rt, Fn fn, model::CommKind kind, int world_peer, std::int64_t bytes,
                                       int tag, bool nonblocking, std::int64_t segments) {
  if (world_peer == rt.world_rank()) return message_to_self(rt, kind);
  Timeline::CommRef recorded;
  const std::int64_t number = rt.channels().next({kind, world_peer, tag});
  if (rt.capturing()) {
    recorded = rt.timeline().add_comm(message(kind, world_peer, bytes, tag, nonblocking, segments), number);
  }
  rt.message({fn, kind == model::CommKind::send ? MessageEvent::Kind::send : MessageEvent::Kind::recv, world_peer,
              bytes, tag});
  return recorded;
}

Timeline::CommRef record_message(Runtime& rt, Fn fn, model::CommKind kind, MPI_Comm comm, int peer, std::int64_t bytes,
                                 int tag, bool nonblocking, std::int64_t segments) {
  const int world_peer = world_rank_of(comm, peer);
  if (world_peer == MPI_UNDEFINED) return {};
  return record_world_message(rt, fn, kind, world_peer, bytes, tag, nonblocking, segments);
}

void see_call(Runtime& rt, Fn fn, int peer, int tag, std::int64_t bytes, bool collective_point) {
  std::lock_guard lock(rt.mutex());
  // A call to MPI_PROC_NULL carries no message, and its tag tells nothing:
  // a boundary rank posts its missing neighbours' receives under all the
  // tags of its step, which would look like tags that step.
  const int seen_tag = peer == MPI_PROC_NULL ? 0 : rt.tag_steps().seen(fn, peer, tag);
  rt.call_seen({fn, signature(rt, fn, peer, seen_tag, bytes), collective_point});
}

std::vector<Timeline::CommRef> record_neighbour_sends(Runtime& rt, Fn fn, const NeighbourMessages& m, int tag) {
  std::vector<Timeline::CommRef> sent;
  sent.reserve(m.sends.size());
  for (const NeighbourMessage& block : m.sends) {
    sent.push_back(record_world_message(rt, fn, model::CommKind::send, block.peer, block.bytes, tag, true));
  }
  return sent;
}

void record_neighbour_completion(Runtime& rt, Fn fn, const NeighbourMessages& m, std::vector<Timeline::CommRef>& sent,
                                 Timeline::Place at, int tag) {
  if (rt.capturing()) {
    for (const Timeline::CommRef& block : sent) rt.timeline().complete(block, at);
  }
  sent.clear();
  for (const NeighbourMessage& block : m.receives) {
    record_world_message(rt, fn, model::CommKind::recv, block.peer, block.bytes, tag);
  }
}

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
      // The call has returned (rt.leave()); on the wall clock, its time
      // inside is what the collective cost this rank, waiting included.
      if (!posted && !rt.clock().on()) op.inside_s = std::max(0.0, rt.last_exit() - rt.last_entry());
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

}  // namespace mheta::interpose::handlers
