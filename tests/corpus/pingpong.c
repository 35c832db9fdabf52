/* Ping-pong between ranks 0 and 1 (other ranks wait at the final barrier),
 * with some work on each side between the messages, as in a two-process
 * producer/consumer code.
 *
 * Usage: pingpong [bytes [iterations [work]]]   (default 262144, 600, 20000;
 *        work: floating-point updates of a small array per side per iteration)
 * Prints "result checksum <c>" and "loop: <k> iterations, <t> s, <t/k> s per iteration".
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const long bytes = argc > 1 ? atol(argv[1]) : 262144;
  const long iterations = argc > 2 ? atol(argv[2]) : 600;
  const long work = argc > 3 ? atol(argv[3]) : 20000;
  const long count = bytes / (long)sizeof(double) > 0 ? bytes / (long)sizeof(double) : 1;
  double* buffer = calloc(count, sizeof(double));
  double state[64];
  for (int k = 0; k < 64; ++k) state[k] = 1.0 + k * 1e-3;
  MPI_Barrier(MPI_COMM_WORLD);
  const double start = MPI_Wtime();
  if (rank < 2 && size >= 2) {
    for (long it = 0; it < iterations; ++it) {
      for (long w = 0; w < work; ++w) state[w & 63] = state[w & 63] * 0.999999 + 1e-6 * state[(w + 1) & 63];
      if (rank == 0) {
        buffer[it % count] = state[it & 63];
        MPI_Send(buffer, (int)count, MPI_DOUBLE, 1, 7, MPI_COMM_WORLD);
        MPI_Recv(buffer, (int)count, MPI_DOUBLE, 1, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      } else {
        MPI_Recv(buffer, (int)count, MPI_DOUBLE, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        buffer[(it + 1) % count] += buffer[it % count] * 0.5;
        MPI_Send(buffer, (int)count, MPI_DOUBLE, 0, 8, MPI_COMM_WORLD);
      }
    }
  }
  double elapsed = MPI_Wtime() - start, slowest = 0;
  MPI_Reduce(&elapsed, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  double checksum = 0;
  for (long k = 0; k < count; ++k) checksum += buffer[k];
  if (rank == 0) {
    printf("result checksum %.12e\n", checksum);
    printf("loop: %ld iterations, %.6f s, %.6e s per iteration\n", iterations, slowest, slowest / iterations);
  }
  free(buffer);
  MPI_Finalize();
  return 0;
}
