#include "interpose/communicators.hpp"

namespace mheta::interpose {

int world_rank_of(MPI_Comm comm, int peer) {
  if (comm == MPI_COMM_WORLD || peer < 0) return peer;
  MPI_Group group = MPI_GROUP_NULL;
  MPI_Group world = MPI_GROUP_NULL;
  PMPI_Comm_group(comm, &group);
  PMPI_Comm_group(MPI_COMM_WORLD, &world);
  int out = MPI_UNDEFINED;
  PMPI_Group_translate_ranks(group, 1, &peer, world, &out);
  PMPI_Group_free(&group);
  PMPI_Group_free(&world);
  return out;
}

bool between_ranks(MPI_Comm comm) {
  if (comm == MPI_COMM_NULL || comm == MPI_COMM_SELF) return false;
  int inter = 0;
  PMPI_Comm_test_inter(comm, &inter);
  if (inter) return false;
  int size = 1;
  PMPI_Comm_size(comm, &size);
  return size > 1;
}

bool over_all_ranks(MPI_Comm comm, int world_size) {
  if (comm == MPI_COMM_WORLD) return world_size > 1;
  if (!between_ranks(comm)) return false;
  int size = 1;
  PMPI_Comm_size(comm, &size);
  return size == world_size;
}

}  // namespace mheta::interpose
