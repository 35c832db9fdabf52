/* A loop whose collective costs the program far more than the same call
 * alone: each step computes, then sums a vector with MPI_Allreduce under a
 * reduction operation of its own that takes about 2 ms (a costly merge of
 * partial results). A cluster's allreduce curve, timed with MPI_SUM, prices
 * it at microseconds; the capture sees what it cost.
 *   dear_reduction STEPS */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Adds, and spends 2 ms doing so (busy: a merge's work, not a sleep). */
static void slow_sum(void* in, void* inout, int* len, MPI_Datatype* type) {
  (void)type;
  const double start = now();
  for (int i = 0; i < *len; ++i) ((double*)inout)[i] += ((double*)in)[i];
  while (now() - start < 2e-3) {
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int steps = argc > 1 ? atoi(argv[1]) : 30;
  MPI_Op op;
  MPI_Op_create(slow_sum, 1, &op);
  enum { kLength = 64 };
  double local[kLength];
  double total[kLength];
  double checksum = 0;
  for (int step = 0; step < steps; ++step) {
    const double start = now();
    for (int i = 0; i < kLength; ++i) local[i] = (double)(rank + 1) * (step + i);
    while (now() - start < 3e-3) {
    }
    MPI_Allreduce(local, total, kLength, MPI_DOUBLE, op, MPI_COMM_WORLD);
    checksum += total[kLength - 1];
  }
  MPI_Op_free(&op);
  if (rank == 0) printf("checksum %.1f\n", checksum);
  MPI_Finalize();
  return 0;
}
