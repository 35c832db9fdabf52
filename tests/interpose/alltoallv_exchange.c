/* A transpose loop with uneven blocks: every iteration each rank sends
 * 64 (p + 1) ints to peer p with MPI_Alltoallv, then 32 (P + 1) ints to
 * every peer with MPI_Alltoall, the same bytes per peer on average, and
 * reduces a checksum. Prints the checksum, which must not change under the
 * interposer. Usage: alltoallv_exchange [iterations] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int iterations = argc > 1 ? atoi(argv[1]) : 20;
  int* send_counts = malloc(sizeof(int) * size);
  int* recv_counts = malloc(sizeof(int) * size);
  int* send_displs = malloc(sizeof(int) * size);
  int* recv_displs = malloc(sizeof(int) * size);
  int send_total = 0, recv_total = 0;
  for (int p = 0; p < size; ++p) {
    send_counts[p] = 64 * (p + 1);
    recv_counts[p] = 64 * (rank + 1);
    send_displs[p] = send_total;
    recv_displs[p] = recv_total;
    send_total += send_counts[p];
    recv_total += recv_counts[p];
  }
  const int even = 32 * (size + 1);  /* the mean of send_counts */
  int* send = malloc(sizeof(int) * (send_total > even * size ? send_total : even * size));
  int* recv = malloc(sizeof(int) * (recv_total > even * size ? recv_total : even * size));
  double checksum = 0;
  for (int it = 0; it < iterations; ++it) {
    for (int i = 0; i < send_total; ++i) send[i] = rank * 1000 + it + i % 7;
    MPI_Alltoallv(send, send_counts, send_displs, MPI_INT, recv, recv_counts, recv_displs, MPI_INT, MPI_COMM_WORLD);
    double local = 0;
    for (int i = 0; i < recv_total; ++i) local += recv[i];
    MPI_Alltoall(send, even, MPI_INT, recv, even, MPI_INT, MPI_COMM_WORLD);
    for (int i = 0; i < even * size; ++i) local += 0.5 * recv[i];
    double total = 0;
    MPI_Allreduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    checksum += total;
  }
  if (rank == 0) printf("checksum %.10e\n", checksum);
  free(send);
  free(recv);
  free(send_counts);
  free(recv_counts);
  free(send_displs);
  free(recv_displs);
  MPI_Finalize();
  return 0;
}
