// PageRank by power iteration on a synthetic graph whose vertices are split
// in equal blocks. Every step: each rank sums its edges' contributions into
// a vector over all vertices, MPI_Reduce_scatter_block hands every rank the
// sums of its own block, the new ranks of the block are computed, an
// MPI_Allgather makes the whole vector known again, and the change is
// reduced (MPI_Allreduce). Usage: pagerank [vertices_per_rank [edges [steps]]]
#include <mpi.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int block = argc > 1 ? std::atoi(argv[1]) : 4096;
  const int degree = argc > 2 ? std::atoi(argv[2]) : 24;
  const int steps = argc > 3 ? std::atoi(argv[3]) : 100;
  const std::int64_t total = static_cast<std::int64_t>(block) * size;
  // Edges out of this rank's vertices, drawn by a fixed generator.
  std::vector<std::int64_t> target(static_cast<std::size_t>(block) * degree);
  std::uint64_t state = 0x9e3779b97f4a7c15ULL ^ static_cast<std::uint64_t>(rank + 1);
  for (auto& t : target) {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    t = static_cast<std::int64_t>(state % static_cast<std::uint64_t>(total));
  }
  std::vector<double> pr(static_cast<std::size_t>(total), 1.0 / static_cast<double>(total));
  std::vector<double> sums(static_cast<std::size_t>(total)), mine(static_cast<std::size_t>(block));
  double change = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  const double t0 = MPI_Wtime();
  for (int s = 0; s < steps; ++s) {
    std::fill(sums.begin(), sums.end(), 0.0);
    for (int v = 0; v < block; ++v) {
      const double share = pr[static_cast<std::size_t>(rank) * block + v] / degree;
      for (int e = 0; e < degree; ++e) sums[static_cast<std::size_t>(target[static_cast<std::size_t>(v) * degree + e])] += share;
    }
    MPI_Reduce_scatter_block(sums.data(), mine.data(), block, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    double local = 0;
    for (int v = 0; v < block; ++v) {
      const double next = 0.15 / static_cast<double>(total) + 0.85 * mine[static_cast<std::size_t>(v)];
      local += std::fabs(next - pr[static_cast<std::size_t>(rank) * block + v]);
      mine[static_cast<std::size_t>(v)] = next;
    }
    MPI_Allgather(mine.data(), block, MPI_DOUBLE, pr.data(), block, MPI_DOUBLE, MPI_COMM_WORLD);
    MPI_Allreduce(&local, &change, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  const double t = MPI_Wtime() - t0;
  if (rank == 0) {
    double top = 0;
    for (double p : pr) top = std::max(top, p);
    std::printf("result change %.6e\nresult top %.9e\n", change, top);
    std::printf("loop: %d iterations, %.6f s, %.6e s per iteration\n", steps, t, t / steps);
  }
  MPI_Finalize();
  return 0;
}
