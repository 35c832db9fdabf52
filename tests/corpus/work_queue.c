/* Self-scheduled integration, time step by time step, with no master: at
 * each step every rank takes the step's tasks (strips of a 2-D integral
 * whose cost grows with the strip) one at a time from a shared counter,
 * an MPI_Fetch_and_op on rank 0's window in one MPI_Win_lock_all epoch,
 * until the counter passes the last task. A rank takes as many tasks as
 * its speed lets it, so the number of atomic calls changes from step to
 * step and from rank to rank. The step ends with an MPI_Allreduce of the
 * results, stored by task: the sum does not depend on who did what. Each
 * step has a counter of its own, so none is reset.
 *
 * Usage: work_queue [steps [tasks [points]]]   (default 150, 24, 100)
 * Prints "result integral <sum>" and "loop: <k> iterations, <t> s, <t/k> s per iteration".
 */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Integral over the strip [task/tasks, (task+1)/tasks] x [0,1] by the
 * midpoint rule; the strip's cells grow with its number (1-3x). */
static double strip(int step, int task, int tasks, int points) {
  const int across = points * (1 + task % 3);
  const double h = 1.0 / points, w = 1.0 / tasks, phase = 0.01 * step;
  double s = 0;
  for (int i = 0; i < across; ++i) {
    const double x = (task + (i + 0.5) / across) * w;
    for (int j = 0; j < points; ++j) {
      const double y = (j + 0.5) * h;
      s += exp(-x * y) * cos(3 * x + phase) + sqrt(1 + x * x + y * y);
    }
  }
  return s * h * w / across;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int params[3] = {150, 24, 100};
  for (int i = 0; i < 3 && i + 1 < argc; ++i) params[i] = atoi(argv[i + 1]);
  MPI_Bcast(params, 3, MPI_INT, 0, MPI_COMM_WORLD);
  const int steps = params[0], tasks = params[1], points = params[2];
  long* counters = NULL;
  MPI_Win win;
  const MPI_Aint window_bytes = rank == 0 ? (MPI_Aint)(sizeof(long) * steps) : 0;
  MPI_Win_allocate(window_bytes, sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &counters, &win);
  if (rank == 0) memset(counters, 0, sizeof(long) * steps);
  MPI_Win_lock_all(0, win);
  double* mine = malloc(sizeof(double) * tasks);
  double* results = malloc(sizeof(double) * tasks);
  double total = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  const double start = MPI_Wtime();
  for (int step = 0; step < steps; ++step) {
    for (int t = 0; t < tasks; ++t) mine[t] = 0;
    const long one = 1;
    for (;;) {
      long task = 0;
      MPI_Fetch_and_op(&one, &task, MPI_LONG, 0, step, MPI_SUM, win);
      MPI_Win_flush(0, win);
      if (task >= tasks) break;
      mine[task] = strip(step, (int)task, tasks, points);
    }
    MPI_Allreduce(mine, results, tasks, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    for (int t = 0; t < tasks; ++t) total += results[t];
  }
  double elapsed = MPI_Wtime() - start, slowest = 0;
  MPI_Reduce(&elapsed, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  MPI_Win_unlock_all(win);
  if (rank == 0) {
    printf("result integral %.12e\n", total / steps);
    printf("loop: %d iterations, %.6f s, %.6e s per iteration\n", steps, slowest, slowest / steps);
  }
  free(mine);
  free(results);
  MPI_Win_free(&win);
  MPI_Finalize();
  return 0;
}
