/* Relaxation on a periodic 2-D process grid (MPI_Dims_create,
 * MPI_Cart_create): each step every rank posts MPI_Irecv/MPI_Isend of its
 * four edges, then sweeps its interior in chunks, polling MPI_Testsome
 * between chunks and folding each edge in as it lands; MPI_Waitall on the
 * sends; an MPI_Allreduce of the change every 5th step. On 2 or 3 ranks one
 * dimension has a single rank, whose neighbours there are itself.
 *
 * Usage: torus_testsome [n [steps]]   (default 512, 120)
 * Prints "result norm <r>", "result checksum <c>" and
 * "loop: <k> iterations, <t> s, <t/k> s per iteration".
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { kChunks = 8 };

/* Rows [from, to) of the n x n block, relaxed along each row. */
static void sweep(double* u, int n, int from, int to) {
  for (int i = from; i < to; ++i)
    for (int j = 1; j + 1 < n; ++j) u[(size_t)i * n + j] = 0.5 * u[(size_t)i * n + j] + 0.25 * (u[(size_t)i * n + j - 1] + u[(size_t)i * n + j + 1]);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int size, rank, dims[2] = {0, 0}, periods[2] = {1, 1};
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Dims_create(size, 2, dims);
  MPI_Comm grid;
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &grid);
  MPI_Comm_rank(grid, &rank);
  const int n = argc > 1 ? atoi(argv[1]) : 512;
  const int steps = argc > 2 ? atoi(argv[2]) : 120;
  int neighbour[4]; /* up, down, left, right */
  MPI_Cart_shift(grid, 0, 1, &neighbour[0], &neighbour[1]);
  MPI_Cart_shift(grid, 1, 1, &neighbour[2], &neighbour[3]);
  double* u = malloc(sizeof(double) * (size_t)n * n);
  double* in = malloc(sizeof(double) * 4 * (size_t)n);
  double* out = malloc(sizeof(double) * 4 * (size_t)n);
  if (!u || !in || !out) {
    fprintf(stderr, "rank %d: allocation failed\n", rank);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  for (size_t i = 0; i < (size_t)n * n; ++i) u[i] = (double)((i * 7 + (size_t)rank) % 11);

  double norm = 0.0, checksum = 0.0;
  MPI_Barrier(grid);
  const double t0 = MPI_Wtime();
  for (int step = 0; step < steps; ++step) {
    MPI_Request received[4], sent[4];
    for (int d = 0; d < 4; ++d) {
      for (int j = 0; j < n; ++j) {
        const size_t row = d == 0 ? 0 : d == 1 ? (size_t)n - 1 : (size_t)j;
        const size_t col = d < 2 ? (size_t)j : d == 2 ? 0 : (size_t)n - 1;
        out[(size_t)d * n + j] = u[row * n + col];
      }
      /* The edge from the neighbour in direction d left it in the opposite one. */
      MPI_Irecv(in + (size_t)d * n, n, MPI_DOUBLE, neighbour[d], d ^ 1, grid, &received[d]);
    }
    for (int d = 0; d < 4; ++d) MPI_Isend(out + (size_t)d * n, n, MPI_DOUBLE, neighbour[d], d, grid, &sent[d]);
    double edge[4] = {0, 0, 0, 0}; /* each edge's sum, added in a fixed order: the same whatever lands first */
    int pending = 4, chunk = 0;
    while (pending > 0) {
      if (chunk < kChunks) {
        sweep(u, n, chunk * n / kChunks, (chunk + 1) * n / kChunks);
        ++chunk;
      }
      int landed, which[4];
      MPI_Testsome(4, received, &landed, which, MPI_STATUSES_IGNORE);
      if (landed == MPI_UNDEFINED) break;
      for (int k = 0; k < landed; ++k) {
        for (int j = 0; j < n; ++j) edge[which[k]] += 1e-6 * in[(size_t)which[k] * n + j];
        --pending;
      }
    }
    for (; chunk < kChunks; ++chunk) sweep(u, n, chunk * n / kChunks, (chunk + 1) * n / kChunks);
    MPI_Waitall(4, sent, MPI_STATUSES_IGNORE);
    checksum += edge[0] + edge[1] + edge[2] + edge[3];
    if (step % 5 == 4) {
      const double local = checksum;
      MPI_Allreduce(&local, &norm, 1, MPI_DOUBLE, MPI_SUM, grid);
    }
  }
  const double t1 = MPI_Wtime();

  double total = 0.0;
  MPI_Reduce(&checksum, &total, 1, MPI_DOUBLE, MPI_SUM, 0, grid);
  if (rank == 0) {
    printf("result norm %.10e\n", norm);
    printf("result checksum %.10e\n", total);
    printf("loop: %d iterations, %.6f s, %.6e s per iteration\n", steps, t1 - t0, (t1 - t0) / steps);
  }
  free(u);
  free(in);
  free(out);
  MPI_Comm_free(&grid);
  MPI_Finalize();
  return 0;
}
