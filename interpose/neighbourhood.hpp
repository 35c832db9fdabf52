#pragma once
// The neighbours a neighbourhood collective (MPI_Neighbor_*, MPI_Ineighbor_*,
// their _init forms) exchanges blocks with on a communicator with a
// topology, in the order MPI lays out their blocks (MPI-4 §8.6): a
// Cartesian topology's neighbours are, for each dimension, the rank one
// step down then one step up (MPI_PROC_NULL past a non-periodic edge); a
// graph's are its neighbours, both ways; a distributed graph's are its
// sources and destinations as created (weights do not matter to timing).
#include <mpi.h>

#include <optional>
#include <vector>

namespace mheta::interpose {

struct Neighbourhood {
  std::vector<int> sources;       // ranks of the communicator its blocks come from
  std::vector<int> destinations;  // ranks of the communicator its blocks go to
};

// Nothing for a communicator without a topology: a neighbourhood collective
// on it is MPI's error, which the program gets as it would without the
// interposer.
std::optional<Neighbourhood> neighbourhood_of(MPI_Comm comm);

}  // namespace mheta::interpose
