/* Sends of three kinds in one loop, for the profile to tell apart: a halo
 * posted with MPI_Isend/MPI_Irecv, overlapped with compute and completed by
 * MPI_Waitall (tag 1); a blocking MPI_Send down a chain (tag 2); a
 * persistent send started with MPI_Startall, overlapped with compute and
 * completed by polling MPI_Testall (tag 3). Prints a checksum of what was
 * received, which must not change under the interposer.
 * Usage: nonblocking_sends [iterations] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "tests/common/cpu_work.h"

#define N 8192

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int iterations = argc > 1 ? atoi(argv[1]) : 60;
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  double* halo = calloc(4 * N, sizeof(double)); /* out, in, persistent out, persistent in */
  double chain[16] = {0};
  MPI_Request persistent[2];
  MPI_Send_init(halo + 2 * N, N, MPI_DOUBLE, right, 3, MPI_COMM_WORLD, &persistent[0]);
  MPI_Recv_init(halo + 3 * N, N, MPI_DOUBLE, left, 3, MPI_COMM_WORLD, &persistent[1]);
  double checksum = 0;
  for (int it = 0; it < iterations; ++it) {
    for (int i = 0; i < N; ++i) halo[i] = rank + it + 1e-3 * i;
    MPI_Request requests[2];
    MPI_Irecv(halo + N, N, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, &requests[0]);
    MPI_Isend(halo, N, MPI_DOUBLE, right, 1, MPI_COMM_WORLD, &requests[1]);
    compute_for(400e-6); /* the interior, while the halo travels */
    MPI_Waitall(2, requests, MPI_STATUSES_IGNORE);
    checksum += halo[2 * N - 1];
    compute_for(100e-6);
    /* Down the chain: rank r sends to r - 1, then receives from r + 1. */
    chain[it % 16] = checksum;
    if (rank > 0) MPI_Send(chain, 16, MPI_DOUBLE, rank - 1, 2, MPI_COMM_WORLD);
    if (rank + 1 < size) MPI_Recv(chain, 16, MPI_DOUBLE, rank + 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (int i = 0; i < N; ++i) halo[2 * N + i] = 0.5 * halo[N + i] + chain[i % 16];
    MPI_Startall(2, persistent);
    compute_for(200e-6);
    int done = 0;
    while (!done) MPI_Testall(2, persistent, &done, MPI_STATUSES_IGNORE);
    checksum += halo[3 * N];
  }
  MPI_Request_free(&persistent[0]);
  MPI_Request_free(&persistent[1]);
  double total = 0;
  MPI_Reduce(&checksum, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) printf("checksum %.10e\n", total);
  free(halo);
  MPI_Finalize();
  return 0;
}
