/* A 2-D explicit stencil in block rows whose halos go by MPI_Bsend from a
 * buffer the code attaches itself (and re-attaches, larger, every 10th
 * step, as codes that size it from the step's data do), received with
 * MPI_ANY_SOURCE and sorted by the status's source; the step's energy is
 * reduced by an MPI_Iallreduce overlapped with the interior update and
 * polled with MPI_Test between row blocks.
 * Usage: bsend_overlap [rows_per_rank [columns [steps]]] */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int rows = argc > 1 ? atoi(argv[1]) : 64;
  const int cols = argc > 2 ? atoi(argv[2]) : 2048;
  const int steps = argc > 3 ? atoi(argv[3]) : 200;
  const int up = rank > 0 ? rank - 1 : MPI_PROC_NULL, down = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;
  const int neighbours = (up != MPI_PROC_NULL) + (down != MPI_PROC_NULL);
  double *u = malloc((size_t)(rows + 2) * cols * sizeof *u), *v = malloc((size_t)(rows + 2) * cols * sizeof *v);
  for (int i = 0; i < (rows + 2) * cols; ++i) u[i] = v[i] = 0;
  for (int i = 1; i <= rows; ++i)
    for (int j = 0; j < cols; ++j) u[i * cols + j] = sin(0.01 * (rank * rows + i)) * cos(0.003 * j);
  int pack = 0;
  MPI_Pack_size(cols, MPI_DOUBLE, MPI_COMM_WORLD, &pack);
  int buffer_bytes = 2 * (pack + MPI_BSEND_OVERHEAD);
  void *buffer = malloc(buffer_bytes);
  MPI_Buffer_attach(buffer, buffer_bytes);
  double energy = 0, global = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  const double t0 = MPI_Wtime();
  for (int s = 0; s < steps; ++s) {
    if (s > 0 && s % 10 == 0) {
      int bytes;
      MPI_Buffer_detach(&buffer, &bytes);
      free(buffer);
      buffer_bytes = bytes + 64;
      buffer = malloc(buffer_bytes);
      MPI_Buffer_attach(buffer, buffer_bytes);
    }
    if (up != MPI_PROC_NULL) MPI_Bsend(&u[1 * cols], cols, MPI_DOUBLE, up, 3, MPI_COMM_WORLD);
    if (down != MPI_PROC_NULL) MPI_Bsend(&u[rows * cols], cols, MPI_DOUBLE, down, 3, MPI_COMM_WORLD);
    double *edge = malloc(cols * sizeof *edge);
    for (int k = 0; k < neighbours; ++k) {
      MPI_Status st;
      MPI_Recv(edge, cols, MPI_DOUBLE, MPI_ANY_SOURCE, 3, MPI_COMM_WORLD, &st);
      double *to = st.MPI_SOURCE == up ? &u[0] : &u[(rows + 1) * cols];
      for (int j = 0; j < cols; ++j) to[j] = edge[j];
    }
    free(edge);
    MPI_Request sum;
    MPI_Iallreduce(&energy, &global, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &sum);
    energy = 0;
    int done = 0;
    for (int i = 1; i <= rows; ++i) {
      for (int j = 1; j < cols - 1; ++j) {
        const double n = u[i * cols + j] + 0.1 * (u[(i - 1) * cols + j] + u[(i + 1) * cols + j] +
                                                   u[i * cols + j - 1] + u[i * cols + j + 1] - 4 * u[i * cols + j]);
        v[i * cols + j] = n;
        energy += n * n;
      }
      if (!done && i % 16 == 0) MPI_Test(&sum, &done, MPI_STATUS_IGNORE);
    }
    if (!done) MPI_Wait(&sum, MPI_STATUS_IGNORE);
    double *w = u;
    u = v;
    v = w;
  }
  const double t = MPI_Wtime() - t0;
  int bytes;
  MPI_Buffer_detach(&buffer, &bytes);
  free(buffer);
  if (rank == 0) {
    printf("result energy %.9e\n", global);
    printf("loop: %d iterations, %.6f s, %.6e s per iteration\n", steps, t, t / steps);
  }
  free(u), free(v);
  MPI_Finalize();
  return 0;
}
