/* A 1-D heat stencil whose halos are received by matched probes, as codes
 * that do not know a message's size before it comes do: each step sends its
 * edge rows with MPI_Isend, then matches whatever arrives from any
 * neighbour with MPI_Mprobe (mode "mprobe") or polls for it with
 * MPI_Improbe between slices of its interior update (mode "improbe"),
 * sizes the receive from the status and receives the matched message with
 * MPI_Mrecv or MPI_Imrecv. A residual is reduced every step.
 *
 * Usage: matched_probes MODE ROWS_PER_RANK STEPS
 * Prints "result residual <r>" and "result checksum <s>", the same at any
 * rank count for the same global rows, and the loop's own timing. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void relax(const double* u, double* v, int from, int to) {
  for (int i = from; i <= to; ++i) v[i] = u[i] + 0.2 * (u[i - 1] - 2.0 * u[i] + u[i + 1]);
}

/* Receives one matched halo into its place in u; returns the request of an
 * MPI_Imrecv (MPI_REQUEST_NULL after a blocking MPI_Mrecv). */
static MPI_Request receive_matched(MPI_Message* message, const MPI_Status* status, double* u, int local, int left,
                                   int nonblocking) {
  int count = 0;
  MPI_Get_count(status, MPI_DOUBLE, &count);
  double* into = status->MPI_SOURCE == left ? &u[0] : &u[local + 1];
  MPI_Request request = MPI_REQUEST_NULL;
  if (nonblocking) {
    MPI_Imrecv(into, count, MPI_DOUBLE, message, &request);
  } else {
    MPI_Mrecv(into, count, MPI_DOUBLE, message, MPI_STATUS_IGNORE);
  }
  return request;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc != 4 || (strcmp(argv[1], "mprobe") != 0 && strcmp(argv[1], "improbe") != 0)) {
    if (rank == 0) fprintf(stderr, "usage: matched_probes mprobe|improbe ROWS_PER_RANK STEPS\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const int polling = strcmp(argv[1], "improbe") == 0;
  const int local = atoi(argv[2]), steps = atoi(argv[3]);
  double* u = calloc((size_t)local + 2, sizeof(double));
  double* v = calloc((size_t)local + 2, sizeof(double));
  for (int i = 1; i <= local; ++i) u[i] = (double)((rank * local + i) % 23);
  const int left = rank > 0 ? rank - 1 : MPI_PROC_NULL;
  const int right = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;
  const int neighbours = (left != MPI_PROC_NULL) + (right != MPI_PROC_NULL);
  const int slice = local / 8 > 0 ? local / 8 : 1;
  double residual = 0.0;
  MPI_Barrier(MPI_COMM_WORLD);
  const double start = MPI_Wtime();
  for (int step = 0; step < steps; ++step) {
    MPI_Request requests[4];
    int posted = 0;
    if (left != MPI_PROC_NULL) MPI_Isend(&u[1], 1, MPI_DOUBLE, left, 7, MPI_COMM_WORLD, &requests[posted++]);
    if (right != MPI_PROC_NULL) MPI_Isend(&u[local], 1, MPI_DOUBLE, right, 7, MPI_COMM_WORLD, &requests[posted++]);
    int done = 2;  /* the interior rows 2..local-1 need no halo */
    for (int matched = 0; matched < neighbours;) {
      MPI_Message message;
      MPI_Status status;
      int found = 1;
      if (polling) {
        MPI_Improbe(MPI_ANY_SOURCE, 7, MPI_COMM_WORLD, &found, &message, &status);
      } else {
        MPI_Mprobe(MPI_ANY_SOURCE, 7, MPI_COMM_WORLD, &message, &status);
      }
      if (found) {
        requests[posted++] = receive_matched(&message, &status, u, local, left, polling);
        ++matched;
      } else if (done <= local - 1) {
        const int to = done + slice - 1 < local - 1 ? done + slice - 1 : local - 1;
        relax(u, v, done, to);
        done = to + 1;
      }
    }
    MPI_Waitall(posted, requests, MPI_STATUSES_IGNORE);
    if (done <= local - 1) relax(u, v, done, local - 1);
    relax(u, v, 1, 1);
    relax(u, v, local, local);
    double change = 0.0;
    for (int i = 1; i <= local; ++i) change += (v[i] - u[i]) * (v[i] - u[i]);
    MPI_Allreduce(&change, &residual, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    double* t = u;
    u = v;
    v = t;
    u[0] = 0.0;
    u[local + 1] = 0.0;
  }
  const double elapsed = MPI_Wtime() - start;
  double sum = 0.0, total = 0.0;
  for (int i = 1; i <= local; ++i) sum += u[i] * (double)(rank * local + i);
  MPI_Reduce(&sum, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    printf("result residual %.10e\n", residual);
    printf("result checksum %.10e\n", total);
    printf("loop: %d iterations, %g s, %g s per iteration\n", steps, elapsed, elapsed / steps);
  }
  free(u);
  free(v);
  MPI_Finalize();
  return 0;
}
