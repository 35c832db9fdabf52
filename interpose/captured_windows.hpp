#pragma once
// The windows whose one-sided communication the capture records
// (docs/interpose.md, "One-sided communication"): those whose ranks are all
// of MPI_COMM_WORLD.
// - Fence epochs, on windows over every rank (whose fences every rank
//   calls, so that each is a collective of the profile): a put, get or
//   accumulate is recorded as a non-blocking send to its target, completed
//   at the fence that ends its epoch; the target's receive is added when
//   the ranks' periods are assembled (window_transfers.hpp), since a target
//   takes no part in the call.
// - General active target epochs, on any of them: each side knows the
//   other from its group, so both are recorded where they happen. The
//   target's MPI_Win_post sends each origin a notice, which the origin
//   receives at its MPI_Win_complete before it sends the target the bytes
//   it put there in the epoch (one message); the target's MPI_Win_wait
//   receives one from each origin.
// - Passive target epochs (MPI_Win_lock, MPI_Win_lock_all), on any of them:
//   a transfer is recorded as a non-blocking send to its target, completed
//   at the flush or unlock that completes it; the target took no part, and
//   its receive is added as a fence epoch's is, just before its collective
//   numbered as the first the origin calls after that flush (the barrier
//   after which a program reads what was put), once the periods are lined
//   up (window_transfers.hpp).
#include <mpi.h>

#include <cstdint>
#include <map>
#include <unordered_map>
#include <utility>
#include <vector>

#include "interpose/timeline.hpp"

namespace mheta::interpose {

struct CapturedWindow {
  std::vector<int> world;                  // the window communicator's ranks as ranks of MPI_COMM_WORLD
  bool over_all = false;                   // over every rank: its fences are collectives of the profile
  std::vector<Timeline::CommRef> pending;  // transfers of the open fence epoch, as recorded
  std::vector<int> origins;                // the open exposure epoch's origins (world ranks)
  std::vector<Timeline::CommRef> notices;  // the notices its post sent them, as recorded
  std::vector<int> targets;                // the open access epoch's targets (world ranks)
  std::map<int, std::int64_t> put_bytes;   // the bytes put to each target in the access epoch
  int locks = 0;                           // passive target epochs open (a lock or a lock_all each)
  // Transfers of the passive target epochs not completed yet, as recorded,
  // with their targets (world ranks).
  std::vector<std::pair<int, Timeline::CommRef>> passive;
};

class CapturedWindows {
 public:
  void add(MPI_Win win, std::vector<int> world, bool over_all) {
    CapturedWindow w;
    w.world = std::move(world);
    w.over_all = over_all;
    windows_[win] = std::move(w);
  }
  void remove(MPI_Win win) { windows_.erase(win); }
  CapturedWindow* find(MPI_Win win) {
    const auto it = windows_.find(win);
    return it == windows_.end() ? nullptr : &it->second;
  }

 private:
  std::unordered_map<MPI_Win, CapturedWindow> windows_;
};

}  // namespace mheta::interpose
