/* Fixed work per iteration, for checking emulation: 20 ms of computation
 * measured by the thread's CPU clock (the emulator stretches CPU time, so
 * the check measures the emulator rather than how the shared machine
 * scheduled the ranks), eight reads of 4 MiB from different parts of the
 * rank's 64 MiB block file (variable "X"; larger than the caches, so a rank
 * that slept reads as fast as one that did not), four non-blocking writes of
 * 4 MiB to a second file (variable "Y"), each completed by MPI_Wait (an
 * emulated slower disk completes them late: that is I/O, not compute),
 * optionally followed by MPI_File_sync, an allreduce and an iteration mark.
 * Rank 0 prints the mean time of the iterations after the first.
 * Usage: emulation_probe directory [iterations [sync]] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mheta/hints.h"
#include "mheta/marks.h"

enum { kDoubles = 512 * 1024, kParts = 16, kReads = 8, kWrites = 4 };

static double cpu_seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static MPI_File open_variable(const char* dir, const char* name, int rank) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s.%d.bin", dir, name, rank);
  MPI_Info info;
  MPI_Info_create(&info);
  MPI_Info_set(info, MHETA_HINT_VARIABLE, name);
  MPI_Info_set(info, MHETA_HINT_BYTES_PER_ROW, "4096");
  MPI_File fh;
  MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_CREATE | MPI_MODE_RDWR, info, &fh);
  MPI_Info_free(&info);
  return fh;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char* dir = argc > 1 ? argv[1] : ".";
  const int iterations = argc > 2 ? atoi(argv[2]) : 5;
  const int sync = argc > 3 && strcmp(argv[3], "sync") == 0;
  MPI_File x = open_variable(dir, "X", rank);
  MPI_File y = open_variable(dir, "Y", rank);
  double* data = malloc(sizeof(double) * kDoubles);
  for (int i = 0; i < kDoubles; ++i) data[i] = i % 17;
  for (int part = 0; part < kParts; ++part) {
    MPI_File_write_at(x, (MPI_Offset)part * kDoubles * sizeof(double), data, kDoubles, MPI_DOUBLE, MPI_STATUS_IGNORE);
  }
  const MPI_Offset bytes = (MPI_Offset)kDoubles * sizeof(double);
  double acc = 0;
  double started = 0;
  for (int it = 0; it < iterations; ++it) {
    if (it == 1) started = MPI_Wtime();
    const double until = cpu_seconds() + 0.020;
    while (cpu_seconds() < until) {
      for (int i = 0; i < 4096; ++i) acc += data[i] * 1e-9;
    }
    for (int read = 0; read < kReads; ++read) {
      const MPI_Offset part = (it * kReads + read) % kParts;
      MPI_File_read_at(x, part * bytes, data, kDoubles, MPI_DOUBLE, MPI_STATUS_IGNORE);
    }
    for (int write = 0; write < kWrites; ++write) {
      MPI_Request request;
      MPI_File_iwrite_at(y, write * bytes, data, kDoubles, MPI_DOUBLE, &request);
      MPI_Wait(&request, MPI_STATUS_IGNORE);
    }
    if (sync) MPI_File_sync(y);
    double total = 0;
    MPI_Allreduce(&acc, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    acc = total / size;
    mheta_mark_iteration();
  }
  MPI_File_close(&x);
  MPI_File_close(&y);
  if (rank == 0) {
    printf("acc %.12e\n", acc);
    /* Timing, not a result: the mean iteration after the first. */
    if (iterations > 1) printf("{\"iteration_s\": %.9f}\n", (MPI_Wtime() - started) / (iterations - 1));
  }
  free(data);
  MPI_Finalize();
  return 0;
}
