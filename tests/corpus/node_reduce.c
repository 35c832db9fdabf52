/* Relaxation whose reductions go through the node, as codes tuned for
 * multicore clusters do: the ranks of a node (RANKS_PER_NODE consecutive
 * ranks, by MPI_Comm_split) reduce to their leader (MPI_Reduce), the
 * leaders reduce among themselves on a communicator only they belong to
 * (MPI_Allreduce; the others hold MPI_COMM_NULL), and each leader
 * broadcasts the sum on its node (MPI_Bcast). Halos by MPI_Irecv/MPI_Isend
 * with both neighbours, MPI_Waitall.
 * Usage: node_reduce N STEPS RANKS_PER_NODE */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size; MPI_Comm_rank(MPI_COMM_WORLD, &rank); MPI_Comm_size(MPI_COMM_WORLD, &size);
  int n = argc > 1 ? atoi(argv[1]) : 400000, steps = argc > 2 ? atoi(argv[2]) : 100, per_node = argc > 3 ? atoi(argv[3]) : 2;
  MPI_Comm node, leaders;
  MPI_Comm_split(MPI_COMM_WORLD, rank / per_node, rank, &node);
  int node_rank; MPI_Comm_rank(node, &node_rank);
  MPI_Comm_split(MPI_COMM_WORLD, node_rank == 0 ? 0 : MPI_UNDEFINED, rank, &leaders);
  int local = n / size;
  double *u = malloc(sizeof(double) * (local + 2)), *v = malloc(sizeof(double) * (local + 2));
  for (int i = 0; i < local + 2; i++) u[i] = v[i] = sin(0.0001 * (i + rank * local));
  int up = rank + 1 < size ? rank + 1 : MPI_PROC_NULL, down = rank > 0 ? rank - 1 : MPI_PROC_NULL;
  double norm = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  for (int s = 0; s < steps; s++) {
    MPI_Request r[4];
    MPI_Irecv(&u[0], 1, MPI_DOUBLE, down, 0, MPI_COMM_WORLD, &r[0]);
    MPI_Irecv(&u[local + 1], 1, MPI_DOUBLE, up, 1, MPI_COMM_WORLD, &r[1]);
    MPI_Isend(&u[local], 1, MPI_DOUBLE, up, 0, MPI_COMM_WORLD, &r[2]);
    MPI_Isend(&u[1], 1, MPI_DOUBLE, down, 1, MPI_COMM_WORLD, &r[3]);
    MPI_Waitall(4, r, MPI_STATUSES_IGNORE);
    double local_sum = 0;
    for (int i = 1; i <= local; i++) { v[i] = 0.5 * u[i] + 0.25 * (u[i - 1] + u[i + 1]); local_sum += v[i] * v[i]; }
    double *t = u; u = v; v = t;
    double node_sum = 0, all = 0;
    MPI_Reduce(&local_sum, &node_sum, 1, MPI_DOUBLE, MPI_SUM, 0, node);
    if (leaders != MPI_COMM_NULL) MPI_Allreduce(&node_sum, &all, 1, MPI_DOUBLE, MPI_SUM, leaders);
    MPI_Bcast(&all, 1, MPI_DOUBLE, 0, node);
    norm = sqrt(all);
  }
  double el = MPI_Wtime() - t0, mx;
  MPI_Reduce(&el, &mx, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (rank == 0) printf("result norm %.10e\nloop: %d iterations, %f s, %e s per iteration\n", norm, steps, mx, mx / steps);
  free(u); free(v);
  MPI_Finalize(); return 0;
}
