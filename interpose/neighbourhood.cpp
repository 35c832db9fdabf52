#include "interpose/neighbourhood.hpp"

#include <algorithm>

namespace mheta::interpose {

namespace {

Neighbourhood cartesian(MPI_Comm comm) {
  int dims = 0;
  PMPI_Cartdim_get(comm, &dims);
  Neighbourhood n;
  for (int d = 0; d < dims; ++d) {
    int down = MPI_PROC_NULL;
    int up = MPI_PROC_NULL;
    PMPI_Cart_shift(comm, d, 1, &down, &up);
    n.sources.insert(n.sources.end(), {down, up});
  }
  n.destinations = n.sources;
  return n;
}

Neighbourhood graph(MPI_Comm comm) {
  int rank = 0;
  int count = 0;
  PMPI_Comm_rank(comm, &rank);
  PMPI_Graph_neighbors_count(comm, rank, &count);
  Neighbourhood n;
  n.sources.resize(static_cast<std::size_t>(count));
  if (count > 0) PMPI_Graph_neighbors(comm, rank, count, n.sources.data());
  n.destinations = n.sources;
  return n;
}

Neighbourhood distributed_graph(MPI_Comm comm) {
  int in = 0;
  int out = 0;
  int weighted = 0;
  PMPI_Dist_graph_neighbors_count(comm, &in, &out, &weighted);
  Neighbourhood n;
  // At least one element each: a zero-length vector's data() may be null,
  // which MPI may take for a missing argument.
  n.sources.resize(static_cast<std::size_t>(std::max(in, 1)));
  n.destinations.resize(static_cast<std::size_t>(std::max(out, 1)));
  std::vector<int> in_weights(weighted ? n.sources.size() : 0);
  std::vector<int> out_weights(weighted ? n.destinations.size() : 0);
  PMPI_Dist_graph_neighbors(comm, in, n.sources.data(), weighted ? in_weights.data() : MPI_UNWEIGHTED, out,
                            n.destinations.data(), weighted ? out_weights.data() : MPI_UNWEIGHTED);
  n.sources.resize(static_cast<std::size_t>(in));
  n.destinations.resize(static_cast<std::size_t>(out));
  return n;
}

}  // namespace

std::optional<Neighbourhood> neighbourhood_of(MPI_Comm comm) {
  if (comm == MPI_COMM_NULL) return std::nullopt;
  int topology = MPI_UNDEFINED;
  if (PMPI_Topo_test(comm, &topology) != MPI_SUCCESS) return std::nullopt;
  switch (topology) {
    case MPI_CART:
      return cartesian(comm);
    case MPI_GRAPH:
      return graph(comm);
    case MPI_DIST_GRAPH:
      return distributed_graph(comm);
    default:
      return std::nullopt;
  }
}

}  // namespace mheta::interpose
