#include "microbench/quiet_wait.hpp"

#include <time.h>

#include <algorithm>

namespace mheta::microbench {

void quiet_wait(MPI_Request& request) {
  // The nap grows from 20 us to 0.5 ms: a short wait ends promptly, and a
  // rank that sits out a long measurement wakes up rarely enough not to
  // preempt the ranks being measured (8 waiting ranks on 2 cores waking
  // every 50 us made a 1 us ping-pong take 100 us).
  long nap_ns = 20'000;
  int done = 0;
  MPI_Test(&request, &done, MPI_STATUS_IGNORE);
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
