/* Calls the virtual clock does not follow (docs/emulation.md, "Still not
 * followed"), run under it: one-sided puts around a ring in
 * post/start/complete/wait epochs on a window the clock did not see
 * created. The program makes it through PMPI_Win_create, past the
 * interposer, as the large-count MPI_Win_create_c of an MPI that has one
 * would be. Rank 0 prints the result (the same with and without the
 * interposer) and, on stderr, pscw_wait_s: the time its clock moved in
 * MPI_Win_complete + MPI_Win_wait while it waited for the last rank, which
 * computes 30 ms before completing its puts (a wait is no compute). Then
 * MPI-4 partitioned messages around the ring, 4 partitions each: the last
 * rank computes 30 ms before it marks its partitions ready, and rank 0
 * polls MPI_Parrived for its last partition, then waits; on stderr
 * partitioned_wait_s, the time its clock moved in that loop and wait.
 * Usage: unfollowed_calls */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "tests/common/cpu_work.h"

/* Every rank puts its rank into its right neighbour's window. */
static int one_sided(int rank, int size, double* wait) {
  /* Not on the stack: there, this MPICH's (4.0, ch4:ucx) puts landed on
   * another variable of the program (the ring's size), with and without
   * the interposer. */
  int* slot = malloc(sizeof *slot);
  *slot = -1;
  MPI_Win win;
  PMPI_Win_create(slot, sizeof *slot, sizeof *slot, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  MPI_Group world, from, to;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  const int prev = (rank + size - 1) % size, next = (rank + 1) % size;
  MPI_Group_incl(world, 1, &prev, &from);
  MPI_Group_incl(world, 1, &next, &to);
  MPI_Win_post(from, 0, win);
  MPI_Win_start(to, 0, win);
  MPI_Put(&rank, 1, MPI_INT, next, 0, 1, MPI_INT, win);
  if (rank == size - 1) compute_for(0.03);
  const double entered = MPI_Wtime();
  MPI_Win_complete(win);
  MPI_Win_wait(win);
  *wait = MPI_Wtime() - entered;
  MPI_Group_free(&from);
  MPI_Group_free(&to);
  MPI_Group_free(&world);
  MPI_Win_free(&win);
  const int put = *slot;
  free(slot);
  return put;
}

enum { kPartitions = 4, kPerPartition = 64 };

/* Every rank sends its right neighbour kPartitions partitions of doubles;
 * returns the sum of what it received. */
static double partitioned(int rank, int size, double* wait) {
  double out[kPartitions * kPerPartition], in[kPartitions * kPerPartition];
  for (int i = 0; i < kPartitions * kPerPartition; ++i) out[i] = rank + 0.001 * i;
  const int prev = (rank + size - 1) % size, next = (rank + 1) % size;
  MPI_Request send, recv;
  MPI_Psend_init(out, kPartitions, kPerPartition, MPI_DOUBLE, next, 4, MPI_COMM_WORLD, MPI_INFO_NULL, &send);
  MPI_Precv_init(in, kPartitions, kPerPartition, MPI_DOUBLE, prev, 4, MPI_COMM_WORLD, MPI_INFO_NULL, &recv);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Start(&recv);
  MPI_Start(&send);
  if (rank == size - 1) compute_for(0.03);
  MPI_Pready_range(0, kPartitions - 2, send);
  MPI_Pready(kPartitions - 1, send);
  const double entered = MPI_Wtime();
  for (int arrived = 0; !arrived;) MPI_Parrived(recv, kPartitions - 1, &arrived);
  MPI_Wait(&recv, MPI_STATUS_IGNORE);
  *wait = MPI_Wtime() - entered;
  MPI_Wait(&send, MPI_STATUS_IGNORE);
  MPI_Request_free(&send);
  MPI_Request_free(&recv);
  double sum = 0;
  for (int i = 0; i < kPartitions * kPerPartition; ++i) sum += in[i];
  return sum;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc != 1 || size < 2) {
    if (rank == 0) fprintf(stderr, "usage: unfollowed_calls (2 or more ranks)\n");
    MPI_Finalize();
    return 2;
  }
  double wait = 0;
  const int put = one_sided(rank, size, &wait);
  int all = 0;
  MPI_Reduce(&put, &all, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  double partitioned_wait = 0;
  const double received = partitioned(rank, size, &partitioned_wait);
  double received_all = 0;
  MPI_Reduce(&received, &received_all, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    printf("put %d, partitioned %.3f\n", all, received_all);
    fprintf(stderr, "pscw_wait_s=%.9f\npartitioned_wait_s=%.9f\n", wait, partitioned_wait);
  }
  MPI_Finalize();
  return 0;
}
