/* A 1-D relaxation whose halos go by MPI-4's MPI_Isendrecv and
 * MPI_Isendrecv_replace, rows block-distributed: each step the top row goes
 * up (MPI_Isendrecv, tag 1, the ghost below coming back) and the two bottom
 * rows go down (MPI_Isendrecv_replace, tag 2, in a buffer that the two rows
 * from above replace), the edge ranks sending to and receiving from
 * MPI_PROC_NULL as MPI_Cart_shift gives. The interior is relaxed while the
 * halos travel; the up exchange is completed by MPI_Wait, the down one by
 * polling MPI_Test; then the boundary rows are relaxed, and the step's change
 * is summed over the ranks (MPI_Allreduce). The halos differ in
 * size (one row up, two down) so that a profile tells the halves apart.
 *
 * Usage: isendrecv_halo [iterations [n]]   (default 300, 1024; at least 2 ranks)
 * Prints "result checksum <c>" and "result change <d>" (the last step's) on stdout, which must not change under the
 * interposer, and "loop: <k> iterations, <t> s, <t/k> s per iteration" on
 * stderr, a time, which does. Exits 77 (a skipped test) on an MPI before 4.0,
 * which has no MPI_Isendrecv. */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if MPI_VERSION >= 4
enum { UP = 1, DOWN = 2, ROWS = 96 };

/* One Jacobi sweep of rows [from, to) of u (with a ghost row above and two
 * below the block) into v; returns how much they changed. */
static double relax(const double* u, double* v, int n, int from, int to) {
  double change = 0;
  for (int i = from; i < to; ++i) {
    const double* c = u + (size_t)i * n;
    double* out = v + (size_t)i * n;
    for (int j = 1; j < n - 1; ++j) {
      out[j] = 0.25 * (c[j - 1] + c[j + 1] + c[j - n] + c[j + n]);
      change += fabs(out[j] - c[j]);
    }
  }
  return change;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int iterations = argc > 1 ? atoi(argv[1]) : 300;
  const int n = argc > 2 ? atoi(argv[2]) : 1024;
  const int above = rank > 0 ? rank - 1 : MPI_PROC_NULL, below = rank + 1 < size ? rank + 1 : MPI_PROC_NULL;
  /* Rows 1..ROWS are the block; row 0 the ghost from above, rows ROWS+1
   * and ROWS+2 the ghosts from below (only the first is used). */
  const size_t cells = (size_t)(ROWS + 3) * n;
  double* u = calloc(cells, sizeof(double));
  double* v = calloc(cells, sizeof(double));
  double* down = malloc(2 * (size_t)n * sizeof(double));
  for (int i = 1; i <= ROWS; ++i)
    for (int j = 0; j < n; ++j) u[(size_t)i * n + j] = (double)((rank * ROWS + i + 3 * j) % 17) / 17.0;
  memcpy(v, u, cells * sizeof(double));
  MPI_Barrier(MPI_COMM_WORLD);
  double total_change = 0;
  const double start = MPI_Wtime();
  for (int it = 0; it < iterations; ++it) {
    MPI_Request up_request, down_request;
    MPI_Isendrecv(u + n, n, MPI_DOUBLE, above, UP, u + (size_t)(ROWS + 1) * n, n, MPI_DOUBLE, below, UP, MPI_COMM_WORLD,
                  &up_request);
    memcpy(down, u + (size_t)(ROWS - 1) * n, 2 * (size_t)n * sizeof(double));
    MPI_Isendrecv_replace(down, 2 * n, MPI_DOUBLE, below, DOWN, above, DOWN, MPI_COMM_WORLD, &down_request);
    double change = relax(u, v, n, 2, ROWS); /* the interior, while the halos travel */
    MPI_Wait(&up_request, MPI_STATUS_IGNORE);
    int done = 0;
    while (!done) MPI_Test(&down_request, &done, MPI_STATUS_IGNORE);
    if (above != MPI_PROC_NULL) memcpy(u, down + n, (size_t)n * sizeof(double)); /* the row next to the block */
    change += relax(u, v, n, 1, 2) + relax(u, v, n, ROWS, ROWS + 1);
    MPI_Allreduce(&change, &total_change, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    double* t = u;
    u = v;
    v = t;
  }
  const double elapsed = MPI_Wtime() - start;
  double local = 0, checksum = 0, slowest = 0;
  for (int i = 1; i <= ROWS; ++i)
    for (int j = 0; j < n; ++j) local += u[(size_t)i * n + j] * (1 + (i + j) % 7);
  MPI_Reduce(&local, &checksum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Reduce(&elapsed, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    printf("result checksum %.12e\n", checksum);
    printf("result change %.12e\n", total_change);
    fprintf(stderr, "loop: %d iterations, %.6f s, %.6e s per iteration\n", iterations, slowest, slowest / iterations);
  }
  free(down);
  free(v);
  free(u);
  MPI_Finalize();
  return 0;
}
#else
int main(void) {
  fprintf(stderr, "isendrecv_halo: MPI_Isendrecv is MPI-4's, not in this MPI\n");
  return 77;
}
#endif
