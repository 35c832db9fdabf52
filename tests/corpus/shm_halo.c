/* Jacobi iteration for the Poisson problem -lap(u) = f on the unit square
 * (zero boundary), the grid's rows in equal blocks over the ranks, with the
 * blocks held in MPI-3 shared memory: the ranks of one node
 * (MPI_Comm_split_type(MPI_COMM_TYPE_SHARED)) allocate their block with two
 * halo rows by MPI_Win_allocate_shared, find their neighbours' blocks by
 * MPI_Win_shared_query and read the neighbours' boundary rows straight from
 * them; a neighbour on another node (if any) is reached by MPI_Sendrecv
 * into the halo row.  One passive epoch (MPI_Win_lock_all) for the whole
 * run; each sweep is separated from the next by MPI_Win_sync and a barrier
 * on the node communicator, before (the neighbours have finished reading)
 * and after (the new values are visible) the update of the block.
 * The residual (largest change) is reduced by MPI_Allreduce every 10th step.
 *
 * Usage: shm_halo [n [steps]]   (n x n interior points, default 2048 300)
 * Prints "result ..." lines and "loop: <k> iterations, <t> s, <t/k> s per iteration".
 */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int n = argc > 1 ? atoi(argv[1]) : 2048;
  const int steps = argc > 2 ? atoi(argv[2]) : 300;

  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
  int nrank, nsize;
  MPI_Comm_rank(node, &nrank);
  MPI_Comm_size(node, &nsize);

  /* rows in blocks, the first n % size ranks one more */
  const int base = n / size, extra = n % size;
  const int nloc = base + (rank < extra);
  const int r0 = rank * base + (rank < extra ? rank : extra);
  const int up = rank > 0 ? rank - 1 : MPI_PROC_NULL, down = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;
  const int w = n + 2; /* one boundary column either side */

  double *u;
  MPI_Win win;
  MPI_Win_allocate_shared((MPI_Aint)(nloc + 2) * w * sizeof(double), sizeof(double), MPI_INFO_NULL, node, &u,
                          &win);
  memset(u, 0, (size_t)(nloc + 2) * w * sizeof(double));

  /* the neighbours within the node: their world ranks translated to node ranks */
  MPI_Group world_group, node_group;
  MPI_Comm_group(MPI_COMM_WORLD, &world_group);
  MPI_Comm_group(node, &node_group);
  int nb_world[2] = {up, down}, nb_node[2] = {MPI_UNDEFINED, MPI_UNDEFINED};
  for (int k = 0; k < 2; ++k)
    if (nb_world[k] != MPI_PROC_NULL) MPI_Group_translate_ranks(world_group, 1, &nb_world[k], node_group, &nb_node[k]);
  const double *nb_row[2] = {NULL, NULL}; /* the neighbours' boundary rows facing this block */
  for (int k = 0; k < 2; ++k) {
    if (nb_node[k] == MPI_UNDEFINED) continue;
    MPI_Aint bytes;
    int disp;
    double *p;
    MPI_Win_shared_query(win, nb_node[k], &bytes, &disp, &p);
    const int their = (int)(bytes / sizeof(double)) / w - 2;
    nb_row[k] = k == 0 ? p + (size_t)their * w : p + w; /* up: its last row; down: its first */
  }
  MPI_Group_free(&world_group);
  MPI_Group_free(&node_group);

  double *unew = calloc((size_t)(nloc + 2) * w, sizeof(double));
  double *f = malloc((size_t)(nloc + 2) * w * sizeof(double));
  const double h = 1.0 / (n + 1);
  for (int i = 1; i <= nloc; ++i)
    for (int j = 1; j <= n; ++j) {
      const double x = (r0 + i) * h, y = j * h;
      f[i * w + j] = h * h * (sin(3 * M_PI * x) * sin(2 * M_PI * y) + 2.0 * exp(-40 * ((x - 0.3) * (x - 0.3) + (y - 0.7) * (y - 0.7))));
    }

  MPI_Win_lock_all(MPI_MODE_NOCHECK, win);
  MPI_Win_sync(win);
  MPI_Barrier(node);

  double resid = 0.0;
  int nres = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  for (int step = 1; step <= steps; ++step) {
    /* halos from other nodes, if a neighbour lives on one */
    for (int k = 0; k < 2; ++k) {
      if (nb_world[k] == MPI_PROC_NULL || nb_node[k] != MPI_UNDEFINED) continue;
      double *send = k == 0 ? u + w : u + (size_t)nloc * w, *recv = k == 0 ? u : u + (size_t)(nloc + 1) * w;
      MPI_Sendrecv(send, w, MPI_DOUBLE, nb_world[k], 7, recv, w, MPI_DOUBLE, nb_world[k], 7, MPI_COMM_WORLD,
                   MPI_STATUS_IGNORE);
    }
    double change = 0.0;
    for (int i = 1; i <= nloc; ++i) {
      const double *above = (i == 1 && nb_row[0]) ? nb_row[0] : u + (size_t)(i - 1) * w;
      const double *below = (i == nloc && nb_row[1]) ? nb_row[1] : u + (size_t)(i + 1) * w;
      const double *mid = u + (size_t)i * w, *fi = f + (size_t)i * w;
      double *out = unew + (size_t)i * w;
      for (int j = 1; j <= n; ++j) {
        const double v = 0.25 * (above[j] + below[j] + mid[j - 1] + mid[j + 1] + fi[j]);
        const double d = fabs(v - mid[j]);
        if (d > change) change = d;
        out[j] = v;
      }
    }
    /* the neighbours have read this block's boundary rows */
    MPI_Win_sync(win);
    MPI_Barrier(node);
    for (int i = 1; i <= nloc; ++i) memcpy(u + (size_t)i * w + 1, unew + (size_t)i * w + 1, n * sizeof(double));
    /* and the new rows are visible to them */
    MPI_Win_sync(win);
    MPI_Barrier(node);
    if (step % 10 == 0) {
      MPI_Allreduce(&change, &resid, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
      ++nres;
      if (rank == 0 && step % 100 == 0) printf("step %5d  max change %.6e\n", step, resid);
    }
  }
  double t = MPI_Wtime() - t0, tmax;
  MPI_Reduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  MPI_Win_unlock_all(win);

  /* checksums: per-rank partial sums gathered and added on rank 0 in rank order */
  double part[2] = {0.0, 0.0};
  for (int i = 1; i <= nloc; ++i) {
    double row = 0.0, rowsq = 0.0;
    for (int j = 1; j <= n; ++j) { row += u[(size_t)i * w + j]; rowsq += u[(size_t)i * w + j] * u[(size_t)i * w + j]; }
    part[0] += row; part[1] += rowsq;
  }
  double *all = rank == 0 ? malloc(2 * size * sizeof(double)) : NULL;
  MPI_Gather(part, 2, MPI_DOUBLE, all, 2, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    double s = 0, s2 = 0;
    for (int r = 0; r < size; ++r) { s += all[2 * r]; s2 += all[2 * r + 1]; }
    printf("result sum %.10e\n", s * h * h);
    printf("result norm %.10e\n", sqrt(s2 * h * h));
    printf("result residual %.6e\n", resid);
    printf("loop: %d iterations, %.6f s, %.6e s per iteration\n", steps, tmax, tmax / steps);
  }
  free(all);
  free(unew);
  free(f);
  MPI_Win_free(&win);
  MPI_Comm_free(&node);
  MPI_Finalize();
  return 0;
}
