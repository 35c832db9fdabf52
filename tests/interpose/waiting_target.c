/* Ranks that wait while others need them: a loop of barriers, where every
 * rank waits a few microseconds for the others each time, and a passive
 * target that waits in a barrier while rank 1 locks it, reads a word from
 * it and unlocks it, again and again (as a Coarray Fortran runtime reads a
 * remote element: OpenCoarrays' get). Under MPICH the target answers the
 * lock and unlock only while it is inside an MPI call that makes progress.
 *
 * Usage: waiting_target BARRIERS READS
 * Prints "result ..." lines (the same under the interposer) and the time of
 * each part: "barriers: <s> s", "reads: <s> s". */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int barriers = argc > 1 ? atoi(argv[1]) : 20000;
  const int reads = argc > 2 ? atoi(argv[2]) : 20000;

  double t = MPI_Wtime();
  for (int i = 0; i < barriers; ++i) MPI_Barrier(MPI_COMM_WORLD);
  const double barrier_s = MPI_Wtime() - t;

  int* word = NULL;
  MPI_Win win;
  MPI_Win_allocate(sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &word, &win);
  *word = 1000 + rank;
  MPI_Barrier(MPI_COMM_WORLD);
  t = MPI_Wtime();
  long sum = 0;
  if (rank == 1) {
    for (int i = 0; i < reads; ++i) {
      int got = 0;
      MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
      MPI_Get(&got, 1, MPI_INT, 0, 0, 1, MPI_INT, win);
      MPI_Win_unlock(0, win);
      sum += got;
    }
  }
  MPI_Barrier(MPI_COMM_WORLD); /* rank 0 (and the others) wait here */
  const double read_s = MPI_Wtime() - t;
  MPI_Win_free(&win);

  if (rank == 1) printf("result read sum %ld\n", sum);
  if (rank == 0) {
    printf("result barriers %d\n", barriers);
    printf("barriers: %.6f s\n", barrier_s);
    printf("reads: %.6f s\n", read_s);
  }
  MPI_Finalize();
  return 0;
}
