/* An MPI-4 program that never calls MPI_Init: it starts MPI with
 * MPI_Session_init, makes its communicator from the mpi://WORLD process
 * set and reduces on it in a loop. Prints the sum, which must not change
 * under the interposer (which says once that it follows nothing of it).
 * Usage: session_program [iterations] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  const int iterations = argc > 1 ? atoi(argv[1]) : 50;
  MPI_Session session;
  MPI_Group group;
  MPI_Comm comm;
  MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_ARE_FATAL, &session);
  MPI_Group_from_session_pset(session, "mpi://WORLD", &group);
  MPI_Comm_create_from_group(group, "mheta.tests.session_program", MPI_INFO_NULL, MPI_ERRORS_ARE_FATAL, &comm);
  int rank;
  MPI_Comm_rank(comm, &rank);
  double mine = rank + 1, sum = 0, total = 0;
  for (int it = 0; it < iterations; ++it) {
    MPI_Allreduce(&mine, &sum, 1, MPI_DOUBLE, MPI_SUM, comm);
    total += sum;
  }
  if (rank == 0) printf("result total %.6f\n", total);
  MPI_Comm_free(&comm);
  MPI_Group_free(&group);
  MPI_Session_finalize(&session);
  return 0;
}
