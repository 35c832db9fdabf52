/* A program whose MPI calls never repeat one sequence: every exchange has a
 * tag of its own, drawn from a hash of its number (a tag that counts the
 * exchanges repeats as its step of +1, docs/interpose.md "Which
 * iteration"). Automatic detection finds no loop; the run must go on
 * unchanged, write no profile and say once how to tell the interposer
 * where an iteration ends.
 * Prints a checksum that must not change under the interposer.
 * Usage: no_loop [exchanges] (even rank count) */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int exchanges = argc > 1 ? atoi(argv[1]) : 40;
  const int partner = rank ^ 1;
  double value = rank + 1, incoming = 0;
  for (int k = 0; k < exchanges && partner < size; ++k) {
    unsigned hash = (unsigned)k * 2654435761u;
    hash ^= hash >> 15;
    hash *= 2246822519u;
    hash ^= hash >> 13;
    const int tag = (int)(hash % 32000u);  /* MPI_TAG_UB is at least 32767 */
    MPI_Sendrecv(&value, 1, MPI_DOUBLE, partner, tag, &incoming, 1, MPI_DOUBLE, partner, tag, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    value = 0.5 * (value + incoming) + k;
  }
  double total = 0;
  MPI_Reduce(&value, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) printf("checksum %.12e\n", total);
  MPI_Finalize();
  return 0;
}
