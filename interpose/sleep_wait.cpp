#include "interpose/sleep_wait.hpp"

#include <algorithm>

#include "interpose/clock.hpp"

namespace mheta::interpose {

namespace {
// The first polls come quickly (short waits stay short); long waits settle
// at one poll per 100 us, which costs a waiting rank well under 1% of a core.
constexpr double kFirstSleep = 2e-6;
constexpr double kMaxSleep = 100e-6;
}  // namespace

int poll_with_sleeps(FunctionRef<int(int* done)> test) {
  double pause = kFirstSleep;
  for (;;) {
    int done = 0;
    const int rc = test(&done);
    if (rc != MPI_SUCCESS || done) return rc;
    sleep_s(pause);
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
