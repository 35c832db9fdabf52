/* Master-worker integration, time step by time step: at each step rank 0
 * splits the step's work into tasks (strips of a 2-D integral whose
 * integrand depends on the step), hands one to each worker, and then answers
 * every result (received from MPI_ANY_SOURCE) with the next task until none
 * is left, when it tells the worker the step is over. Results are stored
 * by task, so the sum does not depend on which worker did what.
 *
 * Usage: master_worker [steps [tasks [points]]]   (default 150, 12, 140; at least 2 ranks)
 * Prints "result integral <sum>" and "loop: <k> iterations, <t> s, <t/k> s per iteration".
 */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { TAG_TASK = 1, TAG_RESULT = 2, TAG_STEP_DONE = 3 };

/* Integral over the strip [task/tasks, (task+1)/tasks] x [0,1] by the
 * midpoint rule on points x points cells. */
static double strip(int step, int task, int tasks, int points) {
  const double h = 1.0 / points, w = 1.0 / tasks;
  const double phase = 0.01 * step;
  double s = 0;
  for (int i = 0; i < points; ++i) {
    const double x = (task + (i + 0.5) / points) * w;
    for (int j = 0; j < points; ++j) {
      const double y = (j + 0.5) * h;
      s += exp(-x * y) * cos(3 * x + phase) + sqrt(1 + x * x + y * y);
    }
  }
  return s * h * w / points;
}

static void master(int steps, int tasks, int workers, double* total) {
  double* results = malloc(sizeof(double) * tasks);
  for (int step = 0; step < steps; ++step) {
    int next = 0, busy = 0;
    for (int w = 1; w <= workers && next < tasks; ++w, ++next, ++busy) {
      const int task[2] = {step, next};
      MPI_Send(task, 2, MPI_INT, w, TAG_TASK, MPI_COMM_WORLD);
    }
    while (busy > 0) {
      double result[2];
      MPI_Status status;
      MPI_Recv(result, 2, MPI_DOUBLE, MPI_ANY_SOURCE, TAG_RESULT, MPI_COMM_WORLD, &status);
      results[(int)result[0]] = result[1];
      if (next < tasks) {
        const int task[2] = {step, next++};
        MPI_Send(task, 2, MPI_INT, status.MPI_SOURCE, TAG_TASK, MPI_COMM_WORLD);
      } else {
        --busy;
      }
    }
    for (int w = 1; w <= workers; ++w) MPI_Send(NULL, 0, MPI_INT, w, TAG_STEP_DONE, MPI_COMM_WORLD);
    for (int t = 0; t < tasks; ++t) *total += results[t];
  }
  free(results);
}

static void worker(int steps, int tasks, int points) {
  for (int step = 0; step < steps; ++step) {
    for (;;) {
      int task[2];
      MPI_Status status;
      MPI_Recv(task, 2, MPI_INT, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &status);
      if (status.MPI_TAG == TAG_STEP_DONE) break;
      const double result[2] = {task[1], strip(task[0], task[1], tasks, points)};
      MPI_Send(result, 2, MPI_DOUBLE, 0, TAG_RESULT, MPI_COMM_WORLD);
    }
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int params[3] = {150, 12, 140};
  for (int i = 0; i < 3 && i + 1 < argc; ++i) params[i] = atoi(argv[i + 1]);
  MPI_Bcast(params, 3, MPI_INT, 0, MPI_COMM_WORLD);
  if (size < 2) {
    fprintf(stderr, "master_worker: needs a master and at least one worker\n");
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  double total = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  const double start = MPI_Wtime();
  if (rank == 0) {
    master(params[0], params[1], size - 1, &total);
  } else {
    worker(params[0], params[1], params[2]);
  }
  double elapsed = MPI_Wtime() - start, slowest = 0;
  MPI_Reduce(&elapsed, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    printf("result integral %.12e\n", total / params[0]);
    printf("loop: %d iterations, %.6f s, %.6e s per iteration\n", params[0], slowest, slowest / params[0]);
  }
  MPI_Finalize();
  return 0;
}
