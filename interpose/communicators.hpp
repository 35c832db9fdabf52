#pragma once
// What a communicator means for the model.
#include <mpi.h>

#include <vector>

namespace mheta::interpose {

// The ranks of MPI_COMM_WORLD the members of `group` are, in group order
// (MPI_UNDEFINED for a process of another MPI_COMM_WORLD).
std::vector<int> world_ranks_of(MPI_Group group);
// The ranks of `comm` the members of `group` are, in group order
// (MPI_UNDEFINED for a process not in `comm`).
std::vector<int> ranks_of(MPI_Group group, MPI_Comm comm);
// The ranks of `comm`'s (local) group as ranks of MPI_COMM_WORLD, in
// group order (not an overload of world_ranks_of: MPI_Comm and MPI_Group
// are one type in MPICH).
std::vector<int> world_members(MPI_Comm comm);
// `peer` of `comm` as a rank of MPI_COMM_WORLD (a point-to-point peer of
// an intercommunicator is a rank of its remote group; MPI_UNDEFINED for a
// process of another MPI_COMM_WORLD).
int world_rank_of(MPI_Comm comm, int peer);
// The same for several (MPI_PROC_NULL stays MPI_PROC_NULL).
std::vector<int> world_ranks_of(MPI_Comm comm, const std::vector<int>& peers);
// Whether `comm` joins two groups (MPI_Intercomm_create and the like).
bool is_intercommunicator(MPI_Comm comm);
// Whether collectives on `comm` are communication between ranks (more than
// one rank, not an intercommunicator).
bool between_ranks(MPI_Comm comm);
// Whether point-to-point messages on `comm` may be communication between
// ranks: those of an intracommunicator of more than one rank, and those of
// an intercommunicator (two coupled codes' halves of MPI_COMM_WORLD; a
// peer of a spawned or connected job is none, world_rank_of says).
bool messages_between_ranks(MPI_Comm comm);
// Whether every process of `comm` (both groups of an intercommunicator) is
// a rank of this MPI_COMM_WORLD: not one that reaches spawned processes or
// another job's (dynamic processes).
bool within_world(MPI_Comm comm);
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
