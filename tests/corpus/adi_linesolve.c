/* ADI time stepping with pipelined tridiagonal solves, as line solvers on
 * a 2-D process grid do: for the x sweep each rank eliminates its part of
 * a batch of lines once the rank to its west has passed the batch's
 * coefficients (MPI_Recv), sends its own east (MPI_Send), then the back
 * substitution goes west the same way; the y sweep does the same along
 * the process columns. No collective in the loop, and no call that comes
 * once a step: four inner loops of the same two calls.
 * Usage: adi_linesolve N STEPS */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size; MPI_Comm_rank(MPI_COMM_WORLD, &rank); MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int n = argc > 1 ? atoi(argv[1]) : 512, steps = argc > 2 ? atoi(argv[2]) : 40, batch = 16;
  int dims[2] = {0, 0}; MPI_Dims_create(size, 2, dims);
  int px = rank % dims[0], py = rank / dims[0];
  int lx = n / dims[0], ly = n / dims[1];
  int west = px > 0 ? rank - 1 : MPI_PROC_NULL, east = px < dims[0] - 1 ? rank + 1 : MPI_PROC_NULL;
  int north = py > 0 ? rank - dims[0] : MPI_PROC_NULL, south = py < dims[1] - 1 ? rank + dims[0] : MPI_PROC_NULL;
  double *u = malloc(sizeof(double) * lx * ly), *cp = malloc(sizeof(double) * lx * ly), *dp = malloc(sizeof(double) * lx * ly);
  double msg[2 * 64];
  for (int j = 0; j < ly; j++) for (int i = 0; i < lx; i++) u[j * lx + i] = sin(0.01 * (i + px * lx)) * sin(0.013 * (j + py * ly));
  const double a = -0.3, b = 1.6, c = -0.3;
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  for (int s = 0; s < steps; s++) {
    for (int dir = 0; dir < 2; dir++) {
      /* lines along x (dir 0) or y (dir 1); li is the line's length here */
      int lines = dir ? lx : ly, len = dir ? ly : lx;
      int prev = dir ? north : west, next = dir ? south : east;
      int stride = dir ? lx : 1, step = dir ? 1 : lx;
      for (int b0 = 0; b0 < lines; b0 += batch) {
        int nb = lines - b0 < batch ? lines - b0 : batch;
        MPI_Recv(msg, 2 * nb, MPI_DOUBLE, prev, 40 + dir, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (int l = 0; l < nb; l++) {
          double *x = u + (size_t)(b0 + l) * step, *cc = cp + (size_t)(b0 + l) * step, *dd = dp + (size_t)(b0 + l) * step;
          double cprev = prev == MPI_PROC_NULL ? 0 : msg[2 * l], dprev = prev == MPI_PROC_NULL ? 0 : msg[2 * l + 1];
          for (int i = 0; i < len; i++) {
            double m = b - a * cprev;
            cc[i * stride] = c / m; dd[i * stride] = (x[i * stride] - a * dprev) / m;
            cprev = cc[i * stride]; dprev = dd[i * stride];
          }
          msg[2 * l] = cprev; msg[2 * l + 1] = dprev;
        }
        MPI_Send(msg, 2 * nb, MPI_DOUBLE, next, 40 + dir, MPI_COMM_WORLD);
      }
      for (int b0 = 0; b0 < lines; b0 += batch) {
        int nb = lines - b0 < batch ? lines - b0 : batch;
        MPI_Recv(msg, nb, MPI_DOUBLE, next, 50 + dir, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (int l = 0; l < nb; l++) {
          double *x = u + (size_t)(b0 + l) * step, *cc = cp + (size_t)(b0 + l) * step, *dd = dp + (size_t)(b0 + l) * step;
          double xn = next == MPI_PROC_NULL ? 0 : msg[l];
          for (int i = len - 1; i >= 0; i--) { x[i * stride] = dd[i * stride] - cc[i * stride] * xn; xn = x[i * stride]; }
          msg[l] = x[0];
        }
        MPI_Send(msg, nb, MPI_DOUBLE, prev, 50 + dir, MPI_COMM_WORLD);
      }
    }
    for (int q = 0; q < lx * ly; q++) u[q] += 0.01 * sin(0.001 * q + s);
  }
  double el = MPI_Wtime() - t0, mx, sum = 0, all;
  for (int q = 0; q < lx * ly; q++) sum += u[q];
  MPI_Reduce(&el, &mx, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  MPI_Reduce(&sum, &all, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) printf("result sum %.10e\nloop: %d iterations, %f s, %e s per iteration\n", all, steps, mx, mx / steps);
  free(u); free(cp); free(dp);
  MPI_Finalize(); return 0;
}
