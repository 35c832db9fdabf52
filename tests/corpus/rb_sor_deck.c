/* Red-black SOR for the 2-D Poisson equation -lap(u) = f, Dirichlet zero
 * boundaries, in block rows over the ranks.  Rank 0 reads an input deck
 * (key value lines, '#' comments) and broadcasts the parameters: the
 * title, the integer parameters and the real ones each by its own
 * MPI_Bcast.  Each sweep: halo rows by MPI_Sendrecv, the red half sweep,
 * halo rows again, the black half sweep.  Every `check`-th sweep the
 * residual norm is reduced with MPI_Allreduce and the loop stops once it
 * is below tol * initial residual (or after maxit sweeps).
 *
 * Usage: rb_sor_deck deck.in
 * Prints "result ..." lines and "loop: <k> iterations, <t> s, <t/k> s per iteration".
 */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  char title[80];
  int nrows, ncols, maxit, check;
  double omega, tol, amp1, amp2;
} Deck;

static void read_deck(const char *path, Deck *d) {
  FILE *f = fopen(path, "r");
  char line[256], key[64], val[128];
  if (!f) {
    fprintf(stderr, "rb_sor_deck: cannot open %s\n", path);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  while (fgets(line, sizeof line, f)) {
    char *p = line;
    while (*p == ' ' || *p == '\t') ++p;
    if (*p == '#' || *p == '\n' || *p == 0) continue;
    if (sscanf(p, "%63s %127[^\n]", key, val) != 2) continue;
    if (!strcmp(key, "title")) {
      char *q = strchr(val, '"'), *e;
      if (q && (e = strchr(q + 1, '"'))) { *e = 0; snprintf(d->title, sizeof d->title, "%s", q + 1); }
    } else if (!strcmp(key, "nrows")) d->nrows = atoi(val);
    else if (!strcmp(key, "ncols")) d->ncols = atoi(val);
    else if (!strcmp(key, "maxit")) d->maxit = atoi(val);
    else if (!strcmp(key, "check")) d->check = atoi(val);
    else if (!strcmp(key, "omega")) d->omega = atof(val);
    else if (!strcmp(key, "tol")) d->tol = atof(val);
    else if (!strcmp(key, "amp1")) d->amp1 = atof(val);
    else if (!strcmp(key, "amp2")) d->amp2 = atof(val);
  }
  fclose(f);
}

#define U(i, j) u[(size_t)(i) * (nc + 2) + (j)]
#define F(i, j) f[(size_t)(i) * (nc + 2) + (j)]

static void halo(double *u, int nl, int nc, int up, int down) {
  MPI_Sendrecv(&U(1, 0), nc + 2, MPI_DOUBLE, up, 11, &U(nl + 1, 0), nc + 2, MPI_DOUBLE, down, 11,
               MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Sendrecv(&U(nl, 0), nc + 2, MPI_DOUBLE, down, 12, &U(0, 0), nc + 2, MPI_DOUBLE, up, 12,
               MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

static void half_sweep(double *u, const double *f, int nl, int nc, int row0, int colour, double omega, double h2) {
  for (int i = 1; i <= nl; ++i) {
    int gi = row0 + i;
    int j = 1 + ((gi + 1 + colour) & 1);
    for (; j <= nc; j += 2) {
      double gs = 0.25 * (U(i - 1, j) + U(i + 1, j) + U(i, j - 1) + U(i, j + 1) + h2 * F(i, j));
      U(i, j) += omega * (gs - U(i, j));
    }
  }
}

static double residual2(const double *u, const double *f, int nl, int nc, double h2) {
  double s = 0;
  for (int i = 1; i <= nl; ++i)
    for (int j = 1; j <= nc; ++j) {
      double r = h2 * F(i, j) - (4 * U(i, j) - U(i - 1, j) - U(i + 1, j) - U(i, j - 1) - U(i, j + 1));
      s += r * r;
    }
  return s;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  Deck d = {"untitled", 512, 512, 100, 5, 1.8, 1e-8, 1.0, 0.0};
  if (rank == 0) {
    if (argc < 2) { fprintf(stderr, "usage: rb_sor_deck deck.in\n"); MPI_Abort(MPI_COMM_WORLD, 1); }
    read_deck(argv[1], &d);
  }
  int ip[4] = {d.nrows, d.ncols, d.maxit, d.check};
  double rp[4] = {d.omega, d.tol, d.amp1, d.amp2};
  MPI_Bcast(d.title, (int)sizeof d.title, MPI_CHAR, 0, MPI_COMM_WORLD);
  MPI_Bcast(ip, 4, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Bcast(rp, 4, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  d.nrows = ip[0]; d.ncols = ip[1]; d.maxit = ip[2]; d.check = ip[3];
  d.omega = rp[0]; d.tol = rp[1]; d.amp1 = rp[2]; d.amp2 = rp[3];

  const int nr = d.nrows, nc = d.ncols;
  const int nl = nr / size + (rank < nr % size);
  const int row0 = rank * (nr / size) + (rank < nr % size ? rank : nr % size);
  const int up = rank > 0 ? rank - 1 : MPI_PROC_NULL, down = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;
  const double h = 1.0 / (nr + 1), h2 = h * h;
  double *u = calloc((size_t)(nl + 2) * (nc + 2), sizeof *u);
  double *f = calloc((size_t)(nl + 2) * (nc + 2), sizeof *f);
  for (int i = 1; i <= nl; ++i)
    for (int j = 1; j <= nc; ++j) {
      double x = (row0 + i) * h, y = j / (double)(nc + 1);
      F(i, j) = d.amp1 * exp(-80 * ((x - 0.3) * (x - 0.3) + (y - 0.4) * (y - 0.4))) +
                d.amp2 * exp(-120 * ((x - 0.7) * (x - 0.7) + (y - 0.65) * (y - 0.65)));
    }
  halo(u, nl, nc, up, down);
  double r0l = residual2(u, f, nl, nc, h2), r0;
  MPI_Allreduce(&r0l, &r0, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  r0 = sqrt(r0);
  if (rank == 0) printf("%s: %d x %d, omega %.2f, %d ranks\n", d.title, nr, nc, d.omega, size);

  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime(), rnorm = r0;
  int it = 0;
  while (it < d.maxit) {
    halo(u, nl, nc, up, down);
    half_sweep(u, f, nl, nc, row0, 0, d.omega, h2);
    halo(u, nl, nc, up, down);
    half_sweep(u, f, nl, nc, row0, 1, d.omega, h2);
    ++it;
    if (it % d.check == 0) {
      halo(u, nl, nc, up, down);
      double rl = residual2(u, f, nl, nc, h2);
      MPI_Allreduce(&rl, &rnorm, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
      rnorm = sqrt(rnorm);
      if (rank == 0 && it % (20 * d.check) == 0) printf("  sweep %5d  residual %.6e\n", it, rnorm / r0);
      if (rnorm < d.tol * r0) break;
    }
  }
  double t = MPI_Wtime() - t0, tmax;
  MPI_Reduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  double sl = 0, s;
  for (int i = 1; i <= nl; ++i)
    for (int j = 1; j <= nc; ++j) sl += U(i, j);
  MPI_Reduce(&sl, &s, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    printf("result sweeps %d\n", it);
    printf("result residual %.10e\n", rnorm / r0);
    printf("result usum %.10e\n", s * h * h);
    printf("loop: %d iterations, %.6f s, %.6e s per iteration\n", it, tmax, tmax / it);
  }
  free(u); free(f);
  MPI_Finalize();
  return 0;
}
