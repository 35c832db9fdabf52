// Implicit (backward Euler) heat equation: every time step solves
// (I - dt*lap) u_new = u_old with a conjugate-gradient inner loop, a fixed
// number of inner iterations as production codes configure them (halo
// exchange and two MPI_Allreduce per inner iteration). Each time step then
// adds a source and reduces diagnostics (total heat, maximum).
//
// Usage: implicit_heat [n [steps [inner]]]   (default 384, 30, 12)
// Prints "result heat <h>", "result maximum <m>" and
// "loop: <k> iterations, <t> s, <t/k> s per iteration" (per time step).
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

struct Grid {
  int n = 0, rows = 0, first = 0, up = MPI_PROC_NULL, down = MPI_PROC_NULL;
  std::size_t at(int i, int j) const { return static_cast<std::size_t>(i) * n + j; }
};

void exchange(const Grid& g, std::vector<double>& v) {
  MPI_Sendrecv(&v[g.at(g.rows, 0)], g.n, MPI_DOUBLE, g.down, 0, &v[g.at(0, 0)], g.n, MPI_DOUBLE, g.up, 0,
               MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Sendrecv(&v[g.at(1, 0)], g.n, MPI_DOUBLE, g.up, 1, &v[g.at(g.rows + 1, 0)], g.n, MPI_DOUBLE, g.down, 1,
               MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

// y = (I - dt*lap) x on the interior, x's halo exchanged first.
void apply(const Grid& g, double dt, std::vector<double>& x, std::vector<double>& y) {
  exchange(g, x);
  for (int i = 1; i <= g.rows; ++i)
    for (int j = 0; j < g.n; ++j) {
      const double west = j > 0 ? x[g.at(i, j - 1)] : 0, east = j < g.n - 1 ? x[g.at(i, j + 1)] : 0;
      y[g.at(i, j)] = x[g.at(i, j)] + dt * (4 * x[g.at(i, j)] - west - east - x[g.at(i - 1, j)] - x[g.at(i + 1, j)]);
    }
}

double dot(const Grid& g, const std::vector<double>& a, const std::vector<double>& b) {
  double local = 0, total = 0;
  for (std::size_t k = g.at(1, 0); k < g.at(g.rows + 1, 0); ++k) local += a[k] * b[k];
  MPI_Allreduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return total;
}

void solve(const Grid& g, double dt, int inner, const std::vector<double>& rhs, std::vector<double>& u,
           std::vector<double>& r, std::vector<double>& p, std::vector<double>& q) {
  apply(g, dt, u, q);
  for (std::size_t k = g.at(1, 0); k < g.at(g.rows + 1, 0); ++k) p[k] = r[k] = rhs[k] - q[k];
  double rho = dot(g, r, r);
  for (int it = 0; it < inner; ++it) {
    apply(g, dt, p, q);
    const double alpha = rho / dot(g, p, q);
    for (std::size_t k = g.at(1, 0); k < g.at(g.rows + 1, 0); ++k) {
      u[k] += alpha * p[k];
      r[k] -= alpha * q[k];
    }
    const double rho_new = dot(g, r, r);
    for (std::size_t k = g.at(1, 0); k < g.at(g.rows + 1, 0); ++k) p[k] = r[k] + rho_new / rho * p[k];
    rho = rho_new;
  }
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  Grid g;
  g.n = argc > 1 ? std::atoi(argv[1]) : 384;
  const int steps = argc > 2 ? std::atoi(argv[2]) : 30;
  const int inner = argc > 3 ? std::atoi(argv[3]) : 12;
  g.rows = g.n / size + (rank < g.n % size ? 1 : 0);
  g.first = rank * (g.n / size) + std::min(rank, g.n % size);
  if (rank > 0) g.up = rank - 1;
  if (rank < size - 1) g.down = rank + 1;
  const double dt = 2.0;
  const std::size_t cells = g.at(g.rows + 2, 0);
  std::vector<double> u(cells, 0.0), old(cells, 0.0), r(cells), p(cells, 0.0), q(cells);
  double heat = 0, maximum = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  const double start = MPI_Wtime();
  for (int step = 1; step <= steps; ++step) {
    for (int i = 1; i <= g.rows; ++i)
      for (int j = 0; j < g.n; ++j) {
        const double x = static_cast<double>(j) / g.n, y = static_cast<double>(g.first + i - 1) / g.n;
        old[g.at(i, j)] = u[g.at(i, j)] + 0.01 * std::exp(-50 * ((x - 0.3) * (x - 0.3) + (y - 0.6) * (y - 0.6)));
      }
    solve(g, dt, inner, old, u, r, p, q);
    double local[2] = {0, 0};
    for (int i = 1; i <= g.rows; ++i)
      for (int j = 0; j < g.n; ++j) {
        local[0] += u[g.at(i, j)];
        local[1] = std::max(local[1], u[g.at(i, j)]);
      }
    MPI_Allreduce(&local[0], &heat, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(&local[1], &maximum, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  }
  double elapsed = MPI_Wtime() - start, slowest = 0;
  MPI_Reduce(&elapsed, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    std::printf("result heat %.12e\n", heat);
    std::printf("result maximum %.12e\n", maximum);
    std::printf("loop: %d iterations, %.6f s, %.6e s per iteration\n", steps, slowest, slowest / steps);
  }
  MPI_Finalize();
  return 0;
}
