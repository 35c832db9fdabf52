/* Cost of one intercepted MPI call: MPI_Test on MPI_REQUEST_NULL (the
 * cheapest call the interposer wraps), timed over many calls. Run it with
 * and without libmheta-interpose.so preloaded; the difference is the
 * wrapper's cost. Prints {"ns_per_call": ...} from rank 0.
 * Usage: call_overhead [calls] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const long calls = argc > 1 ? atol(argv[1]) : 20000000;
  MPI_Request request = MPI_REQUEST_NULL;
  int flag = 0;
  long done = 0;
  double best = 1e30;
  for (int rep = 0; rep < 5; ++rep) {  /* best of 5: the machine is shared */
    const double start = MPI_Wtime();
    for (long i = 0; i < calls / 5; ++i) {
      MPI_Test(&request, &flag, MPI_STATUS_IGNORE);
      done += flag;
    }
    const double per_call = (MPI_Wtime() - start) / (double)(calls / 5);
    if (per_call < best) best = per_call;
  }
  if (rank == 0) printf("{\"ns_per_call\": %.3f, \"flags\": %ld}\n", best * 1e9, done);
  MPI_Finalize();
  return 0;
}
