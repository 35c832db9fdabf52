/* A 2-rank program of known structure for the accounting service: every
 * iteration, rank 0 computes (busy) 30 ms and rank 1 10 ms, each then
 * sleeps 10 ms (no CPU: wall time, not virtual), writes 1 MiB to its own
 * file and syncs it (I/O), and the two exchange a message and meet in an
 * allreduce, where rank 1 waits for rank 0. Iterations are ended by
 * mheta_iteration() (argv[2] "mark"), MPI_Pcontrol(1) at their start
 * ("pcontrol") or by nothing ("none": every MPI_Allreduce, given by
 * MHETA_CAPTURE=call:MPI_Allreduce). Usage: accounting_probe ITERATIONS
 * MARKS DIR. Prints one line per rank: its CPU seconds over the iterations.
 */
#include <mpi.h>
#include <mheta/marks.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tests/common/cpu_work.h"

static void nap(double seconds) {
  struct timespec t = {0, (long)(seconds * 1e9)};
  nanosleep(&t, NULL);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int iterations = argc > 1 ? atoi(argv[1]) : 6;
  const char* marks = argc > 2 ? argv[2] : "mark";
  const char* dir = argc > 3 ? argv[3] : ".";
  char path[4096];
  snprintf(path, sizeof path, "%s/accounting_probe.%d", dir, rank);
  MPI_File fh;
  MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh);
  enum { kBytes = 1 << 20 };
  char* buffer = calloc(kBytes, 1);
  const double cpu_start = cpu_seconds();
  for (int it = 0; it < iterations; ++it) {
    if (strcmp(marks, "pcontrol") == 0) MPI_Pcontrol(1);
    compute_for(rank == 0 ? 0.030 : 0.010);
    nap(0.010);
    MPI_File_write_at(fh, 0, buffer, kBytes, MPI_BYTE, MPI_STATUS_IGNORE);
    MPI_File_sync(fh);
    double mine = rank, theirs = 0;
    MPI_Sendrecv(&mine, 1, MPI_DOUBLE, 1 - rank, 7, &theirs, 1, MPI_DOUBLE, 1 - rank, 7, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    double sum = 0;
    MPI_Allreduce(&mine, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    if (strcmp(marks, "mark") == 0) mheta_mark_iteration();
  }
  printf("{\"rank\":%d,\"cpu_s\":%.6f}\n", rank, cpu_seconds() - cpu_start);
  MPI_File_close(&fh);
  remove(path);
  free(buffer);
  MPI_Finalize();
  return 0;
}
