#pragma once
// The times a window's general active target epochs (MPI_Win_post,
// MPI_Win_start, MPI_Win_complete, MPI_Win_wait/MPI_Win_test) carry between
// its origins and targets (docs/emulation.md, "One-sided synchronization"):
// - a target sends its post time to each origin of its post group at
//   MPI_Win_post; an origin receives those of its start group at
//   MPI_Win_complete, which MPI itself makes wait for the posts;
// - an origin sends each target of its start group, at MPI_Win_complete,
//   the time its access epoch ended and when its transfers to that target
//   arrive; the target receives one per origin of its post group where its
//   exposure epoch ends (MPI_Win_wait, or an MPI_Win_test that returns true).
// They travel on the window's private duplicate of its communicator, never
// on the program's. Receives are posted without blocking where the epoch
// opens (MPI_Win_start and MPI_Win_post never block on them) and waited for
// only where MPI has matched the other side: every time is then sent or
// about to be, by an interposer that waits on nothing of the program. Ranks
// are the window communicator's.
#include <mpi.h>

#include <deque>
#include <utility>
#include <vector>

namespace mheta::interpose {

// A target's post time, as its origin receives it.
struct PostTime {
  int target = 0;
  double posted = 0;
};

// What an origin tells a target where its access epoch ends.
struct Completion {
  int peer = 0;        // the target it goes to; the origin it came from
  double done = 0;     // when the origin's MPI_Win_complete ended
  double arrives = 0;  // when its transfers to the target have arrived (0: none)
};

class ActiveTargetTimes {
 public:
  ActiveTargetTimes(MPI_Comm comm, bool sleep_wait) : comm_(comm), sleep_wait_(sleep_wait) {}
  // Lets go of what has not completed (a window freed with an epoch open, erroneous in MPI).
  ~ActiveTargetTimes();
  ActiveTargetTimes(const ActiveTargetTimes&) = delete;
  ActiveTargetTimes& operator=(const ActiveTargetTimes&) = delete;

  // Target, at MPI_Win_post: `posted` goes to each of `origins`, whose
  // completions are awaited from here on.
  void posted(std::vector<int> origins, double posted);
  // Origin, at MPI_Win_start: the post times of `targets` are awaited.
  void started(std::vector<int> targets);
  // Origin, at MPI_Win_complete: the post times of the epoch's targets
  // (waits until they are there); then each target's completion goes to it.
  std::vector<PostTime> post_times();
  void completed(const std::vector<Completion>& to_targets);
  // Target, where its exposure epoch ends: each origin's completion (waits
  // until they are there).
  std::vector<Completion> completions();

 private:
  struct Sent {
    double value[2] = {0, 0};
    MPI_Request request = MPI_REQUEST_NULL;
  };
  void send(int dest, int tag, double first, double second);
  // Posts one receive of two doubles from each of `sources` with `tag`.
  void expect(const std::vector<int>& sources, int tag, std::vector<double>& values,
              std::vector<MPI_Request>& requests);
  void wait_all(std::vector<MPI_Request>& requests);

  MPI_Comm comm_;
  bool sleep_wait_;
  std::vector<int> origins_;
  std::vector<double> completions_;  // two a origin: done, arrives
  std::vector<MPI_Request> completion_requests_;
  std::vector<int> targets_;
  std::vector<double> posts_;  // two a target: the post time, unused
  std::vector<MPI_Request> post_requests_;
  std::deque<Sent> sent_;  // deque: elements never move, MPI reads their value
};

}  // namespace mheta::interpose
