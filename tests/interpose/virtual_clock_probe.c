/* What the virtual clock must show, as MPI_Wtime sees it (the checker,
 * interposer_check.py virtual-clock, knows each rank's CPU factor):
 *   compute   40 ms of CPU time: MPI_Wtime advances by 40 ms x the factor;
 *   barrier   every rank leaves it at the same virtual time, the latest
 *             entry plus the barrier's cost;
 *   message   rank 0 computes 30 ms more, then sends its send time to every
 *             other rank, which receives it (any source, any tag) at once:
 *             its clock must be no earlier than that send time;
 *   requests  a ring of Isend/Irecv completed by Waitany, and a persistent
 *             send/receive pair, whose results are checked;
 *   collective an Iallreduce of the ranks' clocks completed by Wait: the
 *             clock after it is no earlier than the largest.
 * Each rank prints one line "rank R factor-free numbers ...", then rank 0
 * prints the checksum of what was exchanged (identical with or without the
 * interposer). Usage: virtual_clock_probe */
#include <mpi.h>
#include <stdio.h>
#include <time.h>

static double cpu_seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Burns `seconds` of this thread's CPU time; returns what it really used. */
static double burn(double seconds) {
  const double start = cpu_seconds();
  volatile double x = 0;
  while (cpu_seconds() - start < seconds) {
    for (int i = 0; i < 1000; ++i) x += i * 1e-9;
  }
  return cpu_seconds() - start;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  const double t0 = MPI_Wtime();
  const double cpu = burn(0.040);
  const double t1 = MPI_Wtime();

  MPI_Barrier(MPI_COMM_WORLD);
  const double after_barrier = MPI_Wtime();

  double sent = 0;
  double received_at = 0;
  if (rank == 0) {
    burn(0.030);
    sent = MPI_Wtime();
    for (int r = 1; r < size; ++r) MPI_Send(&sent, 1, MPI_DOUBLE, r, 7, MPI_COMM_WORLD);
  } else {
    MPI_Status status;
    MPI_Recv(&sent, 1, MPI_DOUBLE, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &status);
    received_at = MPI_Wtime();
  }

  /* A ring with Waitany, then a persistent pair. */
  long checksum = 0;
  int out = rank * 10 + 1, in[2] = {0, 0};
  MPI_Request requests[3];
  const int next = (rank + 1) % size, prev = (rank + size - 1) % size;
  MPI_Irecv(&in[0], 1, MPI_INT, MPI_ANY_SOURCE, 3, MPI_COMM_WORLD, &requests[0]);
  MPI_Isend(&out, 1, MPI_INT, next, 3, MPI_COMM_WORLD, &requests[1]);
  for (int done = 0; done < 2; ++done) {
    int index;
    MPI_Waitany(2, requests, &index, MPI_STATUS_IGNORE);
  }
  checksum += in[0];
  MPI_Recv_init(&in[1], 1, MPI_INT, prev, 4, MPI_COMM_WORLD, &requests[0]);
  MPI_Send_init(&out, 1, MPI_INT, next, 4, MPI_COMM_WORLD, &requests[1]);
  for (int round = 0; round < 3; ++round) {
    MPI_Startall(2, requests);
    MPI_Waitall(2, requests, MPI_STATUSES_IGNORE);
    checksum += in[1];
  }
  MPI_Request_free(&requests[0]);
  MPI_Request_free(&requests[1]);

  double mine = MPI_Wtime(), latest = 0;
  MPI_Iallreduce(&mine, &latest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD, &requests[2]);
  MPI_Wait(&requests[2], MPI_STATUS_IGNORE);
  const double after_iallreduce = MPI_Wtime();

  printf("rank %d cpu %.6f compute %.6f t1 %.9f barrier %.9f sent %.9f received %.9f latest %.9f after %.9f\n", rank,
         cpu, t1 - t0, t1, after_barrier, sent, received_at, latest, after_iallreduce);
  fflush(stdout);
  long total = 0;
  MPI_Reduce(&checksum, &total, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) printf("checksum %ld\n", total);
  MPI_Finalize();
  return 0;
}
