/* Halos on a periodic 2-D process grid (MPI_Dims_create, MPI_Cart_create):
 * each step MPI_Sendrecv with both neighbours in each dimension, then some
 * compute and an MPI_Allreduce. With 2 or 3 ranks one dimension has a
 * single rank, whose neighbours there are itself: those messages are
 * copies in its memory. Prints a checksum, which must not change under the
 * interposer.
 * Usage: torus_halo [iterations] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "tests/common/cpu_work.h"

enum { kHalo = 512 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int iterations = argc > 1 ? atoi(argv[1]) : 40;
  int size, rank, dims[2] = {0, 0}, periods[2] = {1, 1};
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Dims_create(size, 2, dims);
  MPI_Comm grid;
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &grid);
  MPI_Comm_rank(grid, &rank);
  static double out[kHalo], in[kHalo];
  double checksum = 0, total = 0;
  for (int it = 0; it < iterations; ++it) {
    for (int i = 0; i < kHalo; ++i) out[i] = rank + it + 1e-3 * i;
    for (int d = 0; d < 2; ++d) {
      int below, above;
      MPI_Cart_shift(grid, d, 1, &below, &above);
      MPI_Sendrecv(out, kHalo, MPI_DOUBLE, above, d, in, kHalo, MPI_DOUBLE, below, d, grid, MPI_STATUS_IGNORE);
      checksum += in[kHalo - 1];
      MPI_Sendrecv(out, kHalo, MPI_DOUBLE, below, 2 + d, in, kHalo, MPI_DOUBLE, above, 2 + d, grid, MPI_STATUS_IGNORE);
      checksum += in[0];
    }
    compute_for(200e-6);
    MPI_Allreduce(&checksum, &total, 1, MPI_DOUBLE, MPI_SUM, grid);
  }
  if (rank == 0) printf("result total %.6f\n", total);
  MPI_Comm_free(&grid);
  MPI_Finalize();
  return 0;
}
