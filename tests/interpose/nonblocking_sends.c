/* Sends of three kinds in one loop, for the profile to tell apart: a halo
 * posted with MPI_Isend/MPI_Irecv, overlapped with compute and completed by
 * MPI_Waitall (tag 1); a blocking MPI_Send down a chain (tag 2); a
 * persistent send started with MPI_Startall, overlapped with compute and
 * completed by polling MPI_Testall (tag 3). Prints a checksum that must not
 * change under the interposer.
 * Usage: nonblocking_sends [iterations] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define N 8192

static double work(double* x, int n, int sweeps) {
  double s = 0;
  for (int r = 0; r < sweeps; ++r) {
    for (int i = 0; i < n; ++i) {
      x[i] = 0.5 * x[i] + 0.25 * (double)((i + r) % 7);
      s += x[i];
    }
  }
  return s;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int iterations = argc > 1 ? atoi(argv[1]) : 60;
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  double* x = calloc(N, sizeof(double));
  double* halo_out = calloc(N, sizeof(double));
  double* halo_in = calloc(N, sizeof(double));
  double* chain = calloc(16, sizeof(double));
  double* p_out = calloc(N, sizeof(double));
  double* p_in = calloc(N, sizeof(double));
  MPI_Request persistent[2];
  MPI_Send_init(p_out, N, MPI_DOUBLE, right, 3, MPI_COMM_WORLD, &persistent[0]);
  MPI_Recv_init(p_in, N, MPI_DOUBLE, left, 3, MPI_COMM_WORLD, &persistent[1]);
  double checksum = 0;
  for (int it = 0; it < iterations; ++it) {
    for (int i = 0; i < N; ++i) halo_out[i] = x[i] + rank + it;
    MPI_Request halo[2];
    MPI_Irecv(halo_in, N, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, &halo[0]);
    MPI_Isend(halo_out, N, MPI_DOUBLE, right, 1, MPI_COMM_WORLD, &halo[1]);
    checksum += work(x, N, 40); /* the interior, while the halo travels */
    MPI_Waitall(2, halo, MPI_STATUSES_IGNORE);
    checksum += halo_in[N - 1] + work(x, N, 10);
    /* Down the chain: rank r sends to r - 1, then receives from r + 1. */
    for (int i = 0; i < 16; ++i) chain[i] = checksum * 1e-9 + i;
    if (rank > 0) MPI_Send(chain, 16, MPI_DOUBLE, rank - 1, 2, MPI_COMM_WORLD);
    if (rank + 1 < size) MPI_Recv(chain, 16, MPI_DOUBLE, rank + 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    checksum += chain[15];
    for (int i = 0; i < N; ++i) p_out[i] = halo_in[i] * 0.5;
    MPI_Startall(2, persistent);
    checksum += work(x, N, 20);
    int done = 0;
    while (!done) MPI_Testall(2, persistent, &done, MPI_STATUSES_IGNORE);
    checksum += p_in[0];
  }
  MPI_Request_free(&persistent[0]);
  MPI_Request_free(&persistent[1]);
  double global = 0;
  MPI_Reduce(&checksum, &global, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) printf("checksum %.10e\n", global);
  free(x); free(halo_out); free(halo_in); free(chain); free(p_out); free(p_in);
  MPI_Finalize();
  return 0;
}
