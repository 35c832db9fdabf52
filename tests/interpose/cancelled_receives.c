/* A ring exchange whose ranks also post, every step, a receive for a
 * message that never comes (a control message the program listens for in
 * case a neighbour sends one) and cancel it at the step's end: the
 * "post a listener, cancel what nobody answered" idiom. The cancelled
 * receives complete in every form (MPI_Wait with a status, MPI_Test with
 * MPI_STATUS_IGNORE, MPI_Waitall beside the step's real receive). MPICH
 * leaves some other message's source and tag in a cancelled receive's
 * status, which must not be taken for a message received. Prints a
 * checksum of what was received and how many receives were cancelled,
 * which must not change under the interposer.
 * Usage: cancelled_receives [iterations] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "tests/common/cpu_work.h"

#define N 4096
#define DATA 1    /* the ring's tag */
#define CONTROL 9 /* the tag nobody sends */

/* Cancels the listener `request` and completes it in the form `form`
 * chooses, beside the ring's receive `ring` when it is MPI_Waitall's turn;
 * returns whether it was cancelled (as MPI_Test_cancelled says). */
static int cancel_listener(MPI_Request* listener, MPI_Request* ring, int form) {
  MPI_Status status;
  int cancelled = 0, done = 0;
  MPI_Cancel(listener);
  switch (form % 3) {
    case 0:
      MPI_Wait(listener, &status);
      MPI_Test_cancelled(&status, &cancelled);
      return cancelled;
    case 1:
      while (!done) MPI_Test(listener, &done, MPI_STATUS_IGNORE);
      return 1; /* nobody sends CONTROL: it can only have been cancelled */
    default: {
      MPI_Request both[2] = {*ring, *listener};
      MPI_Status statuses[2];
      MPI_Waitall(2, both, statuses);
      *ring = both[0];
      MPI_Test_cancelled(&statuses[1], &cancelled);
      return cancelled;
    }
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, np;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &np);
  const int steps = argc > 1 ? atoi(argv[1]) : 60;
  const int right = (rank + 1) % np, left = (rank + np - 1) % np;
  double out[N], in[N], control = 0;
  for (int i = 0; i < N; ++i) out[i] = rank + 1e-3 * i;
  double sum = 0;
  long cancelled = 0;
  for (int s = 0; s < steps; ++s) {
    MPI_Request listener, ring;
    MPI_Irecv(&control, 1, MPI_DOUBLE, left, CONTROL, MPI_COMM_WORLD, &listener);
    MPI_Irecv(in, N, MPI_DOUBLE, left, DATA, MPI_COMM_WORLD, &ring);
    compute_for(2e-4);
    for (int i = 0; i < N; ++i) out[i] = 0.5 * out[i] + 1e-3 * s;
    MPI_Send(out, N, MPI_DOUBLE, right, DATA, MPI_COMM_WORLD);
    cancelled += cancel_listener(&listener, &ring, s);
    MPI_Wait(&ring, MPI_STATUS_IGNORE); /* a no-op where MPI_Waitall completed it */
    sum += in[s % N];
  }
  double all = 0;
  long all_cancelled = 0;
  MPI_Reduce(&sum, &all, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Reduce(&cancelled, &all_cancelled, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) printf("result received %.12e cancelled %ld\n", all, all_cancelled);
  MPI_Finalize();
  return 0;
}
