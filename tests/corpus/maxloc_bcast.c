/* Each iteration: halos with the neighbours by MPI_Sendrecv, four sweeps
 * of a 1-D smoothing over the rank's block, the rank with the largest local
 * change found by MPI_Allreduce(MPI_MAXLOC), and that rank's strip
 * broadcast from it: the root moves with the data. Usage: maxloc_bcast
 * POINTS ITERATIONS. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size; MPI_Comm_rank(MPI_COMM_WORLD, &rank); MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int n = argc > 1 ? atoi(argv[1]) : 200000, iters = argc > 2 ? atoi(argv[2]) : 150;
  const int local = n / size + (rank < n % size);
  double *u = calloc(local + 2, sizeof(double)), *v = calloc(local + 2, sizeof(double));
  double strip[512];
  for (int i = 1; i <= local; i++) u[i] = sin(0.001 * (i + rank * 7919) * (rank + 1));
  int up = rank + 1 < size ? rank + 1 : MPI_PROC_NULL, down = rank > 0 ? rank - 1 : MPI_PROC_NULL;
  double checksum = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  for (int it = 0; it < iters; it++) {
    MPI_Sendrecv(&u[local], 1, MPI_DOUBLE, up, 1, &u[0], 1, MPI_DOUBLE, down, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Sendrecv(&u[1], 1, MPI_DOUBLE, down, 2, &u[local + 1], 1, MPI_DOUBLE, up, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    double change = 0;
    for (int sweep = 0; sweep < 4; sweep++) {
      for (int i = 1; i <= local; i++) v[i] = 0.25 * u[i - 1] + 0.5 * u[i] + 0.25 * u[i + 1] + 1e-4 * sin(it + i);
      for (int i = 1; i <= local; i++) { double d = fabs(v[i] - u[i]); if (d > change) change = d; u[i] = v[i]; }
    }
    struct { double value; int rank; } mine = {change * (1.0 + 0.37 * ((it * 7 + rank * 3) % size)), rank}, top;
    MPI_Allreduce(&mine, &top, 1, MPI_DOUBLE_INT, MPI_MAXLOC, MPI_COMM_WORLD);
    if (rank == top.rank) for (int i = 0; i < 512; i++) strip[i] = u[1 + i % local];
    MPI_Bcast(strip, 512, MPI_DOUBLE, top.rank, MPI_COMM_WORLD);
    for (int i = 0; i < 512; i += 64) checksum += strip[i];
  }
  double t1 = MPI_Wtime();
  double sum = 0, all = 0; for (int i = 1; i <= local; i++) sum += u[i];
  MPI_Reduce(&sum, &all, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) printf("result sum %.10e\nresult strips %.10e\nloop: %d iterations, %f s, %e s per iteration\n", all, checksum, iters, t1 - t0, (t1 - t0) / iters);
  free(u); free(v); MPI_Finalize(); return 0;
}
