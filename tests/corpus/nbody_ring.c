/* Direct-summation gravitational N-body, the bodies in equal blocks over
 * the ranks, forces by the systolic ring: a travelling copy of a block of
 * positions and masses goes round the ring, and while one block is used
 * the next one is already on its way (MPI_Irecv/MPI_Isend into a second
 * buffer, MPI_Waitall before the swap).  Leapfrog (kick-drift-kick) time
 * steps; every 10th step each rank's diagnostics (kinetic energy, momentum,
 * largest speed) are collected on rank 0 by MPI_Gather, which prints a log
 * line.  The potential energy is computed once at the end.
 *
 * Usage: nbody_ring [bodies [steps]]   (default 6144 40)
 * Prints "result ..." lines and "loop: <k> iterations, <t> s, <t/k> s per iteration".
 */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct { double x, y, z, m; } Body;

static unsigned long long lcg = 88172645463325252ULL;
static double urand(void) {
  lcg = lcg * 6364136223846793005ULL + 1442695040888963407ULL;
  return (double)(lcg >> 11) / 9007199254740992.0;
}

static void accumulate(const Body *mine, int n, const Body *other, int m, double eps2, double *ax, double *ay,
                       double *az) {
  for (int i = 0; i < n; ++i) {
    double fx = 0, fy = 0, fz = 0;
    const double xi = mine[i].x, yi = mine[i].y, zi = mine[i].z;
    for (int j = 0; j < m; ++j) {
      const double dx = other[j].x - xi, dy = other[j].y - yi, dz = other[j].z - zi;
      const double r2 = dx * dx + dy * dy + dz * dz + eps2;
      const double inv = 1.0 / sqrt(r2);
      const double s = other[j].m * inv * inv * inv;
      fx += s * dx; fy += s * dy; fz += s * dz;
    }
    ax[i] += fx; ay[i] += fy; az[i] += fz;
  }
}

