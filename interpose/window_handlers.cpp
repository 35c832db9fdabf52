// One-sided communication: windows created and freed, transfers, and the
// synchronizations (fences, post/start/complete/wait, locks) that complete them.
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <mutex>
#include <optional>
#include <vector>

#include "interpose/communicators.hpp"
#include "interpose/handlers.hpp"
#include "interpose/runtime.hpp"

namespace mheta::interpose::handlers {

namespace {

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

}  // namespace

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
// that ends its epoch waits for them); an atomic one's (get-accumulate,
// fetch-and-op, compare-and-swap) are those that go and those that come
// back. Captured (a get priced as a put of its bytes, as the virtual clock
// does): in a general active target epoch,
// added to what the origin sends the target at its MPI_Win_complete; in a
// passive target or a fence epoch, a non-blocking send to the target,
// completed at the flush or unlock that completes it, or at the fence that
// ends the epoch. Detection does not see the atomic ones (their category,
// mpi_functions.def).
int handle_win_transfer(Runtime& rt, Fn fn, Category category, CallInfo& c, CallRef call) {
  const int rc = call();
  rt.leave();
  if (rc != MPI_SUCCESS) return rc;
  const std::int64_t bytes = add_bytes(type_bytes(c.count, c.type), type_bytes(c.count2, c.type2));
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
  if (category == Category::win_transfer) see_call(rt, fn, c.peer, kWindowTag, bytes);
  return rc;
}

// One-sided synchronization: the fence, general active target (post,
// start, complete, wait, test) and passive target (lock, unlock, flush,
// sync). It runs as it is, and the time a rank spends in it is no compute;
// then the clock follows it (virtual_clock_windows.cpp) on a window it saw
// created. A window it did not (a large-count MPI_Win_create_c) is not
// followed: its calls are no time on the clock, said once.
int handle_win_sync(Runtime& rt, Fn fn, Category category, CallInfo& c, CallRef call) {
  if (category == Category::win_flush || category == Category::win_flush_local || fn_base(fn) == Fn::Win_lock) {
    rt.before_passive_target_sync(c.win, c.peer, c.every_target);
  }
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

}  // namespace mheta::interpose::handlers
