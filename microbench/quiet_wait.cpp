#include "microbench/quiet_wait.hpp"

#include <time.h>

namespace mheta::microbench {

void quiet_wait(MPI_Request& request) {
  // 50 us: short beside any phase, long enough for the scheduler to run the
  // ranks that are measuring.
  const timespec nap{0, 50'000};
  int done = 0;
  MPI_Test(&request, &done, MPI_STATUS_IGNORE);
  while (done == 0) {
    nanosleep(&nap, nullptr);
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