static void forces(const Body *mine, int n, Body *travel, Body *next, int size, int left, int right,
                   double eps2, double *ax, double *ay, double *az, MPI_Datatype body_t) {
  memset(ax, 0, n * sizeof *ax); memset(ay, 0, n * sizeof *ay); memset(az, 0, n * sizeof *az);
  memcpy(travel, mine, n * sizeof *mine);
  for (int shift = 0; shift < size; ++shift) {
    MPI_Request req[2];
    int pending = shift < size - 1;
    if (pending) {
      MPI_Irecv(next, n, body_t, left, 40 + shift % 2, MPI_COMM_WORLD, &req[0]);
      MPI_Isend(travel, n, body_t, right, 40 + shift % 2, MPI_COMM_WORLD, &req[1]);
    }
    accumulate(mine, n, travel, n, eps2, ax, ay, az);
    if (pending) {
      MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
      Body *t = travel; travel = next; next = t;
    }
  }
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int N = argc > 1 ? atoi(argv[1]) : 6144;
  const int steps = argc > 2 ? atoi(argv[2]) : 40;
  const int n = N / size;
  const int left = (rank + size - 1) % size, right = (rank + 1) % size;
  MPI_Datatype body_t;
  MPI_Type_contiguous(4, MPI_DOUBLE, &body_t);
  MPI_Type_commit(&body_t);

  Body *b = malloc(n * sizeof *b), *travel = malloc(n * sizeof *b), *next = malloc(n * sizeof *b);
  double *vx = calloc(n, sizeof(double)), *vy = calloc(n, sizeof(double)), *vz = calloc(n, sizeof(double));
  double *ax = malloc(n * sizeof(double)), *ay = malloc(n * sizeof(double)), *az = malloc(n * sizeof(double));
  /* a Plummer-like cloud, every rank drawing the whole sequence and keeping its block */
  for (int g = 0; g < N; ++g) {
    double r = 0.2 / sqrt(pow(urand() * 0.99 + 0.005, -2.0 / 3.0) - 1.0);
    double ct = 2 * urand() - 1, ph = 2 * M_PI * urand(), st = sqrt(1 - ct * ct);
    double vr = 0.3 * urand(), vp = 2 * M_PI * urand();
    if (g / n == rank && g - rank * n < n) {
      int i = g - rank * n;
      b[i].x = r * st * cos(ph); b[i].y = r * st * sin(ph); b[i].z = r * ct; b[i].m = 1.0 / N;
      vx[i] = vr * cos(vp); vy[i] = vr * sin(vp); vz[i] = 0.1 * vr * (ct);
    }
  }
  const double dt = 1e-3, eps2 = 1e-4;
  double diag[5], *all = rank == 0 ? malloc(5 * size * sizeof(double)) : NULL;
  forces(b, n, travel, next, size, left, right, eps2, ax, ay, az, body_t);

  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  for (int step = 1; step <= steps; ++step) {
    for (int i = 0; i < n; ++i) {
      vx[i] += 0.5 * dt * ax[i]; vy[i] += 0.5 * dt * ay[i]; vz[i] += 0.5 * dt * az[i];
      b[i].x += dt * vx[i]; b[i].y += dt * vy[i]; b[i].z += dt * vz[i];
    }
    forces(b, n, travel, next, size, left, right, eps2, ax, ay, az, body_t);
    for (int i = 0; i < n; ++i) {
      vx[i] += 0.5 * dt * ax[i]; vy[i] += 0.5 * dt * ay[i]; vz[i] += 0.5 * dt * az[i];
    }
    if (step % 10 == 0) {
      double ke = 0, px = 0, py = 0, pz = 0, vmax = 0;
      for (int i = 0; i < n; ++i) {
        double v2 = vx[i] * vx[i] + vy[i] * vy[i] + vz[i] * vz[i];
        ke += 0.5 * b[i].m * v2;
        px += b[i].m * vx[i]; py += b[i].m * vy[i]; pz += b[i].m * vz[i];
        if (v2 > vmax) vmax = v2;
      }
      diag[0] = ke; diag[1] = px; diag[2] = py; diag[3] = pz; diag[4] = sqrt(vmax);
      MPI_Gather(diag, 5, MPI_DOUBLE, all, 5, MPI_DOUBLE, 0, MPI_COMM_WORLD);
      if (rank == 0) {
        double k = 0, p[3] = {0, 0, 0}, vm = 0;
        for (int r = 0; r < size; ++r) {
          k += all[5 * r]; p[0] += all[5 * r + 1]; p[1] += all[5 * r + 2]; p[2] += all[5 * r + 3];
          if (all[5 * r + 4] > vm) vm = all[5 * r + 4];
        }
        printf("step %5d  KE %.8e  |P| %.3e  vmax %.4f\n", step, k, sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]), vm);
      }
    }
  }
  double t = MPI_Wtime() - t0, tmax;
  MPI_Reduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);

  /* potential energy, once: pairs with every block */
  double pe = 0, pe_all, ke = 0, ke_all;
  memcpy(travel, b, n * sizeof *b);
  for (int shift = 0; shift < size; ++shift) {
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        double dx = travel[j].x - b[i].x, dy = travel[j].y - b[i].y, dz = travel[j].z - b[i].z;
        pe -= 0.5 * b[i].m * travel[j].m / sqrt(dx * dx + dy * dy + dz * dz + eps2);
      }
    MPI_Sendrecv_replace(travel, n, body_t, right, 50, left, 50, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  for (int i = 0; i < n; ++i) ke += 0.5 * b[i].m * (vx[i] * vx[i] + vy[i] * vy[i] + vz[i] * vz[i]);
  MPI_Reduce(&pe, &pe_all, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Reduce(&ke, &ke_all, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    printf("result kinetic %.10e\n", ke_all);
    printf("result potential %.10e\n", pe_all);
    printf("loop: %d iterations, %.6f s, %.6e s per iteration\n", steps, tmax, tmax / steps);
  }
  MPI_Type_free(&body_t);
  free(b); free(travel); free(next); free(vx); free(vy); free(vz); free(ax); free(ay); free(az); free(all);
  MPI_Finalize();
  return 0;
}
