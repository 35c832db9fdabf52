/* Red-black SOR until the residual falls below a tolerance: two half sweeps
 * a step, each after a halo exchange (MPI_Sendrecv both ways), the residual
 * by MPI_Allreduce every step, and every 25th step a checkpoint of the
 * rank's rows to one shared file (MPI_File_write_at_all). The run's length
 * is decided as it goes. Usage: redblack_checkpoint ROWS COLS FILE */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size; MPI_Comm_rank(MPI_COMM_WORLD, &rank); MPI_Comm_size(MPI_COMM_WORLD, &size);
  int rows = argc > 1 ? atoi(argv[1]) : 512, cols = argc > 2 ? atoi(argv[2]) : 512;
  const char *path = argc > 3 ? argv[3] : "redblack.ckpt";
  int local = rows / size;
  double *u = calloc((size_t)(local + 2) * cols, sizeof(double));
  for (int i = 1; i <= local; i++) for (int j = 0; j < cols; j++) u[i * cols + j] = ((i + rank * local) * 31 + j * 17) % 97 / 97.0;
  int up = rank + 1 < size ? rank + 1 : MPI_PROC_NULL, down = rank > 0 ? rank - 1 : MPI_PROC_NULL;
  MPI_File fh;
  MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh);
  const double omega = 1.5, tol = 1e-6;
  double res = 1; int step = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  while (res > tol && step < 400) {
    double local_res = 0;
    for (int color = 0; color < 2; color++) {
      MPI_Sendrecv(&u[local * cols], cols, MPI_DOUBLE, up, color, &u[0], cols, MPI_DOUBLE, down, color, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Sendrecv(&u[1 * cols], cols, MPI_DOUBLE, down, 2 + color, &u[(local + 1) * cols], cols, MPI_DOUBLE, up, 2 + color, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      for (int i = 1; i <= local; i++) {
        int gi = i + rank * local;
        for (int j = 1 + (gi + color) % 2; j < cols - 1; j += 2) {
          double r = 0.25 * (u[(i - 1) * cols + j] + u[(i + 1) * cols + j] + u[i * cols + j - 1] + u[i * cols + j + 1]) - u[i * cols + j];
          if (gi == 1 || gi == rows) r = 0;
          u[i * cols + j] += omega * r; local_res += r * r;
        }
      }
    }
    MPI_Allreduce(&local_res, &res, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    res = sqrt(res / ((double)rows * cols));
    step++;
    if (step % 25 == 0)
      MPI_File_write_at_all(fh, (MPI_Offset)rank * local * cols * sizeof(double), &u[cols], local * cols, MPI_DOUBLE, MPI_STATUS_IGNORE);
  }
  double el = MPI_Wtime() - t0, mx;
  MPI_File_close(&fh);
  MPI_Reduce(&el, &mx, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (rank == 0) printf("result steps %d\nresult residual %.10e\nloop: %d iterations, %f s, %e s per iteration\n", step, res, step, mx, mx / step);
  free(u);
  MPI_Finalize(); return 0;
}
