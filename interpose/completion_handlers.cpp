// Completion calls (waits and tests): the requests they complete, recorded
// where they complete, the virtual clock's and the emulated disk's times.
#include <algorithm>
#include <mutex>
#include <optional>
#include <vector>

#include "interpose/clock.hpp"
#include "interpose/communicators.hpp"
#include "interpose/emulator.hpp"
#include "interpose/handlers.hpp"
#include "interpose/neighbour_messages.hpp"
#include "interpose/runtime.hpp"

namespace mheta::interpose::handlers {

namespace {

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
  double posted_at = 0;      // recv: the receive's post; send: the synchronous send's
  int peer = MPI_PROC_NULL;  // synchronous send
  int tag = 0;
  MPI_Comm newcomm = MPI_COMM_NULL;  // comm_create
  std::shared_ptr<PendingShadows> shadows{};
  std::shared_ptr<NeighbourExchange> neighbours{};  // neighbour
};
thread_local std::vector<ClockCompletion> t_clock_completions;

// A followed receive between ranks has completed with `status`: numbered
// in its channel, recorded while capturing, told to the services. A
// receive from MPI_PROC_NULL (source < 0) is no message, and a process of
// another MPI_COMM_WORLD no rank of the profile.
// Whether a completed receive was cancelled (MPI_Cancel): only a completed
// request's status says so; a status the program ignores was replaced by
// one of ours before the call (complete_all's caller).
bool cancelled(const MPI_Status* status) {
  if (status == MPI_STATUS_IGNORE) return false;
  int flag = 0;
  PMPI_Test_cancelled(status, &flag);
  return flag != 0;
}

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
      // From MPI_PROC_NULL (its status may name rank 0: MPICH 4.0's test),
      // or cancelled (MPICH leaves a source and tag of some other message in
      // its status): neither a message nor a send time.
      if (p.from_nobody || cancelled(status)) {
        if (rt.capturing()) rt.timeline().receive_from_nobody();
        break;
      }
      if (clock.carrying() && status != MPI_STATUS_IGNORE) {
        t_clock_completions.push_back(
            {.kind = Kind::recv, .comm = p.comm, .status = *status, .posted_at = p.posted_at});
      }
      if (p.between && status != MPI_STATUS_IGNORE) record_completed_receive(rt, p.comm, *status);
      break;
    case Kind::send:
      if (rt.capturing()) rt.timeline().complete(p.sent, at);
      p.sent = {};          // a persistent send is recorded again at its next start
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

}  // namespace

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
      case Kind::recv:  // a cancelled one never gets here (complete)
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

}  // namespace mheta::interpose::handlers
