/* SSOR on a 2-D process grid over (x, y) with nz planes per rank, as
 * wavefront solvers are written: each iteration a halo exchange (Irecv,
 * Send, Wait in each direction), a lower sweep plane by plane (Recv from
 * north and west, compute, Send to south and east) and an upper sweep back
 * from the south-east corner; the residual norm by MPI_Allreduce every
 * inorm steps. Every parameter is read on rank 0 and broadcast on its own.
 * Usage: lu_wavefront2d NX NY NZ ITERATIONS INORM */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
static int nx, ny, nz, itmax, inorm;
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size; MPI_Comm_rank(MPI_COMM_WORLD, &rank); MPI_Comm_size(MPI_COMM_WORLD, &size);
  int params[5] = {64, 64, 32, 60, 5};
  if (rank == 0 && argc > 1) for (int i = 0; i < 5 && i + 1 < argc; i++) params[i] = atoi(argv[i + 1]);
  for (int i = 0; i < 5; i++) MPI_Bcast(&params[i], 1, MPI_INT, 0, MPI_COMM_WORLD);
  nx = params[0]; ny = params[1]; nz = params[2]; itmax = params[3]; inorm = params[4];
  double omega = 1.2; MPI_Bcast(&omega, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  int dims[2] = {0, 0}; MPI_Dims_create(size, 2, dims);
  int px = rank % dims[0], py = rank / dims[0];
  int lx = nx / dims[0], ly = ny / dims[1];
  int north = py > 0 ? rank - dims[0] : MPI_PROC_NULL, south = py < dims[1] - 1 ? rank + dims[0] : MPI_PROC_NULL;
  int west = px > 0 ? rank - 1 : MPI_PROC_NULL, east = px < dims[0] - 1 ? rank + 1 : MPI_PROC_NULL;
  size_t plane = (size_t)(lx + 2) * (ly + 2);
  double *u = malloc(sizeof(double) * plane * nz), *rsd = malloc(sizeof(double) * plane * nz);
  double *bufx = malloc(sizeof(double) * (ly + 2) * nz * 2), *bufy = malloc(sizeof(double) * (lx + 2) * nz * 2);
  double *line = malloc(sizeof(double) * (lx + ly + 4));
#define U(a, i, j, k) a[((size_t)(k) * (ly + 2) + (j)) * (lx + 2) + (i)]
  for (int k = 0; k < nz; k++) for (int j = 0; j < ly + 2; j++) for (int i = 0; i < lx + 2; i++) {
    U(u, i, j, k) = 0; U(rsd, i, j, k) = sin(0.01 * (i + px * lx)) * cos(0.02 * (j + py * ly)) + 0.001 * k;
  }
  double norm = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  for (int it = 1; it <= itmax; it++) {
    /* exchange_3: the rsd faces with the four neighbours */
    MPI_Request req;
    MPI_Irecv(bufy, (lx + 2) * nz, MPI_DOUBLE, north, 10, MPI_COMM_WORLD, &req);
    for (int k = 0; k < nz; k++) for (int i = 0; i < lx + 2; i++) bufy[(lx + 2) * nz + k * (lx + 2) + i] = U(rsd, i, ly, k);
    MPI_Send(bufy + (lx + 2) * nz, (lx + 2) * nz, MPI_DOUBLE, south, 10, MPI_COMM_WORLD);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    if (north != MPI_PROC_NULL) for (int k = 0; k < nz; k++) for (int i = 0; i < lx + 2; i++) U(rsd, i, 0, k) = bufy[k * (lx + 2) + i];
    MPI_Irecv(bufx, (ly + 2) * nz, MPI_DOUBLE, west, 11, MPI_COMM_WORLD, &req);
    for (int k = 0; k < nz; k++) for (int j = 0; j < ly + 2; j++) bufx[(ly + 2) * nz + k * (ly + 2) + j] = U(rsd, lx, j, k);
    MPI_Send(bufx + (ly + 2) * nz, (ly + 2) * nz, MPI_DOUBLE, east, 11, MPI_COMM_WORLD);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    if (west != MPI_PROC_NULL) for (int k = 0; k < nz; k++) for (int j = 0; j < ly + 2; j++) U(rsd, 0, j, k) = bufx[k * (ly + 2) + j];
    /* blts: plane by plane, the wavefront from the north-west corner */
    for (int k = 1; k < nz; k++) {
      MPI_Recv(line, lx + 2, MPI_DOUBLE, north, 20, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      if (north != MPI_PROC_NULL) for (int i = 0; i < lx + 2; i++) U(u, i, 0, k) = line[i];
      MPI_Recv(line, ly + 2, MPI_DOUBLE, west, 21, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      if (west != MPI_PROC_NULL) for (int j = 0; j < ly + 2; j++) U(u, 0, j, k) = line[j];
      for (int j = 1; j <= ly; j++) for (int i = 1; i <= lx; i++)
        U(u, i, j, k) = (1 - omega) * U(u, i, j, k) + omega * 0.2 * (U(rsd, i, j, k) + U(u, i - 1, j, k) + U(u, i, j - 1, k) + U(u, i, j, k - 1));
      for (int i = 0; i < lx + 2; i++) line[i] = U(u, i, ly, k);
      MPI_Send(line, lx + 2, MPI_DOUBLE, south, 20, MPI_COMM_WORLD);
      for (int j = 0; j < ly + 2; j++) line[j] = U(u, lx, j, k);
      MPI_Send(line, ly + 2, MPI_DOUBLE, east, 21, MPI_COMM_WORLD);
    }
    /* buts: back from the south-east corner */
    for (int k = nz - 2; k >= 0; k--) {
      MPI_Recv(line, lx + 2, MPI_DOUBLE, south, 30, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      if (south != MPI_PROC_NULL) for (int i = 0; i < lx + 2; i++) U(u, i, ly + 1, k) = line[i];
      MPI_Recv(line, ly + 2, MPI_DOUBLE, east, 31, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      if (east != MPI_PROC_NULL) for (int j = 0; j < ly + 2; j++) U(u, lx + 1, j, k) = line[j];
      for (int j = ly; j >= 1; j--) for (int i = lx; i >= 1; i--)
        U(u, i, j, k) = (1 - omega) * U(u, i, j, k) + omega * 0.2 * (U(rsd, i, j, k) + U(u, i + 1, j, k) + U(u, i, j + 1, k) + U(u, i, j, k + 1));
      for (int i = 0; i < lx + 2; i++) line[i] = U(u, i, 1, k);
      MPI_Send(line, lx + 2, MPI_DOUBLE, north, 30, MPI_COMM_WORLD);
      for (int j = 0; j < ly + 2; j++) line[j] = U(u, 1, j, k);
      MPI_Send(line, ly + 2, MPI_DOUBLE, west, 31, MPI_COMM_WORLD);
    }
    for (int k = 0; k < nz; k++) for (int j = 1; j <= ly; j++) for (int i = 1; i <= lx; i++) U(rsd, i, j, k) = 0.999 * U(rsd, i, j, k) + 1e-4 * U(u, i, j, k);
    if (it % inorm == 0 || it == itmax) {
      double s = 0, all;
      for (int k = 0; k < nz; k++) for (int j = 1; j <= ly; j++) for (int i = 1; i <= lx; i++) s += U(rsd, i, j, k) * U(rsd, i, j, k);
      MPI_Allreduce(&s, &all, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
      norm = sqrt(all / ((double)nx * ny * nz));
    }
  }
  double t1 = MPI_Wtime(), el = t1 - t0, mx;
  MPI_Reduce(&el, &mx, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  double s = 0, all = 0;
  for (int k = 0; k < nz; k++) for (int j = 1; j <= ly; j++) for (int i = 1; i <= lx; i++) s += U(u, i, j, k);
  MPI_Reduce(&s, &all, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) printf("result norm %.10e\nresult usum %.10e\nloop: %d iterations, %f s, %e s per iteration\n", norm, all, itmax, mx, mx / itmax);
  free(u); free(rsd); free(bufx); free(bufy); free(line);
  MPI_Finalize(); return 0;
}
