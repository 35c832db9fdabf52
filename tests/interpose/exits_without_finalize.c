/* A ring relaxation that ends with exit(0) after its last output, without
 * MPI_Finalize, as some codes do (a Fortran STOP does the same): every
 * iteration a halo by MPI_Sendrecv with each neighbour and an
 * MPI_Allreduce. The profile and the run's iteration count must still be
 * written, gathered where the ranks exit, and the output unchanged.
 * Usage: exits_without_finalize [iterations] */
#include <mpi.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int iterations = argc > 1 ? atoi(argv[1]) : 40;
  enum { kPoints = 20000 };
  double* u = calloc(kPoints + 2, sizeof(double));
  for (int i = 0; i < kPoints + 2; ++i) u[i] = sin(0.001 * i + rank);
  const int up = (rank + 1) % size, down = (rank + size - 1) % size;
  double total = 0;
  for (int it = 0; it < iterations; ++it) {
    MPI_Sendrecv(&u[kPoints], 1, MPI_DOUBLE, up, 1, &u[0], 1, MPI_DOUBLE, down, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Sendrecv(&u[1], 1, MPI_DOUBLE, down, 2, &u[kPoints + 1], 1, MPI_DOUBLE, up, 2, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    double sum = 0;
    for (int i = 1; i <= kPoints; ++i) {
      u[i] = 0.5 * u[i] + 0.25 * (u[i - 1] + u[i + 1]);
      sum += u[i];
    }
    MPI_Allreduce(&sum, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  if (rank == 0) {
    printf("checksum %.12e\n", total);
    fflush(stdout);
  }
  /* No rank exits before rank 0's line is out: MPICH ends the job as soon
   * as one rank exits without MPI_Finalize, and the line could be lost
   * (run without the interposer, whose ranks meet at exit anyway). */
  MPI_Barrier(MPI_COMM_WORLD);
  free(u);
  exit(0);
}
