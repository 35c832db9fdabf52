/* Marks its iterations on rank 0 only (as a program may, beside a progress
 * line), or with "others" on every rank but 0: against the contract that
 * every rank marks, which the gather of the profile at the marked
 * iteration's end relies on. The run must still end, its output unchanged,
 * with a profile: with "others", the ranks that reach the gather wait for
 * rank 0, which is in the next MPI_Allreduce waiting for them.
 * Usage: marks_on_one_rank [ITERATIONS [others]] */
#include <mheta/marks.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int iterations = argc > 1 ? atoi(argv[1]) : 20;
  const int others = argc > 2 && argv[2][0] == 'o';
  double x = 1.0 + rank, sum = 0;
  for (int it = 0; it < iterations; ++it) {
    for (int k = 0; k < 200000; ++k) x = x * 0.9999 + 1e-6;
    MPI_Allreduce(&x, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    if ((rank == 0) != others) mheta_mark_iteration();
  }
  if (rank == 0) printf("result sum %.9f\n", sum);
  MPI_Finalize();
  return 0;
}
