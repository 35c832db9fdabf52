/* Explicit advection-diffusion on a periodic channel: the rows of an
 * n x w grid in equal blocks round a ring of ranks (the channel wraps, so
 * the last rank's neighbour is the first).  Each step the halo rows go by
 * ready sends: every rank first pre-posts its two MPI_Irecv, an
 * MPI_Barrier guarantees that every receive is posted, and only then the
 * boundary rows leave by MPI_Rsend.  The interior rows are then updated in
 * chunks; between chunks the rank polls the pending receives with
 * MPI_Testany and updates a boundary row as soon as its halo is in.  When
 * the interior is done, the rest of the halos are awaited the same way.
 * The squared norm of the update is reduced by MPI_Allreduce at the end of
 * every step (its square root is logged).
 *
 * Usage: rsend_testany [n [steps [w [chunk]]]]   (default 2048 400 512 16)
 * Prints "result ..." lines and "loop: <k> iterations, <t> s, <t/k> s per iteration".
 */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void update_row(const double *u, double *unew, const double *vel, int i, int w, double cfl, double nu) {
  const double *up = u + (size_t)(i - 1) * w, *mid = u + (size_t)i * w, *dn = u + (size_t)(i + 1) * w;
  double *out = unew + (size_t)i * w;
  for (int j = 0; j < w; ++j) {
    const int jl = j == 0 ? w - 1 : j - 1, jr = j == w - 1 ? 0 : j + 1;
    const double c = cfl * vel[j];
    /* upwind advection along the rows (the flow goes towards larger i), diffusion in both directions */
    out[j] = mid[j] - c * (mid[j] - up[j]) + nu * (up[j] + dn[j] + mid[jl] + mid[jr] - 4.0 * mid[j]);
  }
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int n = argc > 1 ? atoi(argv[1]) : 2048;
  const int steps = argc > 2 ? atoi(argv[2]) : 400;
  const int w = argc > 3 ? atoi(argv[3]) : 512;
  const int chunk = argc > 4 ? atoi(argv[4]) : 16;

  const int base = n / size, extra = n % size;
  const int nloc = base + (rank < extra);
  const int r0 = rank * base + (rank < extra ? rank : extra);
  const int left = (rank + size - 1) % size, right = (rank + 1) % size;

  double *u = calloc((size_t)(nloc + 2) * w, sizeof(double));
  double *unew = calloc((size_t)(nloc + 2) * w, sizeof(double));
  double *vel = malloc(w * sizeof(double));
  for (int j = 0; j < w; ++j) vel[j] = 0.5 + 0.5 * sin(M_PI * (j + 0.5) / w); /* faster in mid-channel */
  for (int i = 1; i <= nloc; ++i)
    for (int j = 0; j < w; ++j) {
      const double x = (r0 + i - 0.5) / n - 0.25, y = (j + 0.5) / w - 0.5;
      u[(size_t)i * w + j] = exp(-200.0 * (x * x + y * y)) + 0.1 * exp(-50.0 * ((x - 0.4) * (x - 0.4)));
    }
  const double cfl = 0.4, nu = 0.1;
  double norm = 0.0;

  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  for (int step = 1; step <= steps; ++step) {
    MPI_Request req[2];
    /* halo row 0 comes from the left (its last row), row nloc+1 from the right (its first) */
    MPI_Irecv(u, w, MPI_DOUBLE, left, 31, MPI_COMM_WORLD, &req[0]);
    MPI_Irecv(u + (size_t)(nloc + 1) * w, w, MPI_DOUBLE, right, 32, MPI_COMM_WORLD, &req[1]);
    MPI_Barrier(MPI_COMM_WORLD); /* every receive is posted: ready sends are allowed */
    MPI_Rsend(u + (size_t)nloc * w, w, MPI_DOUBLE, right, 31, MPI_COMM_WORLD);
    MPI_Rsend(u + (size_t)w, w, MPI_DOUBLE, left, 32, MPI_COMM_WORLD);

    int pending = 2, next = 2; /* interior rows 2 .. nloc-1, in chunks */
    while (next < nloc || pending > 0) {
      if (next < nloc) {
        const int stop = next + chunk < nloc ? next + chunk : nloc;
        for (int i = next; i < stop; ++i) update_row(u, unew, vel, i, w, cfl, nu);
        next = stop;
      }
      if (pending > 0) {
        int idx, flag;
        MPI_Testany(2, req, &idx, &flag, MPI_STATUS_IGNORE);
        if (flag && idx != MPI_UNDEFINED) {
          --pending;
          if (idx == 0) update_row(u, unew, vel, 1, w, cfl, nu);
          if (idx == 1 && nloc > 1) update_row(u, unew, vel, nloc, w, cfl, nu);
        }
      }
    }
    double local = 0.0;
    for (int i = 1; i <= nloc; ++i) {
      double *a = u + (size_t)i * w, *b = unew + (size_t)i * w;
      for (int j = 0; j < w; ++j) local += (b[j] - a[j]) * (b[j] - a[j]);
    }
    double *t = u; u = unew; unew = t;
    MPI_Allreduce(&local, &norm, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0 && step % 100 == 0) printf("step %5d  update %.6e\n", step, sqrt(norm));
  }
  double t = MPI_Wtime() - t0, tmax;
  MPI_Reduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);

  double part[3] = {0.0, 0.0, 0.0};
  for (int i = 1; i <= nloc; ++i)
    for (int j = 0; j < w; ++j) {
      const double v = u[(size_t)i * w + j];
      part[0] += v; part[1] += v * v; part[2] += (r0 + i - 0.5) * v;
    }
  double *all = rank == 0 ? malloc(3 * size * sizeof(double)) : NULL;
  MPI_Gather(part, 3, MPI_DOUBLE, all, 3, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    double m = 0, m2 = 0, c = 0;
    for (int r = 0; r < size; ++r) { m += all[3 * r]; m2 += all[3 * r + 1]; c += all[3 * r + 2]; }
    printf("result mass %.10e\n", m / ((double)n * w));
    printf("result l2 %.10e\n", sqrt(m2 / ((double)n * w)));
    printf("result centroid %.10e\n", c / m / n);
    printf("loop: %d iterations, %.6f s, %.6e s per iteration\n", steps, tmax, tmax / steps);
  }
  free(all); free(u); free(unew); free(vel);
  MPI_Finalize();
  return 0;
}
