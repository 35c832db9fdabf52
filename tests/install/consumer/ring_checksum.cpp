// An iterative MPI program using mheta's installed libraries: each rank
// owns a block of rows (model::block_distribution), checksums them
// (io::rows_checksum), passes a halo row around a ring and marks its
// iterations (<mheta/marks.h>). Prints the global checksum once.
#include <mheta/marks.h>
#include <mpi.h>

#include <cstdio>
#include <vector>

#include "advisor/auto_redistribute.hpp"
#include "io/redistribution_checksum.hpp"
#include "model/gen_block.hpp"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  int size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const std::int64_t rows = 64;
  const std::int64_t cols = 16;
  const mheta::model::GenBlock dist = mheta::model::block_distribution(rows, size);
  std::int64_t first = 0;
  for (int r = 0; r < rank; ++r) first += dist.rows[static_cast<std::size_t>(r)];
  const std::int64_t mine = dist.rows[static_cast<std::size_t>(rank)];
  std::vector<double> block(static_cast<std::size_t>(mine * cols));
  for (std::size_t i = 0; i < block.size(); ++i) block[i] = static_cast<double>(first * cols) + static_cast<double>(i);
  std::vector<double> halo(static_cast<std::size_t>(cols));
  for (int iteration = 0; iteration < 4; ++iteration) {
    MPI_Sendrecv(block.data(), static_cast<int>(cols), MPI_DOUBLE, (rank + 1) % size, 0, halo.data(),
                 static_cast<int>(cols), MPI_DOUBLE, (rank + size - 1) % size, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    mheta_mark_iteration();
  }
  std::uint64_t sum = mheta::io::rows_checksum(first, mine, cols * 8, reinterpret_cast<const std::byte*>(block.data()));
  std::uint64_t total = 0;
  MPI_Allreduce(&sum, &total, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
  // The advisor links, as for --auto programs: it decides after iteration 2.
  const mheta::advisor::AutoRedistributor advisor(MPI_COMM_WORLD, "data", {}, dist, 4);
  if (rank == 0) {
    std::printf("ranks %d checksum %llu advisor %d\n", size, static_cast<unsigned long long>(total),
                advisor.decides_after(2) && !advisor.decides_after(1));
  }
  MPI_Finalize();
  return 0;
}
