/* Explicit heat equation on an n x n grid, rows block-distributed, halos
 * exchanged with MPI_Sendrecv. Convergence is checked every 10 steps with
 * an MPI_Allreduce. The time-stepping loop is bracketed with
 * MPI_Pcontrol(1) / MPI_Pcontrol(0), as codes do to tell profilers which
 * part to measure.
 *
 * Usage: heat_pcontrol [n [steps]]   (default 768, 400)
 * Prints "result energy <e>", "result change <d>" and
 * "loop: <k> iterations, <t> s, <t/k> s per iteration".
 */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int n = argc > 1 ? atoi(argv[1]) : 768;
  const int steps = argc > 2 ? atoi(argv[2]) : 400;
  const int rows = n / size + (rank < n % size), first = rank * (n / size) + (rank < n % size ? rank : n % size);
  const int up = rank > 0 ? rank - 1 : MPI_PROC_NULL, down = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;
  double* u = calloc((size_t)(rows + 2) * n, sizeof(double));
  double* v = calloc((size_t)(rows + 2) * n, sizeof(double));
  for (int i = 1; i <= rows; ++i)
    for (int j = 0; j < n; ++j) {
      const double x = (double)j / n - 0.5, y = (double)(first + i - 1) / n - 0.3;
      u[(size_t)i * n + j] = exp(-40 * (x * x + y * y));
    }
  double change = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Pcontrol(1);
  const double start = MPI_Wtime();
  int step;
  for (step = 1; step <= steps; ++step) {
    MPI_Sendrecv(u + (size_t)rows * n, n, MPI_DOUBLE, down, 0, u, n, MPI_DOUBLE, up, 0, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    MPI_Sendrecv(u + n, n, MPI_DOUBLE, up, 1, u + (size_t)(rows + 1) * n, n, MPI_DOUBLE, down, 1, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    double local = 0;
    for (int i = 1; i <= rows; ++i) {
      const double* c = u + (size_t)i * n;
      double* out = v + (size_t)i * n;
      for (int j = 1; j < n - 1; ++j) {
        out[j] = c[j] + 0.2 * (c[j - 1] + c[j + 1] + c[j - n] + c[j + n] - 4 * c[j]);
        local += fabs(out[j] - c[j]);
      }
    }
    double* t = u;
    u = v;
    v = t;
    if (step % 10 == 0) {
      MPI_Allreduce(&local, &change, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
      if (change < 1e-9) break;
    }
  }
  if (step > steps) step = steps;
  double elapsed = MPI_Wtime() - start, slowest = 0;
  MPI_Pcontrol(0);
  double energy_local = 0, energy = 0;
  for (int i = 1; i <= rows; ++i)
    for (int j = 0; j < n; ++j) energy_local += u[(size_t)i * n + j];
  MPI_Reduce(&energy_local, &energy, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Reduce(&elapsed, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    printf("result energy %.12e\n", energy / ((double)n * n));
    printf("result change %.12e\n", change);
    printf("loop: %d iterations, %.6f s, %.6e s per iteration\n", step, slowest, slowest / step);
  }
  free(u);
  free(v);
  MPI_Finalize();
  return 0;
}
