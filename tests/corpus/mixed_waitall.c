/* Each iteration: control data broadcast by MPI_Ibcast from rank 0, halos
 * posted by MPI_Irecv/MPI_Isend, all five requests completed by one
 * MPI_Waitall after the interior is updated; a diagnostic value sent to
 * rank 0 by an MPI_Isend whose request is freed at once (MPI_Request_free),
 * received by rank 0 with MPI_ANY_SOURCE; an MPI_Allreduce of the residual
 * every fourth iteration. Usage: mixed_waitall N ITERATIONS (an N x N grid). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size; MPI_Comm_rank(MPI_COMM_WORLD, &rank); MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int n = argc > 1 ? atoi(argv[1]) : 512, iters = argc > 2 ? atoi(argv[2]) : 120;
  const int rows = n / size + (rank < n % size), cols = n;
  double *u = calloc((size_t)(rows + 2) * cols, sizeof(double)), *v = calloc((size_t)(rows + 2) * cols, sizeof(double));
  for (int i = 1; i <= rows; i++) for (int j = 0; j < cols; j++) u[i * cols + j] = sin(0.01 * (i + rank * rows)) * cos(0.02 * j);
  int up = rank + 1 < size ? rank + 1 : MPI_PROC_NULL, down = rank > 0 ? rank - 1 : MPI_PROC_NULL;
  double control[8] = {0.25, 0.25, 0.25, 0.25, 0, 0, 0, 0}, diag[2][2], residual = 0, diag_sum = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  for (int it = 0; it < iters; it++) {
    MPI_Request req[5];
    if (rank == 0) control[4] = it;
    MPI_Ibcast(control, 8, MPI_DOUBLE, 0, MPI_COMM_WORLD, &req[0]);
    MPI_Irecv(&u[0], cols, MPI_DOUBLE, down, 1, MPI_COMM_WORLD, &req[1]);
    MPI_Irecv(&u[(rows + 1) * cols], cols, MPI_DOUBLE, up, 2, MPI_COMM_WORLD, &req[2]);
    MPI_Isend(&u[rows * cols], cols, MPI_DOUBLE, up, 1, MPI_COMM_WORLD, &req[3]);
    MPI_Isend(&u[cols], cols, MPI_DOUBLE, down, 2, MPI_COMM_WORLD, &req[4]);
    for (int i = 2; i < rows; i++)
      for (int j = 1; j < cols - 1; j++)
        v[i * cols + j] = 0.25 * (u[(i - 1) * cols + j] + u[(i + 1) * cols + j] + u[i * cols + j - 1] + u[i * cols + j + 1]);
    MPI_Waitall(5, req, MPI_STATUSES_IGNORE);
    for (int i = 1; i <= rows; i += (rows > 1 ? rows - 1 : 1))
      for (int j = 1; j < cols - 1; j++)
        v[i * cols + j] = control[0] * u[(i - 1) * cols + j] + control[1] * u[(i + 1) * cols + j] + control[2] * u[i * cols + j - 1] + control[3] * u[i * cols + j + 1];
    double local = 0;
    for (int i = 1; i <= rows; i++) for (int j = 1; j < cols - 1; j++) { double d = v[i * cols + j] - u[i * cols + j]; local += d * d; u[i * cols + j] = v[i * cols + j]; }
    double *mine = diag[it % 2];
    mine[0] = local; mine[1] = rank;
    if (rank != 0) {
      MPI_Request fire;
      MPI_Isend(mine, 2, MPI_DOUBLE, 0, 3, MPI_COMM_WORLD, &fire);
      MPI_Request_free(&fire);
    } else {
      for (int k = 1; k < size; k++) { double got[2]; MPI_Recv(got, 2, MPI_DOUBLE, MPI_ANY_SOURCE, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE); diag_sum += got[0]; }
    }
    if (it % 4 == 3) MPI_Allreduce(&local, &residual, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  double t1 = MPI_Wtime();
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) printf("result residual %.10e\nresult diag %.6e\nloop: %d iterations, %f s, %e s per iteration\n", residual, diag_sum, iters, t1 - t0, (t1 - t0) / iters);
  free(u); free(v); MPI_Finalize(); return 0;
}
