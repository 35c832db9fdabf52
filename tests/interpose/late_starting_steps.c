/* A periodic 1-D relaxation whose halo messages carry the step number in
 * their tags (2 s to the right, 2 s + 1 to the left), and whose rank 0 also
 * reduces a diagnostic on a communicator of its own during the first
 * `warmup` steps: its loop starts later than its neighbours', so it
 * captures another step than they do, with other tags.
 *
 * Usage: late_starting_steps [steps [warmup]]   (defaults 60 12) */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { kCells = 40000 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int steps = argc > 1 ? atoi(argv[1]) : 60;
  const int warmup = argc > 2 ? atoi(argv[2]) : 12;
  const int left = (rank + size - 1) % size, right = (rank + 1) % size;
  MPI_Comm monitor;  /* rank 0 alone */
  MPI_Comm_split(MPI_COMM_WORLD, rank == 0 ? 0 : MPI_UNDEFINED, 0, &monitor);

  double* u = malloc((kCells + 2) * sizeof(double));
  double* v = malloc((kCells + 2) * sizeof(double));
  for (int i = 0; i < kCells + 2; i++) u[i] = v[i] = (rank * kCells + i) % 17;
  double change = 0;
  for (int s = 0; s < steps; s++) {
    MPI_Request halo[4];
    MPI_Irecv(&u[0], 1, MPI_DOUBLE, left, 2 * s, MPI_COMM_WORLD, &halo[0]);
    MPI_Irecv(&u[kCells + 1], 1, MPI_DOUBLE, right, 2 * s + 1, MPI_COMM_WORLD, &halo[1]);
    MPI_Isend(&u[kCells], 1, MPI_DOUBLE, right, 2 * s, MPI_COMM_WORLD, &halo[2]);
    MPI_Isend(&u[1], 1, MPI_DOUBLE, left, 2 * s + 1, MPI_COMM_WORLD, &halo[3]);
    MPI_Waitall(4, halo, MPI_STATUSES_IGNORE);
    change = 0;
    for (int i = 1; i <= kCells; i++) {
      v[i] = 0.5 * u[i] + 0.25 * (u[i - 1] + u[i + 1]);
      change += (v[i] - u[i]) * (v[i] - u[i]);
    }
    double* t = u; u = v; v = t;
    if (rank == 0 && s < warmup) {
      double seen;
      MPI_Allreduce(&change, &seen, 1, MPI_DOUBLE, MPI_MAX, monitor);
    }
  }
  double total;
  MPI_Reduce(&change, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) printf("result change %.12e\n", total);
  if (monitor != MPI_COMM_NULL) MPI_Comm_free(&monitor);
  free(u); free(v);
  MPI_Finalize();
  return 0;
}
