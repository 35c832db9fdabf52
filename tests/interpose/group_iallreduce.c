/* A non-blocking collective over some but not all ranks, overlapped with
 * compute: ranks in rows of two (MPI_Comm_split of rank / 2), each
 * iteration a reduction on the row posted (MPI_Iallreduce, or the start of
 * a persistent MPI_Allreduce_init), compute while it travels, MPI_Wait,
 * then an MPI_Allreduce over all ranks. Prints the sum, which must not
 * change under the interposer.
 * Usage: group_iallreduce [iterations [persistent]] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/common/cpu_work.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int iterations = argc > 1 ? atoi(argv[1]) : 60;
  const int persistent = argc > 2 && strcmp(argv[2], "persistent") == 0;
  MPI_Comm row;
  MPI_Comm_split(MPI_COMM_WORLD, rank / 2, rank, &row);
  double mine[4] = {rank, 1, 2, 3}, rowsum[4], total = 0, sum = 0;
  MPI_Request request;
  if (persistent) MPI_Allreduce_init(mine, rowsum, 4, MPI_DOUBLE, MPI_SUM, row, MPI_INFO_NULL, &request);
  for (int it = 0; it < iterations; ++it) {
    if (persistent) {
      MPI_Start(&request);
    } else {
      MPI_Iallreduce(mine, rowsum, 4, MPI_DOUBLE, MPI_SUM, row, &request);
    }
    compute_for(300e-6); /* while the row's reduction travels */
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    mine[0] = rowsum[0] * 0.5 + it;
    MPI_Allreduce(&mine[0], &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    sum += total;
  }
  if (persistent) MPI_Request_free(&request);
  if (rank == 0) printf("result sum %.10e\n", sum);
  MPI_Comm_free(&row);
  MPI_Finalize();
  return 0;
}
