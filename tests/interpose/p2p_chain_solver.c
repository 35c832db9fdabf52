/* A solver written without the interposer in mind and without a collective
 * in its main loop: its setup broadcasts ten input parameters one by one
 * (a quick loop that repeats first) and reads nothing else; its main loop
 * exchanges halos along a chain of ranks (the end ranks have one neighbour,
 * the others two: different call counts per iteration), receiving with
 * MPI_ANY_SOURCE, and reduces its residual to rank 0 and back with
 * point-to-point messages. The first iteration also exchanges a start-up
 * message, unlike the rest. Prints a checksum that must not change under the
 * interposer, and the time of its main loop.
 * Usage: p2p_chain_solver [iterations] [work per iteration] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static double relax(double* u, int n, int work) {
  double change = 0;
  for (int w = 0; w < work; ++w) {
    for (int i = 1; i < n - 1; ++i) {
      const double next = 0.5 * (u[i - 1] + u[i + 1]);
      change += (next - u[i]) * (next - u[i]);
      u[i] = next;
    }
  }
  return change;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int iterations = argc > 1 ? atoi(argv[1]) : 30;
  const int work = argc > 2 ? atoi(argv[2]) : 40;
  int params[10];
  for (int p = 0; p < 10; ++p) {
    params[p] = rank == 0 ? p + 1 : 0;
    MPI_Bcast(&params[p], 1, MPI_INT, 0, MPI_COMM_WORLD);
  }
  const int n = 2000 + params[3];
  double* u = calloc((size_t)n, sizeof *u);
  double* parts = calloc((size_t)size, sizeof *parts);
  for (int i = 0; i < n; ++i) u[i] = (double)((rank * n + i) % 17);
  const int left = rank - 1, right = rank + 1 < size ? rank + 1 : -1;
  double checksum = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  const double start = MPI_Wtime();
  for (int it = 0; it < iterations; ++it) {
    if (it == 0 && right >= 0) MPI_Send(&u[n - 1], 1, MPI_DOUBLE, right, 9, MPI_COMM_WORLD);
    if (it == 0 && left >= 0) MPI_Recv(&u[0], 1, MPI_DOUBLE, left, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Request requests[2];
    double halo[2] = {0, 0};
    int posted = 0;
    if (left >= 0) MPI_Irecv(&halo[0], 1, MPI_DOUBLE, MPI_ANY_SOURCE, 1, MPI_COMM_WORLD, &requests[posted++]);
    if (right >= 0) MPI_Irecv(&halo[1], 1, MPI_DOUBLE, MPI_ANY_SOURCE, 2, MPI_COMM_WORLD, &requests[posted++]);
    if (left >= 0) MPI_Send(&u[1], 1, MPI_DOUBLE, left, 2, MPI_COMM_WORLD);
    if (right >= 0) MPI_Send(&u[n - 2], 1, MPI_DOUBLE, right, 1, MPI_COMM_WORLD);
    MPI_Waitall(posted, requests, MPI_STATUSES_IGNORE);
    if (left >= 0) u[0] = halo[0];
    if (right >= 0) u[n - 1] = halo[1];
    double residual = relax(u, n, work);
    /* The residual, summed on rank 0 and sent back: no collective. */
    if (rank == 0) {
      for (int r = 1; r < size; ++r) {
        double part = 0;
        MPI_Status status;
        MPI_Recv(&part, 1, MPI_DOUBLE, MPI_ANY_SOURCE, 3, MPI_COMM_WORLD, &status);
        parts[status.MPI_SOURCE] = part;  /* summed in rank order below: the same result whoever comes first */
      }
      for (int r = 1; r < size; ++r) residual += parts[r];
      for (int r = 1; r < size; ++r) MPI_Send(&residual, 1, MPI_DOUBLE, r, 4, MPI_COMM_WORLD);
    } else {
      MPI_Send(&residual, 1, MPI_DOUBLE, 0, 3, MPI_COMM_WORLD);
      MPI_Recv(&residual, 1, MPI_DOUBLE, 0, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    checksum += residual;
  }
  const double elapsed = MPI_Wtime() - start;
  if (rank == 0) {
    printf("checksum %.10e\n", checksum);
    printf("iteration_s %.6f\n", elapsed / iterations);
  }
  free(u);
  free(parts);
  MPI_Finalize();
  return 0;
}
