/* MPI_THREAD_MULTIPLE: two threads per rank exchange around a ring at the
 * same time, each on its own duplicate of MPI_COMM_WORLD, while the main
 * thread waits for them and then reduces and marks the iteration. Prints a
 * checksum that must not change under the interposer.
 * Usage: threaded_ring [iterations] */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "mheta/marks.h"

enum { kThreads = 2, kCount = 1024 };

struct Work {
  MPI_Comm comm;
  int rank, size, iteration;
  double sum;
};

static void* exchange(void* arg) {
  struct Work* w = arg;
  double out[kCount], in[kCount];
  for (int i = 0; i < kCount; ++i) out[i] = w->rank + i * 1e-3 + w->iteration;
  for (int round = 0; round < 4; ++round) {
    MPI_Request r[2];
    MPI_Irecv(in, kCount, MPI_DOUBLE, (w->rank + w->size - 1) % w->size, round, w->comm, &r[0]);
    MPI_Isend(out, kCount, MPI_DOUBLE, (w->rank + 1) % w->size, round, w->comm, &r[1]);
    MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
    for (int i = 0; i < kCount; ++i) w->sum += in[i];
  }
  return NULL;
}

int main(int argc, char** argv) {
  int provided;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (provided < MPI_THREAD_MULTIPLE) {
    if (rank == 0) printf("MPI_THREAD_MULTIPLE not provided\n");
    MPI_Finalize();
    return 0;
  }
  const int iterations = argc > 1 ? atoi(argv[1]) : 6;
  struct Work work[kThreads];
  for (int t = 0; t < kThreads; ++t) {
    MPI_Comm_dup(MPI_COMM_WORLD, &work[t].comm);
    work[t].rank = rank;
    work[t].size = size;
    work[t].sum = 0;
  }
  double checksum = 0;
  for (int it = 0; it < iterations; ++it) {
    pthread_t threads[kThreads];
    for (int t = 0; t < kThreads; ++t) {
      work[t].iteration = it;
      pthread_create(&threads[t], NULL, exchange, &work[t]);
    }
    for (int t = 0; t < kThreads; ++t) pthread_join(threads[t], NULL);
    double local = work[0].sum + work[1].sum, total = 0;
    MPI_Allreduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    checksum += total;
    mheta_mark_iteration();
  }
  for (int t = 0; t < kThreads; ++t) MPI_Comm_free(&work[t].comm);
  if (rank == 0) printf("checksum %.10e\n", checksum);
  MPI_Finalize();
  return 0;
}
