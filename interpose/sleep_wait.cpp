#include "interpose/sleep_wait.hpp"

#include <sched.h>

#include <algorithm>

#include "interpose/clock.hpp"
#include "interpose/wake_board.hpp"

namespace mheta::interpose {

namespace {
// A wait first polls for kYieldSeconds, giving the core away between polls
// (a rank that computes on it runs; with none, the next poll comes at
// once): a partner that comes within microseconds is met without a sleep,
// which lasts far longer than asked on a virtual machine (a 2 us nanosleep
// took 78-90 us here). The phase outlasts one sleep: ranks that meet every
// few microseconds otherwise fall into step sleeping in turn, each late
// from its last sleep (a loop of barriers ran 154x slower than without the
// interposer; with 50 us, 90x). Then the polls come quickly (short waits stay short);
// long waits settle at one poll per 100 us, which costs a waiting rank well
// under 1% of a core.
constexpr double kYieldSeconds = 250e-6;
constexpr double kFirstSleep = 2e-6;
constexpr double kMaxSleep = 100e-6;
}  // namespace

int poll_with_sleeps(FunctionRef<int(int* done)> test) {
  double yield_until = now_s() + kYieldSeconds;
  double pause = kFirstSleep;
  for (;;) {
    int done = 0;
    const int rc = test(&done);
    if (rc != MPI_SUCCESS || done) return rc;
    if (now_s() < yield_until) {
      sched_yield();
      continue;
    }
    if (wake_board().sleep(pause)) {
      // Woken for a passive target's lock or unlock: its next request
      // comes within microseconds.
      yield_until = now_s() + kYieldSeconds;
      pause = kFirstSleep;
      continue;
    }
    pause = std::min(kMaxSleep, pause * 2);
  }
}

bool completes_by(MPI_Request& request, double deadline) {
  double pause = kFirstSleep;
  for (;;) {
    int done = 0;
    if (PMPI_Test(&request, &done, MPI_STATUS_IGNORE) != MPI_SUCCESS || done) return true;
    if (now_s() >= deadline) return false;
    sleep_s(pause);
    pause = std::min(1e-3, pause * 2);
  }
}

int sleep_wait(FunctionRef<int(MPI_Request*)> nonblocking, MPI_Status* status) {
  MPI_Request request = MPI_REQUEST_NULL;
  const int rc = nonblocking(&request);
  if (rc != MPI_SUCCESS) return rc;
  return poll_with_sleeps([&](int* done) { return PMPI_Test(&request, done, status); });
}

}  // namespace mheta::interpose
