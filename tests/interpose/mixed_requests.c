/* A ring exchange written with every completion style the interposer must
 * follow: Isend/Irecv with MPI_ANY_SOURCE and MPI_STATUS(ES)_IGNORE,
 * persistent requests (Send_init/Recv_init/Startall), Waitany, Testsome,
 * Waitall, Sendrecv, collectives (one non-blocking), and MPI_Pcontrol around the third
 * iteration. Prints a checksum that must not change under the interposer.
 * Usage: mixed_requests [iterations] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define N 4096

static double work(double* x, int n, int iteration) {
  double s = 0;
  for (int r = 0; r < 200; ++r) {
    for (int i = 0; i < n; ++i) {
      x[i] = 0.5 * x[i] + 0.25 * (double)((i + iteration + r) % 7);
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
  const int iterations = argc > 1 ? atoi(argv[1]) : 8;
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  double* x = calloc(N, sizeof(double));
  double* out = calloc(N, sizeof(double));
  double* in = calloc(N, sizeof(double));
  double* pin = calloc(N, sizeof(double));
  double* pout = calloc(N, sizeof(double));
  MPI_Request persistent[2];
  MPI_Send_init(pout, N, MPI_DOUBLE, right, 7, MPI_COMM_WORLD, &persistent[0]);
  MPI_Recv_init(pin, N, MPI_DOUBLE, left, 7, MPI_COMM_WORLD, &persistent[1]);
  double checksum = 0;
  for (int it = 0; it < iterations; ++it) {
    /* Profiling control around iteration 3 (MHETA_CAPTURE=pcontrol). */
    if (it == 2) MPI_Pcontrol(1);
    checksum += work(x, N, it + rank);
    for (int i = 0; i < N; ++i) out[i] = x[i] + rank;
    /* Non-blocking ring with a wildcard receive completed by Waitany. */
    MPI_Request req[2];
    MPI_Irecv(in, N, MPI_DOUBLE, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &req[0]);
    MPI_Isend(out, N, MPI_DOUBLE, right, 3, MPI_COMM_WORLD, &req[1]);
    for (int done = 0; done < 2; ++done) {
      int index;
      MPI_Status status;
      MPI_Waitany(2, req, &index, &status);
    }
    checksum += in[N - 1];
    /* Persistent pair, polled with Testsome until both complete. */
    for (int i = 0; i < N; ++i) pout[i] = in[i] * 0.5;
    MPI_Startall(2, persistent);
    int remaining = 2;
    while (remaining > 0) {
      int outcount, indices[2];
      MPI_Testsome(2, persistent, &outcount, indices, MPI_STATUSES_IGNORE);
      if (outcount != MPI_UNDEFINED) remaining -= outcount;
    }
    checksum += pin[0];
    checksum += work(x, N / 2, it);
    /* Sendrecv the other way, then Waitall on a fresh pair. */
    MPI_Sendrecv(out, 16, MPI_DOUBLE, left, 5, in, 16, MPI_DOUBLE, right, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Irecv(in + 16, 8, MPI_DOUBLE, left, 9, MPI_COMM_WORLD, &req[0]);
    MPI_Isend(out + 16, 8, MPI_DOUBLE, right, 9, MPI_COMM_WORLD, &req[1]);
    MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
    double local = checksum, global = 0;
    MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    checksum = global / size;
    /* A non-blocking barrier completed by MPI_Wait. */
    MPI_Request barrier;
    MPI_Ibarrier(MPI_COMM_WORLD, &barrier);
    MPI_Wait(&barrier, MPI_STATUS_IGNORE);
    /* A barrier on MPI_COMM_SELF is not communication between ranks. */
    MPI_Barrier(MPI_COMM_SELF);
    if (it == 2) MPI_Pcontrol(0);
  }
  MPI_Request_free(&persistent[0]);
  MPI_Request_free(&persistent[1]);
  if (rank == 0) printf("checksum %.10e\n", checksum);
  free(x); free(out); free(in); free(pin); free(pout);
  MPI_Finalize();
  return 0;
}
