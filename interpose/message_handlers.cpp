// Point-to-point calls: sends, receives, their posts, persistent starts,
// probes; what the capture records of them and the virtual clock carries.
#include <atomic>
#include <cstdio>
#include <mutex>
#include <vector>

#include "interpose/communicators.hpp"
#include "interpose/handlers.hpp"
#include "interpose/neighbour_messages.hpp"
#include "interpose/runtime.hpp"
#include "interpose/sleep_wait.hpp"

namespace mheta::interpose::handlers {

namespace {

// A synchronous send (or its large-count twin): a rendezvous, timed so.
bool synchronous_send(Fn fn) {
  const Fn base = fn_base(fn);
  return base == Fn::Ssend || base == Fn::Issend || base == Fn::Ssend_init;
}

// A Sendrecv or an Isendrecv is one call for detection: its two peers and
// tags in one signature, of its send's size.
void see_sendrecv(Runtime& rt, Fn fn, const CallInfo& c) {
  see_call(rt, fn, static_cast<int>(combine(static_cast<std::uint32_t>(c.peer), static_cast<std::uint32_t>(c.peer2))),
           static_cast<int>(combine(static_cast<std::uint32_t>(c.tag), static_cast<std::uint32_t>(c.tag2))),
           type_bytes(c.count, c.type));
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
  if (!rt.following() || !messages_between_ranks(c.comm)) return;
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

// The message a completed receive got, as its status names it; a receive
// posted from MPI_PROC_NULL gets none but still ends the section for the
// capture. The caller holds the runtime's mutex.
void record_received(Runtime& rt, Fn fn, MPI_Comm comm, const MPI_Status& status, int posted_peer) {
  if (status.MPI_SOURCE >= 0) {
    record_message(rt, fn, model::CommKind::recv, comm, status.MPI_SOURCE, received_bytes(&status), status.MPI_TAG);
  } else if (posted_peer == MPI_PROC_NULL && rt.capturing()) {
    rt.timeline().receive_from_nobody();
  }
}

// A receive posted: its message is recorded where it completes.
void post_receive(Runtime& rt, Fn fn, int peer, std::int64_t bytes, int tag) {
  rt.message({fn, MessageEvent::Kind::recv_posted, peer, bytes, tag});
}

}  // namespace

int handle_send(Runtime& rt, Fn fn, CallInfo& c, CallRef call, NonblockingRef nb) {
  const bool following = rt.following();
  const bool between = following && c.peer >= 0 && messages_between_ranks(c.comm);
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
    record_message(rt, fn, model::CommKind::send, c.comm, c.peer, type_bytes(c.count, c.type), c.tag, false,
                   segments_while_capturing(rt, c.count, c.type));
  }
  if (following && rc == MPI_SUCCESS) see_call(rt, fn, c.peer, c.tag, type_bytes(c.count, c.type));
  return rc;
}

int handle_recv(Runtime& rt, Fn fn, CallInfo& c, CallRef call, NonblockingRef nb) {
  MPI_Status local{};
  const bool following = rt.following();
  const bool between = following && messages_between_ranks(c.comm);
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
    record_received(rt, fn, c.comm, *c.status, c.peer);
  }
  if (following && rc == MPI_SUCCESS)
    see_call(rt, fn, c.peer, c.tag, type_bytes(c.count, c.type));  // the size it may receive
  return rc;
}

