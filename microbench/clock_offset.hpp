#pragma once
// The ranks' clocks against rank 0's, so that the start of a collective on
// one rank and its end on another can be compared (a cluster's nodes have
// clocks of their own; MPI_WTIME_IS_GLOBAL is rarely set).
#include <mpi.h>

namespace mheta::microbench {

// This rank's MPI_Wtime() minus rank 0's at the same moment, from
// `exchanges` round trips with rank 0: each gives the remote clock's
// reading against the midpoint of the local send and receive, and the
// round trip that was shortest bounds the error best (by half of it).
// Collective over `comm`; 0 on rank 0.
double clock_offset_from_root(MPI_Comm comm, int exchanges = 20);

}  // namespace mheta::microbench
