/* A wavefront down a chain of ranks and back whose receives are
 * non-blocking: each block is received from the rank before (MPI_PROC_NULL
 * at the chain's end, as MPI_Cart_shift gives), relaxed for a few
 * microseconds and sent on. The receives take every non-blocking form:
 * MPI_Irecv completed by MPI_Wait, by polling MPI_Test and by MPI_Waitany,
 * a persistent receive started with MPI_Start and completed by MPI_Waitall,
 * and MPI_Irecv_c (MPI 4) completed by polling MPI_Testall. The edge ranks'
 * profile must keep each block's compute after the receive from nobody, in
 * a section of its own. Prints a checksum of what was received and of every
 * receive's status and request handle as the program sees them, which must
 * not change under the interposer.
 * Usage: receives_from_nobody [iterations] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "tests/common/cpu_work.h"

#define N 256
#define BLOCKS 5
#define DOWN 1 /* the tags of the two sweeps */
#define UP 2

/* What the program sees of a completed receive: its source, tag and count,
 * and whether its handle is what MPI defines after the completion. */
static long seen(const MPI_Status* status, MPI_Request request, MPI_Request expected) {
  int count = 0;
  MPI_Get_count(status, MPI_DOUBLE, &count);
  return 1000003L * (status->MPI_SOURCE + 7) + 1009L * (status->MPI_TAG + 7) + count +
         (request == expected ? 0 : 100000007L);
}

/* Receives block `b` of a sweep from `from` into `buf`, by the form of the
 * block's number; returns what the program saw of it. */
static long receive_block(double* buf, int from, int tag, int b, MPI_Request* persistent) {
  MPI_Request request = MPI_REQUEST_NULL;
  MPI_Status status;
  int done = 0, index = -1;
  switch (b % 5) {
    case 0:
      MPI_Irecv(buf, N, MPI_DOUBLE, from, tag, MPI_COMM_WORLD, &request);
      MPI_Wait(&request, &status);
      return seen(&status, request, MPI_REQUEST_NULL);
    case 1:
      MPI_Irecv(buf, N, MPI_DOUBLE, from, tag, MPI_COMM_WORLD, &request);
      while (!done) MPI_Test(&request, &done, &status);
      return seen(&status, request, MPI_REQUEST_NULL);
    case 2:
      MPI_Irecv(buf, N, MPI_DOUBLE, from, tag, MPI_COMM_WORLD, &request);
      MPI_Waitany(1, &request, &index, &status);
      return seen(&status, request, MPI_REQUEST_NULL) + index;
    case 3: {
      const MPI_Request handle = *persistent;
      MPI_Start(persistent);
      MPI_Waitall(1, persistent, &status);
      return seen(&status, *persistent, handle);
    }
    default:
#if MPI_VERSION >= 4
      MPI_Irecv_c(buf, N, MPI_DOUBLE, from, tag, MPI_COMM_WORLD, &request);
#else
      MPI_Irecv(buf, N, MPI_DOUBLE, from, tag, MPI_COMM_WORLD, &request);
#endif
      while (!done) MPI_Testall(1, &request, &done, &status);
      return seen(&status, request, MPI_REQUEST_NULL);
  }
}

/* One sweep: each block received from `from`, relaxed briefly, sent to `to`. */
static long sweep(double* block, int from, int to, int tag, MPI_Request* persistent) {
  long statuses = 0;
  for (int b = 0; b < BLOCKS; ++b) {
    statuses += receive_block(block, from, tag, b, persistent);
    compute_for(5e-6); /* shorter than a section of its own needs after sends alone */
    for (int i = 0; i < N; ++i) block[i] = 0.5 * block[i] + 1e-3 * (b + 1);
    MPI_Send(block, N, MPI_DOUBLE, to, tag, MPI_COMM_WORLD);
  }
  return statuses;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int iterations = argc > 1 ? atoi(argv[1]) : 60;
  const int above = rank > 0 ? rank - 1 : MPI_PROC_NULL, below = rank + 1 < size ? rank + 1 : MPI_PROC_NULL;
  double* down = calloc(N, sizeof(double));
  double* up = calloc(N, sizeof(double));
  MPI_Request persistent[2];
  MPI_Recv_init(down, N, MPI_DOUBLE, above, DOWN, MPI_COMM_WORLD, &persistent[0]);
  MPI_Recv_init(up, N, MPI_DOUBLE, below, UP, MPI_COMM_WORLD, &persistent[1]);
  double checksum = 0;
  long statuses = 0;
  for (int it = 0; it < iterations; ++it) {
    statuses += sweep(down, above, below, DOWN, &persistent[0]);
    statuses += sweep(up, below, above, UP, &persistent[1]);
    checksum += down[N - 1] + up[0];
    compute_for(300e-6); /* the rest of the step */
  }
  MPI_Request_free(&persistent[0]);
  MPI_Request_free(&persistent[1]);
  double total = 0;
  MPI_Reduce(&checksum, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  long* all_statuses = calloc((size_t)size, sizeof(long));
  MPI_Gather(&statuses, 1, MPI_LONG, all_statuses, 1, MPI_LONG, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    printf("checksum %.10e\n", total);
    for (int r = 0; r < size; ++r) printf("rank %d statuses %ld\n", r, all_statuses[r]);
  }
  free(all_statuses);
  free(down);
  free(up);
  MPI_Finalize();
  return 0;
}
