/* A heat loop on a ring of ranks whose halo length drifts a little every
 * step (the active part of a boundary, 600 to 649 doubles: 50 lengths, all
 * of one power of two in bytes), with a residual reduced every 10th step.
 * Its sizes vary, and detection still sees them as their power of two:
 * the loop is found from its first step, and all 20 of its 10-step
 * iterations are counted.
 *
 * Usage: drifting_halo [rows [steps]]   (defaults 128 200) */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, np;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &np);
  const int n = 1024, rows = argc > 1 ? atoi(argv[1]) : 128, steps = argc > 2 ? atoi(argv[2]) : 200;
  double* u = calloc((size_t)(rows + 2) * n, sizeof(double));
  double* v = calloc((size_t)(rows + 2) * n, sizeof(double));
  for (int i = 0; i < (rows + 2) * n; i++) u[i] = sin(i * 0.001 + rank);
  const int up = (rank + np - 1) % np, down = (rank + 1) % np;
  double res = 0, total = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  for (int s = 0; s < steps; s++) {
    const int len = 600 + (s * 7) % 50;
    MPI_Sendrecv(&u[1 * n], len, MPI_DOUBLE, up, 0, &u[(rows + 1) * n], len, MPI_DOUBLE, down, 0, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    MPI_Sendrecv(&u[rows * n], len, MPI_DOUBLE, down, 1, &u[0], len, MPI_DOUBLE, up, 1, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    res = 0;
    for (int i = 1; i <= rows; i++)
      for (int j = 1; j < n - 1; j++) {
        double x = u[i * n + j] + 0.2 * (u[(i - 1) * n + j] + u[(i + 1) * n + j] + u[i * n + j - 1] + u[i * n + j + 1] -
                                         4 * u[i * n + j]);
        res += fabs(x - u[i * n + j]);
        v[i * n + j] = x;
      }
    double* t = u;
    u = v;
    v = t;
    if (s % 10 == 9) MPI_Allreduce(&res, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  double t1 = MPI_Wtime();
  if (rank == 0)
    printf("result residual %.10e\nloop: %d iterations, %.6f s, %.6e s per iteration\n", total, steps, t1 - t0,
           (t1 - t0) / steps);
  free(u);
  free(v);
  MPI_Finalize();
}
