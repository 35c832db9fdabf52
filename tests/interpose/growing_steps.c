/* A loop whose steps grow: step s computes (s + 1)^2 units, as a front or
 * a refined mesh makes each step dearer than the last, then trades a halo
 * with its neighbours (MPI_Sendrecv) and reduces a residual
 * (MPI_Allreduce). The captured steps are early ones: the run's mean step
 * takes several times as long, and the capture says so (its pace).
 * "steady" gives every step the same work, the mean of the growing ones.
 *
 * Usage: growing_steps [steps [units [grow|steady]]]   (defaults 60 3000 grow) */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* `units` of dependent arithmetic the compiler cannot fold away. */
static double work(double x, long units) {
  for (long i = 0; i < units * 100; i++) x = x * 0.999999 + 1e-6;
  return x;
}

int main(int argc, char** argv) {
  const int steps = argc > 1 ? atoi(argv[1]) : 60;
  const long units = argc > 2 ? atol(argv[2]) : 3000;
  const int steady = argc > 3 && strcmp(argv[3], "steady") == 0;
  MPI_Init(&argc, &argv);
  int rank, np;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &np);
  const long mean_square = (long)(steps + 1) * (2L * steps + 1) / 6;  /* mean of (s + 1)^2 */
  double halo[64] = {0}, edge[64], x = rank, total = 0;
  const int up = (rank + np - 1) % np, down = (rank + 1) % np;
  MPI_Barrier(MPI_COMM_WORLD);
  const double t0 = MPI_Wtime();
  for (int s = 0; s < steps; s++) {
    const long square = steady ? mean_square : (long)(s + 1) * (s + 1);
    x = work(x, units * square / mean_square);
    for (int i = 0; i < 64; i++) edge[i] = x + i;
    MPI_Sendrecv(edge, 64, MPI_DOUBLE, down, 0, halo, 64, MPI_DOUBLE, up, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    double mine = x + halo[63], sum = 0;
    MPI_Allreduce(&mine, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    total += sum;
  }
  const double t1 = MPI_Wtime();
  if (rank == 0)
    printf("result total %.10e\nloop: %d iterations, %.6f s, %.6e s per iteration\n", total, steps, t1 - t0,
           (t1 - t0) / steps);
  MPI_Finalize();
  return 0;
}
