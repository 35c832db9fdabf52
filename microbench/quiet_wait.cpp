#include "microbench/quiet_wait.hpp"

#include "microbench/budget.hpp"

#include <time.h>

#include <algorithm>

namespace mheta::microbench {

void quiet_wait(MPI_Request& request) {
  // Poll for 200 us first: a rank that naps even briefly may be woken on
  // the core its ping-pong partner is using (the other being taken by
  // another program), and then every round trip waits for a scheduler
  // tick. Most waits between two measured ranks end within that time.
  int done = 0;
  const double spin_until = wall_s() + 200e-6;  // real time: virtual time hardly moves while polling
  while (done == 0 && wall_s() < spin_until) MPI_Test(&request, &done, MPI_STATUS_IGNORE);
  // Then nap, from 20 us growing to 0.5 ms: a rank that sits out a long
  // measurement wakes up rarely enough not to preempt the ranks measured.
  long nap_ns = 20'000;
  while (done == 0) {
    const timespec nap{0, nap_ns};
    nanosleep(&nap, nullptr);
    nap_ns = std::min(2 * nap_ns, 500'000L);
    MPI_Test(&request, &done, MPI_STATUS_IGNORE);
  }
}

void quiet_barrier(MPI_Comm comm) {
  MPI_Request request;
  MPI_Ibarrier(comm, &request);
  quiet_wait(request);
}

void quiet_allreduce(const void* in, void* out, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  MPI_Request request;
  MPI_Iallreduce(in, out, count, type, op, comm, &request);
  quiet_wait(request);
}

}  // namespace mheta::microbench
