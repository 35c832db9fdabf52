/* Cost of the interposer per intercepted call on a plain ping-pong of small
 * messages between ranks 0 and 1. Each round trip puts four intercepted calls on its critical
 * path (rank 0's MPI_Send and MPI_Recv, rank 1's MPI_Recv and MPI_Send), so
 * the library's cost per call is (round trip with it - without) / 4.
 *
 * The round trips run from MPI_Init for the given seconds, timed in batches
 * of 50; on a shared machine most batches wait for the other rank to be
 * scheduled, so the least disturbed batch of a window measures the calls.
 * Automatic detection cannot conclude before its loop has run 2 s, and
 * concludes once it has run 2 s, 20 times and 80 % of the run
 * (docs/interpose.md), so the batches that ended within DETECTING_S of
 * MPI_Init were timed while detecting, those that began CONCLUDED_S or more
 * after it once detection had concluded. Rank 0 decides when to stop and
 * tells rank 1 in its last message: both ranks make the same calls
 * throughout.
 *
 * Usage: pingpong_calls [seconds]   (default 5)
 * Prints {"best_ns": ..., "detecting_ns": ..., "concluded_ns": ...,
 * "calls_per_round_trip": 4} from rank 0: the best round trip of all
 * batches, of the detecting window and of the concluded one.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { BATCH = 50 };
#define DETECTING_S 1.8
#define CONCLUDED_S 2.5
#define STOP (-1.0)

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const double started = MPI_Wtime();
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const double seconds = argc > 1 ? atof(argv[1]) : 5;
  double message = 0;
  if (rank == 0) {
    double best = 1e30, detecting = 1e30, concluded = 1e30;
    for (;;) {
      const double start = MPI_Wtime();
      for (int i = 0; i < BATCH; ++i) {
        MPI_Send(&message, 1, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD);
        MPI_Recv(&message, 1, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      }
      const double end = MPI_Wtime();
      const double per_trip = (end - start) / BATCH;
      if (per_trip < best) best = per_trip;
      if (end - started < DETECTING_S && per_trip < detecting) detecting = per_trip;
      if (start - started >= CONCLUDED_S && per_trip < concluded) concluded = per_trip;
      if (end - started >= seconds) break;
    }
    double stop = STOP;
    MPI_Send(&stop, 1, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD);
    MPI_Recv(&stop, 1, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    printf("{\"best_ns\": %.3f, \"detecting_ns\": %.3f, \"concluded_ns\": %.3f, \"calls_per_round_trip\": 4, "
           "\"message\": %.0f}\n",
           best * 1e9, detecting * 1e9, concluded * 1e9, message);
  } else if (rank == 1) {
    for (;;) {
      MPI_Recv(&message, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      const int stop = message == STOP;
      if (!stop) message += 1;
      MPI_Send(&message, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD);
      if (stop) break;
    }
  }
  MPI_Finalize();
  return 0;
}
