// Every intercepted call goes to the handler of its category (handlers.hpp).
#include "interpose/dispatch.hpp"

#include <atomic>

#include "interpose/engaged.hpp"
#include "interpose/handlers.hpp"
#include "interpose/runtime.hpp"

namespace mheta::interpose {

namespace {

using namespace handlers;

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
    case Category::file_control:
      return handle_file_control(rt, fn, c, call);
    case Category::partitioned:
      return handle_partitioned(rt, fn, c, call);
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
    case Category::win_atomic:
      return handle_win_transfer(rt, fn, category, c, call);
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
  if (rt.thread_level() == MPI_THREAD_MULTIPLE) rt.note_calling_thread();
  const CallInside inside(rt);
  rt.enter(fn);
  const int rc = handle(rt, fn, category, c, call, nb);
  rt.after_call(fn, c, rc);
  return rc;
}

}  // namespace mheta::interpose
