/* Fixed work per iteration, for checking emulation: 20 ms of computation
 * measured by the wall clock (so the check measures the emulator rather than
 * how the shared machine scheduled the ranks), eight reads of 4 MiB from
 * different parts of the rank's 64 MiB block file (variable "X"; larger than
 * the caches, so a rank that slept reads as fast as one that did not), an
 * allreduce and an iteration mark.
 * Usage: emulation_probe directory [iterations] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "mheta/hints.h"
#include "mheta/marks.h"

enum { kDoubles = 512 * 1024, kParts = 16 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int iterations = argc > 2 ? atoi(argv[2]) : 5;
  char path[4096];
  snprintf(path, sizeof path, "%s/X.%d.bin", argc > 1 ? argv[1] : ".", rank);
  MPI_Info info;
  MPI_Info_create(&info);
  MPI_Info_set(info, MHETA_HINT_VARIABLE, "X");
  MPI_Info_set(info, MHETA_HINT_BYTES_PER_ROW, "4096");
  MPI_File fh;
  MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_CREATE | MPI_MODE_RDWR, info, &fh);
  MPI_Info_free(&info);
  double* data = malloc(sizeof(double) * kDoubles);
  for (int i = 0; i < kDoubles; ++i) data[i] = i % 17;
  for (int part = 0; part < kParts; ++part) {
    MPI_File_write_at(fh, (MPI_Offset)part * kDoubles * sizeof(double), data, kDoubles, MPI_DOUBLE, MPI_STATUS_IGNORE);
  }
  double acc = 0;
  for (int it = 0; it < iterations; ++it) {
    const double until = MPI_Wtime() + 0.020;
    while (MPI_Wtime() < until) {
      for (int i = 0; i < 4096; ++i) acc += data[i] * 1e-9;
    }
    for (int read = 0; read < 8; ++read) {
      const MPI_Offset part = (it * 8 + read) % kParts;
      MPI_File_read_at(fh, part * kDoubles * (MPI_Offset)sizeof(double), data, kDoubles, MPI_DOUBLE, MPI_STATUS_IGNORE);
    }
    double total = 0;
    MPI_Allreduce(&acc, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    acc = total / size;
    mheta_mark_iteration();
  }
  MPI_File_close(&fh);
  if (rank == 0) printf("acc %.12e\n", acc);
  free(data);
  MPI_Finalize();
  return 0;
}
