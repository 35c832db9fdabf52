#include "interpose/communicators.hpp"

#include <algorithm>
#include <vector>

namespace mheta::interpose {

bool is_intercommunicator(MPI_Comm comm) {
  int inter = 0;
  PMPI_Comm_test_inter(comm, &inter);
  return inter != 0;
}

namespace {

// `peers` of `comm` as ranks of MPI_COMM_WORLD, into `out` (MPI_PROC_NULL
// stays MPI_PROC_NULL). A point-to-point peer of an intercommunicator is a
// rank of its remote group.
void translate_to_world(MPI_Comm comm, int n, const int* peers, int* out) {
  MPI_Group group = MPI_GROUP_NULL;
  MPI_Group world = MPI_GROUP_NULL;
  if (is_intercommunicator(comm)) {
    PMPI_Comm_remote_group(comm, &group);
  } else {
    PMPI_Comm_group(comm, &group);
  }
  PMPI_Comm_group(MPI_COMM_WORLD, &world);
  PMPI_Group_translate_ranks(group, n, peers, world, out);
  PMPI_Group_free(&group);
  PMPI_Group_free(&world);
}

}  // namespace

int world_rank_of(MPI_Comm comm, int peer) {
  if (comm == MPI_COMM_WORLD || peer < 0) return peer;
  int out = MPI_UNDEFINED;
  translate_to_world(comm, 1, &peer, &out);
  return out;
}

std::vector<int> world_ranks_of(MPI_Comm comm, const std::vector<int>& peers) {
  if (comm == MPI_COMM_WORLD || peers.empty()) return peers;
  std::vector<int> out(peers.size(), MPI_UNDEFINED);
  translate_to_world(comm, static_cast<int>(peers.size()), peers.data(), out.data());
  return out;
}

std::vector<int> ranks_of(MPI_Group group, MPI_Comm comm) {
  int size = 0;
  PMPI_Group_size(group, &size);
  std::vector<int> local(static_cast<std::size_t>(size));
  std::vector<int> ranks(static_cast<std::size_t>(size), MPI_UNDEFINED);
  for (int i = 0; i < size; ++i) local[static_cast<std::size_t>(i)] = i;
  MPI_Group comm_group = MPI_GROUP_NULL;
  PMPI_Comm_group(comm, &comm_group);
  PMPI_Group_translate_ranks(group, size, local.data(), comm_group, ranks.data());
  PMPI_Group_free(&comm_group);
  return ranks;
}

std::vector<int> world_ranks_of(MPI_Group group) { return ranks_of(group, MPI_COMM_WORLD); }

std::vector<int> world_members(MPI_Comm comm) {
  MPI_Group group = MPI_GROUP_NULL;
  PMPI_Comm_group(comm, &group);
  std::vector<int> world = world_ranks_of(group);
  PMPI_Group_free(&group);
  return world;
}

namespace {

bool group_within_world(MPI_Group group) {
  const std::vector<int> world = world_ranks_of(group);
  return std::none_of(world.begin(), world.end(), [](int r) { return r == MPI_UNDEFINED; });
}

}  // namespace

bool within_world(MPI_Comm comm) {
  MPI_Group group = MPI_GROUP_NULL;
  PMPI_Comm_group(comm, &group);
  bool within = group_within_world(group);
  PMPI_Group_free(&group);
  int inter = 0;
  PMPI_Comm_test_inter(comm, &inter);
  if (within && inter) {
    PMPI_Comm_remote_group(comm, &group);
    within = group_within_world(group);
    PMPI_Group_free(&group);
  }
  return within;
}

bool between_ranks(MPI_Comm comm) {
  if (comm == MPI_COMM_NULL || comm == MPI_COMM_SELF) return false;
  if (is_intercommunicator(comm)) return false;
  int size = 1;
  PMPI_Comm_size(comm, &size);
  return size > 1;
}

bool messages_between_ranks(MPI_Comm comm) {
  if (comm == MPI_COMM_NULL) return false;
  return is_intercommunicator(comm) || between_ranks(comm);
}

bool over_all_ranks(MPI_Comm comm, int world_size) {
  if (comm == MPI_COMM_WORLD) return world_size > 1;
  if (!between_ranks(comm)) return false;
  int size = 1;
  PMPI_Comm_size(comm, &size);
  return size == world_size;
}

}  // namespace mheta::interpose
