/* Marks its iterations, then aborts in the middle of the run: the profile
 * written when the capture ended (iteration 2) must survive, with the count
 * seen then. Usage: marked_then_abort ITERATIONS ABORT_AFTER */
#include <mheta/marks.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int iterations = argc > 1 ? atoi(argv[1]) : 8;
  const int abort_after = argc > 2 ? atoi(argv[2]) : 4;
  double sum = 0;
  for (int it = 0; it < iterations; ++it) {
    double local = 0;
    for (int i = 0; i < 200000; ++i) local += 1.0 / (1.0 + i + it);
    MPI_Allreduce(&local, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    mheta_mark_iteration();
    if (it + 1 == abort_after) {
      fflush(stdout);
      MPI_Abort(MPI_COMM_WORLD, 3);
    }
  }
  printf("sum %.6f\n", sum);
  MPI_Finalize();
  return 0;
}
