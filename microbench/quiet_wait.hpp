#pragma once
// Synchronisation that does not spin. MPICH polls while it waits, so on a
// node with more ranks than cores (this machine: 2 cores) the ranks that sit
// out a measurement would steal the CPU from the ranks being measured. These
// calls post the non-blocking collective and sleep between tests instead.
#include <mpi.h>

namespace mheta::microbench {

void quiet_wait(MPI_Request& request);
void quiet_barrier(MPI_Comm comm);
void quiet_allreduce(const void* in, void* out, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm);

}  // namespace mheta::microbench
