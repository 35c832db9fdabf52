/* Ranks other than 0 run a long setup loop of their own (a file written
 * block by block, with compute between the writes) before the main loop,
 * which marks its iterations on every rank. Detection may conclude on the
 * setup loop on those ranks before the first mark; the marks must still
 * win on every rank, so that all of them gather the profile at the same
 * marked iteration (rank 0 alone waiting there for the others, who wait
 * for rank 0's halo, was a deadlock).
 * Usage: setup_loop_then_marks DIRECTORY [SETUP_STEPS [ITERATIONS]] */
#include <mheta/marks.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { kBlock = 512, kHalo = 1024 };

static double work(int n, double x) {
  for (int i = 0; i < n; ++i) x = x * 0.999999 + 1e-7 * (i & 7);
  return x;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc < 2) {
    if (rank == 0) fprintf(stderr, "usage: setup_loop_then_marks DIRECTORY [SETUP_STEPS [ITERATIONS]]\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const int steps = argc > 2 ? atoi(argv[2]) : 60;
  const int iterations = argc > 3 ? atoi(argv[3]) : 8;
  double state = 1.0 + rank;
  if (rank != 0) {
    char path[4096];
    snprintf(path, sizeof path, "%s/setup.%d.bin", argv[1], rank);
    MPI_File fh;
    MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh);
    double block[kBlock];
    for (int s = 0; s < steps; ++s) {
      state = work(1000000, state);
      for (int k = 0; k < kBlock; ++k) block[k] = state + k;
      MPI_File_write_at(fh, (MPI_Offset)s * (MPI_Offset)sizeof block, block, kBlock, MPI_DOUBLE, MPI_STATUS_IGNORE);
    }
    MPI_File_close(&fh);
  }
  double out[kHalo], in[kHalo];
  double checksum = 0;
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  for (int it = 0; it < iterations; ++it) {
    state = work(100000, state);
    for (int k = 0; k < kHalo; ++k) out[k] = (double)(rank * 1000 + it + k);
    MPI_Sendrecv(out, kHalo, MPI_DOUBLE, right, 5, in, kHalo, MPI_DOUBLE, left, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (int k = 0; k < kHalo; ++k) checksum += in[k];
    mheta_mark_iteration();
  }
  double total = 0;
  MPI_Reduce(&checksum, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) printf("result checksum %.1f\n", total);
  MPI_Finalize();
  return 0;
}
