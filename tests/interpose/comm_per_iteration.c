/* Communicators created in the loop, as adaptive codes do: each iteration
 * MPI_Comm_split of MPI_COMM_WORLD by parity, an MPI_Allreduce on the half,
 * MPI_Comm_free; then MPI_Comm_dup of MPI_COMM_WORLD, an MPI_Allreduce on
 * it, MPI_Comm_free; compute between. Prints the sum, which must not change
 * under the interposer.
 * Usage: comm_per_iteration [iterations] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "tests/common/cpu_work.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int iterations = argc > 1 ? atoi(argv[1]) : 40;
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double mine = rank + 1, half = 0, all = 0, sum = 0;
  for (int it = 0; it < iterations; ++it) {
    MPI_Comm parity, copy;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &parity);
    MPI_Allreduce(&mine, &half, 1, MPI_DOUBLE, MPI_SUM, parity);
    MPI_Comm_free(&parity);
    compute_for(100e-6);
    MPI_Comm_dup(MPI_COMM_WORLD, &copy);
    MPI_Allreduce(&half, &all, 1, MPI_DOUBLE, MPI_SUM, copy);
    MPI_Comm_free(&copy);
    sum += all;
    compute_for(100e-6);
  }
  if (rank == 0) printf("result sum %.6f\n", sum);
  MPI_Finalize();
  return 0;
}
