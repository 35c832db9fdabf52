/* Hybrid MPI + OpenMP Jacobi relaxation on an n x n grid, rows
 * block-distributed over the ranks, each rank's sweep shared by its OpenMP
 * threads (MPI_THREAD_FUNNELED: only the main thread calls MPI). Halos by
 * MPI_Sendrecv from the main thread, then a parallel sweep, then the
 * residual reduced over the ranks with MPI_Allreduce every step. The
 * threads' count comes from OMP_NUM_THREADS, as hybrid codes take it.
 * Each row's residual is summed by one thread and the rows are added in
 * order, so the results do not depend on the thread count's scheduling.
 *
 * Usage: omp_jacobi [n [steps]]   (default 2048, 100)
 * Prints "result residual <r>", "result sum <s>" and
 * "loop: <k> iterations, <t> s, <t/k> s per iteration".
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  int provided;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (provided < MPI_THREAD_FUNNELED) {
    if (rank == 0) fprintf(stderr, "omp_jacobi: the MPI library does not provide MPI_THREAD_FUNNELED\n");
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  const int n = argc > 1 ? atoi(argv[1]) : 2048;
  const int steps = argc > 2 ? atoi(argv[2]) : 100;
  const int rows = n / size + (rank < n % size), first = rank * (n / size) + (rank < n % size ? rank : n % size);
  const int up = rank > 0 ? rank - 1 : MPI_PROC_NULL, down = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;
  double* u = calloc((size_t)(rows + 2) * n, sizeof(double));
  double* v = calloc((size_t)(rows + 2) * n, sizeof(double));
  double* change = calloc((size_t)rows + 1, sizeof(double));
  if (!u || !v || !change) {
    fprintf(stderr, "rank %d: allocation failed\n", rank);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  for (int i = 1; i <= rows; ++i)
    for (int j = 0; j < n; ++j) u[(size_t)i * n + j] = v[(size_t)i * n + j] = (double)((first + i + 3 * j) % 17) / 17.0;

  double residual = 0.0;
  MPI_Barrier(MPI_COMM_WORLD);
  const double t0 = MPI_Wtime();
  for (int step = 0; step < steps; ++step) {
    MPI_Sendrecv(&u[(size_t)1 * n], n, MPI_DOUBLE, up, 0, &u[(size_t)(rows + 1) * n], n, MPI_DOUBLE, down, 0,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Sendrecv(&u[(size_t)rows * n], n, MPI_DOUBLE, down, 1, &u[0], n, MPI_DOUBLE, up, 1, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
#pragma omp parallel for schedule(static)
    for (int i = 1; i <= rows; ++i) {
      double row_change = 0.0;
      for (int j = 1; j + 1 < n; ++j) {
        const size_t k = (size_t)i * n + j;
        const double next = 0.25 * (u[k - n] + u[k + n] + u[k - 1] + u[k + 1]);
        row_change += (next - u[k]) * (next - u[k]);
        v[k] = next;
      }
      change[i] = row_change;
    }
    double local = 0.0;
    for (int i = 1; i <= rows; ++i) local += change[i];
    MPI_Allreduce(&local, &residual, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    double* t = u;
    u = v;
    v = t;
  }
  const double t1 = MPI_Wtime();

  double local = 0.0, sum = 0.0;
  for (int i = 1; i <= rows; ++i)
    for (int j = 0; j < n; ++j) local += u[(size_t)i * n + j];
  MPI_Reduce(&local, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    printf("result residual %.10e\n", residual);
    printf("result sum %.10e\n", sum);
    printf("loop: %d iterations, %.6f s, %.6e s per iteration\n", steps, t1 - t0, (t1 - t0) / steps);
  }
  free(u);
  free(v);
  free(change);
  MPI_Finalize();
  return 0;
}
