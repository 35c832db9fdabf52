/* A 2-D nine-point relaxation on an n x n grid, rows block-distributed,
 * written the way unstructured-mesh codes exchange halos: every rank lists
 * the ranks it shares a boundary with in a distributed graph
 * (MPI_Dist_graph_create_adjacent: the rank above and the rank below, one
 * of them at the ends) and exchanges its boundary rows with all of them in
 * one MPI_Neighbor_alltoallv, each block taken from its place in the field
 * by displacement. Rank 0 takes the parameters and broadcasts them one by
 * one. Every tenth step the ranks write their rows of the field to one
 * shared file with a split collective write (MPI_File_write_at_all_begin /
 * _end) and reduce the change for the log (MPI_Allreduce); at the end each
 * reads its rows of the last snapshot back (MPI_File_read_at_all_begin /
 * _end).
 *
 * Usage: graph_halo [file [n [steps]]]   (default graph_halo.dat in the working folder, 1024, 300)
 * Prints "result norm <r>", "result snapshot <s>", "result change <d>" and
 * "loop: <k> iterations, <t> s, <t/k> s per iteration".
 */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { OUTPUT_EVERY = 10 };

static void relax(const double* u, double* v, int rows, int n, double diffusion, double* change) {
  double local = 0;
  for (int i = 1; i <= rows; ++i) {
    const double* c = u + (size_t)i * n;
    double* out = v + (size_t)i * n;
    for (int j = 1; j < n - 1; ++j) {
      const double edges = c[j - 1] + c[j + 1] + c[j - n] + c[j + n];
      const double corners = c[j - n - 1] + c[j - n + 1] + c[j + n - 1] + c[j + n + 1];
      out[j] = c[j] + diffusion * (edges + 0.5 * corners - 6 * c[j]);
      local += fabs(out[j] - c[j]);
    }
  }
  *change = local;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  /* The parameters, as rank 0 read them, broadcast one by one. */
  int n = 1024, steps = 300, output_every = OUTPUT_EVERY;
  double diffusion = 0.1;
  if (rank == 0) {
    if (argc > 2) n = atoi(argv[2]);
    if (argc > 3) steps = atoi(argv[3]);
  }
  MPI_Bcast(&n, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Bcast(&steps, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Bcast(&output_every, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Bcast(&diffusion, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  const char* path = argc > 1 ? argv[1] : "graph_halo.dat";

  const int rows = n / size + (rank < n % size), first = rank * (n / size) + (rank < n % size ? rank : n % size);
  /* The boundaries this rank shares: with the rank above and the rank below. */
  int neighbours[2], degree = 0;
  if (rank > 0) neighbours[degree++] = rank - 1;
  if (rank < size - 1) neighbours[degree++] = rank + 1;
  MPI_Comm graph;
  MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, degree, neighbours, MPI_UNWEIGHTED, degree, neighbours,
                                 MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &graph);
  /* Each neighbour gets the row next to it and sends one back. */
  int counts[2], send_at[2], recv_at[2];
  for (int k = 0; k < degree; ++k) {
    counts[k] = n;
    send_at[k] = neighbours[k] < rank ? n : rows * n; /* first or last row of the block */
    recv_at[k] = neighbours[k] < rank ? 0 : n;
  }
  double* u = calloc((size_t)(rows + 2) * n, sizeof(double));
  double* v = calloc((size_t)(rows + 2) * n, sizeof(double));
  double* ghosts = calloc(2 * (size_t)n, sizeof(double));
  for (int i = 1; i <= rows; ++i)
    for (int j = 0; j < n; ++j) {
      const double x = (double)j / n - 0.4, y = (double)(first + i - 1) / n - 0.6;
      u[(size_t)i * n + j] = exp(-30 * (x * x + y * y)) + 0.1 * ((first + i + j) % 5);
    }
  memcpy(v, u, sizeof(double) * (size_t)(rows + 2) * n); /* the edge columns stay as they are */
  MPI_File snapshot;
  if (MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL,
                    &snapshot) != MPI_SUCCESS) {
    fprintf(stderr, "graph_halo: cannot open %s\n", path);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  const MPI_Offset mine = (MPI_Offset)first * n * (MPI_Offset)sizeof(double);

  double change = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  const double start = MPI_Wtime();
  for (int step = 1; step <= steps; ++step) {
    MPI_Neighbor_alltoallv(u, counts, send_at, MPI_DOUBLE, ghosts, counts, recv_at, MPI_DOUBLE, graph);
    if (rank > 0) memcpy(u, ghosts, sizeof(double) * (size_t)n);
    if (rank < size - 1) memcpy(u + (size_t)(rows + 1) * n, ghosts + n, sizeof(double) * (size_t)n);
    double local = 0;
    relax(u, v, rows, n, diffusion, &local);
    double* t = u;
    u = v;
    v = t;
    if (step % output_every == 0) {
      MPI_Status status;
      MPI_File_write_at_all_begin(snapshot, mine, u + n, rows * n, MPI_DOUBLE);
      MPI_File_write_at_all_end(snapshot, u + n, &status);
      MPI_Allreduce(&local, &change, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    }
  }
  double elapsed = MPI_Wtime() - start, slowest = 0;

  double* back = malloc(sizeof(double) * (size_t)rows * n);
  MPI_Status status;
  MPI_File_read_at_all_begin(snapshot, mine, back, rows * n, MPI_DOUBLE);
  MPI_File_read_at_all_end(snapshot, back, &status);
  MPI_File_close(&snapshot);
  double norm_local = 0, snapshot_local = 0, norm = 0, snapshot_sum = 0;
  for (int i = 1; i <= rows; ++i)
    for (int j = 0; j < n; ++j) norm_local += u[(size_t)i * n + j] * u[(size_t)i * n + j];
  for (size_t k = 0; k < (size_t)rows * n; ++k) snapshot_local += back[k] * (1 + (double)(k % 7));
  MPI_Reduce(&norm_local, &norm, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Reduce(&snapshot_local, &snapshot_sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Reduce(&elapsed, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    printf("result norm %.12e\n", sqrt(norm) / n);
    printf("result snapshot %.12e\n", snapshot_sum);
    printf("result change %.12e\n", change);
    printf("loop: %d iterations, %.6f s, %.6e s per iteration\n", steps, slowest, slowest / steps);
  }
  free(back);
  free(ghosts);
  free(u);
  free(v);
  MPI_Comm_free(&graph);
  MPI_Finalize();
  return 0;
}
