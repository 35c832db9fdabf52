#pragma once
// The windows whose one-sided communication the capture records: those over
// every rank of MPI_COMM_WORLD, whose fences every rank calls, so that each
// fence is a collective of the profile (docs/interpose.md, "One-sided
// communication"). A put, get or accumulate is recorded as a non-blocking
// send to its target, completed at the fence that ends its epoch; the
// target's receive is added when the ranks' periods are assembled
// (window_transfers.hpp), since a target takes no part in the call.
#include <mpi.h>

#include <unordered_map>
#include <utility>
#include <vector>

#include "interpose/timeline.hpp"

namespace mheta::interpose {

struct CapturedWindow {
  std::vector<int> world;                  // the window communicator's ranks as ranks of MPI_COMM_WORLD
  std::vector<Timeline::CommRef> pending;  // transfers of the open epoch, as recorded
};

class CapturedWindows {
 public:
  void add(MPI_Win win, std::vector<int> world) { windows_[win] = CapturedWindow{std::move(world), {}}; }
  void remove(MPI_Win win) { windows_.erase(win); }
  CapturedWindow* find(MPI_Win win) {
    const auto it = windows_.find(win);
    return it == windows_.end() ? nullptr : &it->second;
  }

 private:
  std::unordered_map<MPI_Win, CapturedWindow> windows_;
};

}  // namespace mheta::interpose
