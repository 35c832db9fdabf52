/* Multigrid V-cycles for the 2-D Poisson equation -lap(u) = f on an n x n
 * cell-centred grid, rows block-distributed over the ranks. Each level
 * smooths with weighted Jacobi (a halo exchange per sweep), restricts the
 * residual by 4-cell averaging and prolongs by (damped) injection; the coarsest level
 * (two rows per rank) is smoothed many times. The residual norm is reduced
 * once per cycle.
 *
 * Usage: multigrid_vcycle [n [cycles]]   (default 512, 60; n / ranks a power of two >= 2)
 * Prints "result residual <r>" and "loop: <k> iterations, <t> s, <t/k> s per iteration".
 */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
  int n;     /* global cells per side */
  int rows;  /* local rows */
  double h2; /* cell width squared */
  double *u, *f, *r; /* (rows + 2) x n, one halo row above and below */
} Level;

static int rank, size, up, down;

static void exchange(Level* l, double* v) {
  MPI_Sendrecv(v + (size_t)l->rows * l->n, l->n, MPI_DOUBLE, down, 1, v, l->n, MPI_DOUBLE, up, 1, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  MPI_Sendrecv(v + (size_t)l->n, l->n, MPI_DOUBLE, up, 2, v + (size_t)(l->rows + 1) * l->n, l->n, MPI_DOUBLE, down, 2,
               MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

/* Zero (Dirichlet) values outside the domain: halo rows of the edge ranks
 * stay 0, columns outside are skipped. */
static double neighbours(const Level* l, const double* v, int i, int j) {
  const int n = l->n;
  const double* row = v + (size_t)i * n;
  return row[j - n] + row[j + n] + (j > 0 ? row[j - 1] : 0) + (j < n - 1 ? row[j + 1] : 0);
}

static void residual(Level* l) {
  exchange(l, l->u);
  for (int i = 1; i <= l->rows; ++i)
    for (int j = 0; j < l->n; ++j) {
      const size_t k = (size_t)i * l->n + j;
      l->r[k] = l->f[k] - (4 * l->u[k] - neighbours(l, l->u, i, j)) / l->h2;
    }
}

static void smooth(Level* l, int sweeps, double* scratch) {
  for (int s = 0; s < sweeps; ++s) {
    exchange(l, l->u);
    for (int i = 1; i <= l->rows; ++i)
      for (int j = 0; j < l->n; ++j) {
        const size_t k = (size_t)i * l->n + j;
        const double jacobi = (l->h2 * l->f[k] + neighbours(l, l->u, i, j)) / 4;
        scratch[k] = l->u[k] + 0.8 * (jacobi - l->u[k]);
      }
    for (int i = 1; i <= l->rows; ++i)
      for (int j = 0; j < l->n; ++j) l->u[(size_t)i * l->n + j] = scratch[(size_t)i * l->n + j];
  }
}

static void vcycle(Level* levels, int depth, int level, double* scratch) {
  Level* l = &levels[level];
  if (level == depth - 1) {
    smooth(l, 10, scratch);
    return;
  }
  smooth(l, 2, scratch);
  residual(l);
  Level* c = &levels[level + 1];
  for (int i = 1; i <= c->rows; ++i)
    for (int j = 0; j < c->n; ++j) {
      const double* r0 = l->r + (size_t)(2 * i - 1) * l->n + 2 * j;
      const double* r1 = r0 + l->n;
      c->f[(size_t)i * c->n + j] = (r0[0] + r0[1] + r1[0] + r1[1]) / 4;
    }
  for (size_t k = 0; k < (size_t)(c->rows + 2) * c->n; ++k) c->u[k] = 0;
  vcycle(levels, depth, level + 1, scratch);
  /* Injection overshoots the oscillatory coarse modes by 2 (the coarse
   * operator is rediscretized, not Galerkin): half the correction. */
  for (int i = 1; i <= l->rows; ++i)
    for (int j = 0; j < l->n; ++j) l->u[(size_t)i * l->n + j] += 0.5 * c->u[(size_t)((i + 1) / 2) * c->n + j / 2];
  smooth(l, 2, scratch);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int n = argc > 1 ? atoi(argv[1]) : 512;
  const int cycles = argc > 2 ? atoi(argv[2]) : 60;
  up = rank > 0 ? rank - 1 : MPI_PROC_NULL;
  down = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;
  if (n % size != 0 || n / size < 2) {
    if (rank == 0) fprintf(stderr, "multigrid_vcycle: n must be a multiple of the ranks, >= 2 rows each\n");
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  int depth = 0;
  while (depth < 12 && (n >> depth) / size >= 2 && (n >> depth) % size == 0 && (n >> depth) >= 4) ++depth;
  Level* levels = calloc(depth, sizeof(Level));
  for (int d = 0; d < depth; ++d) {
    Level* l = &levels[d];
    l->n = n >> d;
    l->rows = l->n / size;
    l->h2 = 1.0 / ((double)l->n * l->n);
    l->u = calloc((size_t)(l->rows + 2) * l->n, sizeof(double));
    l->f = calloc((size_t)(l->rows + 2) * l->n, sizeof(double));
    l->r = calloc((size_t)(l->rows + 2) * l->n, sizeof(double));
  }
  double* scratch = calloc((size_t)(levels[0].rows + 2) * n, sizeof(double));
  const int first_row = rank * levels[0].rows;
  for (int i = 1; i <= levels[0].rows; ++i)
    for (int j = 0; j < n; ++j) {
      const double y = (first_row + i - 0.5) / n, x = (j + 0.5) / n;
      levels[0].f[(size_t)i * n + j] = sin(M_PI * x) * sin(2 * M_PI * y) + 1;
    }

  MPI_Barrier(MPI_COMM_WORLD);
  const double start = MPI_Wtime();
  double norm = 0;
  for (int cycle = 0; cycle < cycles; ++cycle) {
    vcycle(levels, depth, 0, scratch);
    residual(&levels[0]);
    double local = 0;
    for (int i = 1; i <= levels[0].rows; ++i)
      for (int j = 0; j < n; ++j) local += levels[0].r[(size_t)i * n + j] * levels[0].r[(size_t)i * n + j];
    MPI_Allreduce(&local, &norm, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  double elapsed = MPI_Wtime() - start, slowest = 0;
  MPI_Reduce(&elapsed, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    printf("result residual %.12e\n", sqrt(norm) / n);
    printf("loop: %d iterations, %.6f s, %.6e s per iteration\n", cycles, slowest, slowest / cycles);
  }
  for (int d = 0; d < depth; ++d) {
    free(levels[d].u);
    free(levels[d].f);
    free(levels[d].r);
  }
  free(levels);
  free(scratch);
  MPI_Finalize();
  return 0;
}
