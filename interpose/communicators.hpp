#pragma once
// What a communicator means for the model.
#include <mpi.h>

namespace mheta::interpose {

// `peer` of `comm` as a rank of MPI_COMM_WORLD.
int world_rank_of(MPI_Comm comm, int peer);
// Whether messages on `comm` are communication between ranks (more than one
// rank, not an intercommunicator).
bool between_ranks(MPI_Comm comm);
// Whether a collective on `comm` involves every one of the `world_size` ranks.
bool over_all_ranks(MPI_Comm comm, int world_size);
// Whether a collective on `comm` counts for automatic detection: its
// position among the collectives must be the same on every rank. With
// MPI_THREAD_MULTIPLE, collectives of different threads on different
// communicators interleave differently on each rank; only MPI_COMM_WORLD's
// keep one order.
inline bool counts_for_detection(MPI_Comm comm, int thread_level) {
  return thread_level < MPI_THREAD_MULTIPLE || comm == MPI_COMM_WORLD;
}

}  // namespace mheta::interpose
