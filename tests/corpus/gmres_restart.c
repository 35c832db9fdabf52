/* GMRES(m) with restarts on a 1-D Poisson problem split in block rows.
 * Each Arnoldi step: a matvec with a halo of one value each way
 * (MPI_Sendrecv), classical Gram-Schmidt whose j+1 dot products go in one
 * MPI_Allreduce (so its size grows through a cycle), and a norm reduced
 * alone. Each restart cycle ends with the least-squares update and the true
 * residual reduced. Usage: gmres_restart [rows_per_rank [m [cycles]]] */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int n, up, down;

static void matvec(const double *x, double *y) {
  double lo = 0, hi = 0;
  MPI_Sendrecv(&x[0], 1, MPI_DOUBLE, up, 7, &hi, 1, MPI_DOUBLE, down, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Sendrecv(&x[n - 1], 1, MPI_DOUBLE, down, 8, &lo, 1, MPI_DOUBLE, up, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  for (int i = 0; i < n; ++i) {
    const double l = i > 0 ? x[i - 1] : lo, r = i < n - 1 ? x[i + 1] : hi;
    y[i] = 2.2 * x[i] - l - r;
  }
}

static double dot(const double *a, const double *b) {
  double s = 0, t;
  for (int i = 0; i < n; ++i) s += a[i] * b[i];
  MPI_Allreduce(&s, &t, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return t;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  n = argc > 1 ? atoi(argv[1]) : 20000;
  const int m = argc > 2 ? atoi(argv[2]) : 12;
  const int cycles = argc > 3 ? atoi(argv[3]) : 40;
  up = rank > 0 ? rank - 1 : MPI_PROC_NULL;
  down = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;
  double *x = calloc(n, sizeof *x), *b = malloc(n * sizeof *b), *r = malloc(n * sizeof *r);
  double *V = malloc((size_t)(m + 1) * n * sizeof *V), *H = calloc((size_t)(m + 1) * m, sizeof *H);
  double *local = malloc((m + 1) * sizeof *local), *h = malloc((m + 1) * sizeof *h);
  double *cs = malloc(m * sizeof *cs), *sn = malloc(m * sizeof *sn), *g = malloc((m + 1) * sizeof *g);
  for (int i = 0; i < n; ++i) b[i] = sin(0.001 * (rank * n + i)) + 1.0;
  double resid = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  const double t0 = MPI_Wtime();
  for (int c = 0; c < cycles; ++c) {
    matvec(x, r);
    for (int i = 0; i < n; ++i) r[i] = b[i] - r[i];
    const double beta = sqrt(dot(r, r));
    for (int i = 0; i < n; ++i) V[i] = r[i] / beta;
    memset(g, 0, (m + 1) * sizeof *g);
    g[0] = beta;
    int k = 0;
    for (int j = 0; j < m; ++j, k = j) {
      double *w = &V[(size_t)(j + 1) * n];
      matvec(&V[(size_t)j * n], w);
      for (int i = 0; i <= j; ++i) {
        double s = 0;
        const double *v = &V[(size_t)i * n];
        for (int q = 0; q < n; ++q) s += v[q] * w[q];
        local[i] = s;
      }
      MPI_Allreduce(local, h, j + 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
      for (int i = 0; i <= j; ++i) {
        const double *v = &V[(size_t)i * n];
        for (int q = 0; q < n; ++q) w[q] -= h[i] * v[q];
        H[i * m + j] = h[i];
      }
      const double hn = sqrt(dot(w, w));
      H[(j + 1) * m + j] = hn;
      for (int q = 0; q < n; ++q) w[q] /= hn;
      for (int i = 0; i < j; ++i) {
        const double a = H[i * m + j], bb = H[(i + 1) * m + j];
        H[i * m + j] = cs[i] * a + sn[i] * bb;
        H[(i + 1) * m + j] = -sn[i] * a + cs[i] * bb;
      }
      const double den = hypot(H[j * m + j], H[(j + 1) * m + j]);
      cs[j] = H[j * m + j] / den;
      sn[j] = H[(j + 1) * m + j] / den;
      H[j * m + j] = den;
      g[j + 1] = -sn[j] * g[j];
      g[j] = cs[j] * g[j];
    }
    k = m;
    for (int i = k - 1; i >= 0; --i) {
      double s = g[i];
      for (int q = i + 1; q < k; ++q) s -= H[i * m + q] * local[q];
      local[i] = s / H[i * m + i];
    }
    for (int i = 0; i < k; ++i)
      for (int q = 0; q < n; ++q) x[q] += local[i] * V[(size_t)i * n + q];
    matvec(x, r);
    for (int i = 0; i < n; ++i) r[i] = b[i] - r[i];
    resid = sqrt(dot(r, r));
  }
  const double t = MPI_Wtime() - t0;
  double xs = 0;
  for (int i = 0; i < n; ++i) xs += x[i];
  double total;
  MPI_Reduce(&xs, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    printf("result residual %.6e\nresult xsum %.6e\n", resid, total);
    printf("loop: %d iterations, %.6f s, %.6e s per iteration\n", cycles, t, t / cycles);
  }
  free(x), free(b), free(r), free(V), free(H), free(local), free(h), free(cs), free(sn), free(g);
  MPI_Finalize();
  return 0;
}