int handle_sendrecv(Runtime& rt, Fn fn, CallInfo& c, CallRef call) {
  MPI_Status local{};
  const bool following = rt.following();
  const bool between = following && messages_between_ranks(c.comm);
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
    if (c.peer >= 0) {
      record_message(rt, fn, model::CommKind::send, c.comm, c.peer, type_bytes(c.count, c.type), c.tag, false,
                     segments_while_capturing(rt, c.count, c.type));
    }
    record_received(rt, fn, c.comm, *c.status, c.peer2);
  }
  if (following && rc == MPI_SUCCESS) see_sendrecv(rt, fn, c);
  return rc;
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
  const bool between = rt.following() && messages_between_ranks(c.comm);
  if (!between && !timed) return rc;
  std::lock_guard lock(rt.mutex());
  const std::int64_t bytes = type_bytes(c.count, c.type);
  PendingRequest pending{.comm = c.comm, .peer = c.peer, .tag = c.tag, .bytes = bytes, .io = {}, .between = between};
  pending.posted_at = posted;
  pending.synchronous = synchronous;
  switch (category) {
    case Category::isend:  // recorded where it is posted, its completion where it completes
      if (between) {
        pending.sent = record_message(rt, fn, model::CommKind::send, c.comm, c.peer, bytes, c.tag, true,
                                      segments_while_capturing(rt, c.count, c.type));
      }
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
      if (category == Category::send_init) pending.segments = message_segments(c.count, c.type);
      pending.persistent = true;
      pending.active = false;
      rt.requests().add(*c.request, pending);
      break;
    default:
      break;
  }
  return rc;
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
      p->posted_at =
          p->kind == Kind::send ? clock.send_posted(p->comm, p->peer, p->tag, p->bytes, p->synchronous) : clock.now();
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
    if (p.from_nobody) continue;      // no message, and no part of the call for detection, as before it was followed
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
      p.sent = record_message(rt, fn, model::CommKind::send, p.comm, p.peer, p.bytes, p.tag, true, p.segments);
    } else {
      post_receive(rt, fn, p.peer, p.bytes, p.tag);
    }
  }
  rt.call_seen({fn, signature(rt, fn, static_cast<int>(peers), static_cast<int>(tags), bytes)});
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

// Partitioned communication (MPI-4) runs as it is: its messages carry no
// virtual time and are not recorded, which the first MPI_Psend_init or
// MPI_Precv_init of a rank says when the clock is on or the run captures.
// The time inside the calls is no compute (a loop of MPI_Parrived waits).
int handle_partitioned(Runtime& rt, Fn fn, CallInfo&, CallRef call) {
  const int rc = call();
  rt.leave();
#if MPI_VERSION >= 4
  const bool init = fn == Fn::Psend_init || fn == Fn::Precv_init;
#else
  const bool init = false;  // the category's calls are MPI-4's
#endif
  static std::atomic<bool> said{false};
  if (init && (rt.clock().on() || rt.following()) && !said.exchange(true)) {
    std::fprintf(stderr,
                 "mheta interpose (rank %d): %s: partitioned communication is not followed: its messages carry no "
                 "virtual time (a receive completes at the receiver's own time, as if the message took none) and "
                 "are not in the profile\n",
                 rt.world_rank(), fn_name(fn));
  }
  return rc;
}

// A matched probe (MPI_Mprobe, MPI_Improbe) is where the message is
// received, for the virtual clock (its send time) and for the capture (the
// message, as a receive's): the receive of the matched message (MPI_Mrecv,
// MPI_Imrecv) names no communicator and no peer, and the probe's wait for
// the message is the receive's. An Improbe that found nothing is a test: not
// seen by detection, whose wait/test calls vary in number.
int handle_mprobe(Runtime& rt, Fn fn, CallInfo& c, CallRef call) {
  MPI_Status local{};
  const bool following = rt.following();
  const bool between = following && messages_between_ranks(c.comm);
  if ((between || rt.clock().carrying()) && c.status == MPI_STATUS_IGNORE) c.status = &local;
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
  if (rc != MPI_SUCCESS || !found) return rc;
  rt.clock().received(c.comm, c.status, posted);
  if (between) {
    std::lock_guard lock(rt.mutex());
    record_received(rt, fn, c.comm, *c.status, c.peer);
  }
  if (following) see_call(rt, fn, c.peer, c.tag, received_bytes(c.status));
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
  const bool between = following && messages_between_ranks(c.comm);
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
    pending.sent = record_message(rt, fn, model::CommKind::send, c.comm, c.peer, sent_bytes, c.tag, true,
                                  segments_while_capturing(rt, c.count, c.type));
  }
  if (between && c.peer2 != MPI_PROC_NULL) post_receive(rt, fn, c.peer2, pending.recv_bytes, c.tag2);
  rt.requests().add(*c.request, pending);
  return rc;
}

}  // namespace mheta::interpose::handlers
