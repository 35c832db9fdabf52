/* A program whose first phase exchanges point-to-point messages only and
 * whose second phase reduces every iteration. In the first phase ranks pair
 * up (0-1, 2-3, ...); the first pair changes its tag every round, so only
 * the other pairs repeat themselves and detect an iteration there. In the
 * second phase the ranks that did not must still never be left waiting in
 * the interposer's agreement. Prints a checksum that must not change under
 * the interposer. Usage: warmup_then_collectives [rounds] (even rank count) */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int rounds = argc > 1 ? atoi(argv[1]) : 12;
  double value = rank + 1, incoming = 0, checksum = 0;
  const int partner = rank ^ 1;
  for (int r = 0; r < rounds && partner < size; ++r) {
    const int tag = rank < 2 ? r : 0;
    MPI_Sendrecv(&value, 1, MPI_DOUBLE, partner, tag, &incoming, 1, MPI_DOUBLE, partner, tag, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    value = 0.5 * (value + incoming);
  }
  for (int it = 0; it < 4 * rounds; ++it) {
    double total = 0;
    value = value * 0.9 + it;
    MPI_Allreduce(&value, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    checksum += total;
  }
  if (rank == 0) printf("checksum %.10e\n", checksum);
  MPI_Finalize();
  return 0;
}
