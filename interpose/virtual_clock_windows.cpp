// The virtual clock's one-sided communication (docs/emulation.md,
// "One-sided synchronization"): windows, their transfers, and the calls
// that end the transfers' epochs: fences, general active target
// (post/start/complete/wait) and passive target (unlock, flush).
#include <algorithm>

#include "interpose/communicators.hpp"
#include "interpose/virtual_clock.hpp"

namespace mheta::interpose {

namespace {

// The members of `group` as ranks of `comm`, those not in it left out.
std::vector<int> ranks_in(MPI_Group group, MPI_Comm comm) {
  std::vector<int> ranks = ranks_of(group, comm);
  std::erase(ranks, MPI_UNDEFINED);
  return ranks;
}

}  // namespace

VirtualClockService::Window* VirtualClockService::window(MPI_Win win) const {
  std::lock_guard lock(files_mutex_);
  const auto it = windows_.find(win);
  return it == windows_.end() ? nullptr : &it->second;
}

bool VirtualClockService::knows_window(MPI_Win win) const { return window(win) != nullptr; }

void VirtualClockService::window_created(MPI_Win win, MPI_Comm comm) {
  if (!carrying_ || win == MPI_WIN_NULL || shadows_.shadow(comm) == MPI_COMM_NULL) return;
  // The program may free `comm` while the window lives: the window keeps a
  // duplicate of its own (collective over `comm`, as the creation was).
  MPI_Comm group = MPI_COMM_NULL;
  if (PMPI_Comm_dup(comm, &group) != MPI_SUCCESS) return;
  shadows_.add(group);
  std::lock_guard lock(files_mutex_);
  windows_[win] =
      Window{.group = group, .transfers = {}, .active = std::make_unique<ActiveTargetTimes>(group, sleep_wait_)};
}

void VirtualClockService::window_freed(MPI_Win win) {
  MPI_Comm group = MPI_COMM_NULL;
  {
    std::lock_guard lock(files_mutex_);
    const auto it = windows_.find(win);
    if (it == windows_.end()) return;
    group = it->second.group;
    windows_.erase(it);  // its active target times first: their requests are on `group`
    collective_links_.erase(group);
  }
  shadows_.remove(group);
  PMPI_Comm_free(&group);
}

void VirtualClockService::window_transfer(MPI_Win win, int target, std::int64_t bytes) {
  if (!on() || target == MPI_PROC_NULL) return;
  Window* w = window(win);
  if (w == nullptr) return;
  // As send_posted: it starts out when the link has put out what was posted before it.
  const Link l = link(w->group, target, false);
  const double starts = std::max(clock_.now(), wire_free_at_);
  wire_free_at_ = starts + injection_time(l, bytes);
  std::lock_guard lock(files_mutex_);
  Transfers& to = w->transfers[target];
  to.starts = std::min(to.starts, starts);
  to.leave = std::max(to.leave, wire_free_at_);
  to.arrive = std::max(to.arrive, message_arrival(starts, l, bytes));
}

bool VirtualClockService::fence(MPI_Win win) {
  Window* w = window(win);
  if (w == nullptr) return false;
  // The fence ends when the last rank has entered and every transfer of
  // the epoch has arrived, plus a barrier's cost.
  const double entry = std::max(clock_.now(), end_transfers(*w, MPI_PROC_NULL, true, false).arrive);
  if (auto exchange = shadows_.post_entry(w->group, entry)) {
    collective_completed(exchange.get(), w->group, model::Collective::barrier, 0);
  }
  return true;
}

bool VirtualClockService::window_posted(MPI_Win win, MPI_Group origins) {
  Window* w = window(win);
  if (w == nullptr) return false;
  w->active->posted(ranks_in(origins, w->group), clock_.now());
  return true;
}

bool VirtualClockService::window_started(MPI_Win win, MPI_Group targets) {
  Window* w = window(win);
  if (w == nullptr) return false;
  w->active->started(ranks_in(targets, w->group));
  return true;
}

// An origin's transfers cannot go before the target's post has reached it
// (its time plus the latency from the target): put before that, they wait
// for it and go then, one after another as they were put, so the link is
// busy until they have left. The access epoch ends no earlier than each
// post has reached it, nor before its transfers have left the link. Each
// target is then told when, and when the transfers to it arrive.
bool VirtualClockService::window_completed(MPI_Win win) {
  Window* w = window(win);
  if (w == nullptr) return false;
  const std::vector<PostTime> posts = w->active->post_times();
  double done = clock_.now();
  std::vector<Completion> completions;
  for (const PostTime& post : posts) {
    const double reached = post.posted + link(w->group, post.target, true).latency_s;
    Transfers to = end_transfers(*w, post.target, false, false);
    if (to.starts < reached) {
      const double held = reached - to.starts;
      to.leave += held;
      to.arrive += held;
      wire_free_at_ = std::max(wire_free_at_, to.leave);
    }
    done = std::max({done, reached, to.leave});
    completions.push_back({.peer = post.target, .done = 0, .arrives = to.arrive});
  }
  if (on()) clock_.wait_until(done);
  for (Completion& c : completions) c.done = clock_.now();
  w->active->completed(completions);
  return true;
}

// The target's exposure epoch ends once every origin's completion has
// reached it (its time plus the latency from the origin) and the origin's
// transfers to it have arrived.
bool VirtualClockService::window_waited(MPI_Win win) {
  Window* w = window(win);
  if (w == nullptr) return false;
  double ends = clock_.now();
  for (const Completion& c : w->active->completions()) {
    ends = std::max({ends, c.done + link(w->group, c.peer, true).latency_s, c.arrives});
  }
  if (on()) clock_.wait_until(ends);
  return true;
}

bool VirtualClockService::window_flushed(MPI_Win win, int target, bool every_target, bool left_only) {
  Window* w = window(win);
  if (w == nullptr) return false;
  // A local flush leaves them in the epoch: the target may not have them yet.
  const Transfers to = end_transfers(*w, target, every_target, left_only);
  if (on()) clock_.wait_until(std::max(clock_.now(), left_only ? to.leave : to.arrive));
  return true;
}

VirtualClockService::Transfers VirtualClockService::end_transfers(Window& w, int target, bool every_target, bool keep) {
  // Under the lock: after a fall back, threads calling at once still carry times.
  std::lock_guard lock(files_mutex_);
  Transfers latest;
  for (auto it = w.transfers.begin(); it != w.transfers.end();) {
    if (!every_target && it->first != target) {
      ++it;
      continue;
    }
    latest.starts = std::min(latest.starts, it->second.starts);
    latest.leave = std::max(latest.leave, it->second.leave);
    latest.arrive = std::max(latest.arrive, it->second.arrive);
    it = keep ? std::next(it) : w.transfers.erase(it);
  }
  return latest;
}

}  // namespace mheta::interpose
