/* Calls the virtual clock does not follow (docs/emulation.md, "Still not
 * followed"), run under it: one-sided puts around a ring in
 * post/start/complete/wait epochs on a window the clock did not see
 * created. The program makes it through PMPI_Win_create, past the
 * interposer, as the large-count MPI_Win_create_c of an MPI that has one
 * would be. Rank 0 prints the result (the same with and without the
 * interposer) and, on stderr, pscw_wait_s: the time its clock moved in
 * MPI_Win_complete + MPI_Win_wait while it waited for the last rank, which
 * computes 30 ms before completing its puts (a wait is no compute).
 * Usage: unfollowed_calls */
#include <mpi.h>
#include <stdio.h>

#include "tests/common/cpu_work.h"

/* Every rank puts its rank into its right neighbour's window. */
static int one_sided(int rank, int size, double* wait) {
  int slot = -1;
  MPI_Win win;
  PMPI_Win_create(&slot, sizeof slot, sizeof slot, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
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
  return slot;
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
  if (rank == 0) {
    printf("put %d\n", all);
    fprintf(stderr, "pscw_wait_s=%.9f\n", wait);
  }
  MPI_Finalize();
  return 0;
}
