// Advection-diffusion of a passive scalar on a 2-D channel in block rows,
// operator splitting as many engineering codes do it: each time step an
// explicit upwind advection (halo rows by MPI_Irecv/MPI_Isend, MPI_Waitall),
// then an implicit diffusion solve (I - nu dt lap) c = c* by conjugate
// gradients until a relative tolerance (a few iterations: every matrix-vector
// product exchanges its halos the same way, the dot products and the norm by
// MPI_Allreduce). The flow's velocity changes in time, and so does the
// number of CG iterations.
//
// Usage: advdiff_cg [rows [cols [steps]]]   (default 768 1024 120)
// Prints "result ..." lines and "loop: <k> iterations, <t> s, <t/k> s per iteration".
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

struct Slab {
  int rows, cols, row0, up, down;
  std::size_t size() const { return static_cast<std::size_t>(rows + 2) * cols; }
  std::size_t at(int i, int j) const { return static_cast<std::size_t>(i) * cols + j; }
};

class Halo {
 public:
  explicit Halo(const Slab& s) : s_(s) {}
  void exchange(std::vector<double>& v) {
    MPI_Request req[4];
    int n = 0;
    MPI_Irecv(&v[s_.at(0, 0)], s_.cols, MPI_DOUBLE, s_.up, 21, MPI_COMM_WORLD, &req[n++]);
    MPI_Irecv(&v[s_.at(s_.rows + 1, 0)], s_.cols, MPI_DOUBLE, s_.down, 22, MPI_COMM_WORLD, &req[n++]);
    MPI_Isend(&v[s_.at(s_.rows, 0)], s_.cols, MPI_DOUBLE, s_.down, 21, MPI_COMM_WORLD, &req[n++]);
    MPI_Isend(&v[s_.at(1, 0)], s_.cols, MPI_DOUBLE, s_.up, 22, MPI_COMM_WORLD, &req[n++]);
    MPI_Waitall(n, req, MPI_STATUSES_IGNORE);
  }

 private:
  const Slab& s_;
};

double dot(const Slab& s, const std::vector<double>& a, const std::vector<double>& b) {
  double local = 0, global = 0;
  for (int i = 1; i <= s.rows; ++i)
    for (int j = 0; j < s.cols; ++j) local += a[s.at(i, j)] * b[s.at(i, j)];
  MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return global;
}

// y = (I - k lap) x, zero outside the domain (the halos of the edge ranks stay 0)
void apply(const Slab& s, Halo& halo, double k, std::vector<double>& x, std::vector<double>& y) {
  halo.exchange(x);
  for (int i = 1; i <= s.rows; ++i)
    for (int j = 0; j < s.cols; ++j) {
      double w = j > 0 ? x[s.at(i, j - 1)] : 0.0, e = j < s.cols - 1 ? x[s.at(i, j + 1)] : 0.0;
      y[s.at(i, j)] = (1 + 4 * k) * x[s.at(i, j)] - k * (x[s.at(i - 1, j)] + x[s.at(i + 1, j)] + w + e);
    }
}

int cg(const Slab& s, Halo& halo, double k, const std::vector<double>& b, std::vector<double>& x, double tol) {
  std::vector<double> r(s.size(), 0.0), p(s.size(), 0.0), q(s.size(), 0.0);
  apply(s, halo, k, x, q);
  for (int i = 1; i <= s.rows; ++i)
    for (int j = 0; j < s.cols; ++j) r[s.at(i, j)] = b[s.at(i, j)] - q[s.at(i, j)];
  p = r;
  double rr = dot(s, r, r);
  const double bb = dot(s, b, b);
  int it = 0;
  while (it < 50 && rr > tol * tol * bb) {
    apply(s, halo, k, p, q);
    const double alpha = rr / dot(s, p, q);
    for (int i = 1; i <= s.rows; ++i)
      for (int j = 0; j < s.cols; ++j) {
        x[s.at(i, j)] += alpha * p[s.at(i, j)];
        r[s.at(i, j)] -= alpha * q[s.at(i, j)];
      }
    const double rr_new = dot(s, r, r);
    const double beta = rr_new / rr;
    rr = rr_new;
    for (int i = 1; i <= s.rows; ++i)
      for (int j = 0; j < s.cols; ++j) p[s.at(i, j)] = r[s.at(i, j)] + beta * p[s.at(i, j)];
    ++it;
  }
  return it;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int rows = argc > 1 ? std::atoi(argv[1]) : 768;
  const int cols = argc > 2 ? std::atoi(argv[2]) : 1024;
  const int steps = argc > 3 ? std::atoi(argv[3]) : 120;
  Slab s{rows / size, cols, rank * (rows / size), rank > 0 ? rank - 1 : MPI_PROC_NULL,
         rank < size - 1 ? rank + 1 : MPI_PROC_NULL};
  Halo halo(s);
  std::vector<double> c(s.size(), 0.0), cs(s.size(), 0.0);
  const double h = 1.0 / cols, dt = 0.4 * h, nu = 3e-3, k = nu * dt / (h * h);
  for (int i = 1; i <= s.rows; ++i)
    for (int j = 0; j < cols; ++j) {
      const double y = (s.row0 + i - 0.5) / rows, x = (j + 0.5) / cols;
      c[s.at(i, j)] = std::exp(-200 * ((x - 0.25) * (x - 0.25) + (y - 0.5) * (y - 0.5)));
    }

  int total_cg = 0, max_cg = 0, min_cg = 1 << 30;
  MPI_Barrier(MPI_COMM_WORLD);
  const double t0 = MPI_Wtime();
  for (int step = 0; step < steps; ++step) {
    // a channel flow whose strength pulses: u(y) along x, a weak cross flow v
    const double pulse = 1.0 + 0.8 * std::sin(0.15 * step);
    const double v = 0.3 * std::cos(0.07 * step);
    halo.exchange(c);
    for (int i = 1; i <= s.rows; ++i) {
      const double y = (s.row0 + i - 0.5) / rows, u = pulse * 4 * y * (1 - y);
      for (int j = 0; j < cols; ++j) {
        const double cw = j > 0 ? c[s.at(i, j - 1)] : c[s.at(i, j)];
        const double dcx = u > 0 ? c[s.at(i, j)] - cw : 0.0;
        const double dcy = v > 0 ? c[s.at(i, j)] - c[s.at(i - 1, j)] : c[s.at(i + 1, j)] - c[s.at(i, j)];
        cs[s.at(i, j)] = c[s.at(i, j)] - dt / h * (u * dcx + v * dcy);
      }
    }
    const double tol = step % 4 == 0 ? 1e-8 : 1e-5;  // a tighter solve every 4th step
    const int its = cg(s, halo, k * pulse, cs, c, tol);
    total_cg += its;
    max_cg = std::max(max_cg, its);
    min_cg = std::min(min_cg, its);
  }
  const double elapsed = MPI_Wtime() - t0;
  double slowest = 0;
  MPI_Reduce(&elapsed, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  double mass_local = 0, mass = 0;
  for (int i = 1; i <= s.rows; ++i)
    for (int j = 0; j < cols; ++j) mass_local += c[s.at(i, j)];
  MPI_Reduce(&mass_local, &mass, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    std::printf("cg iterations per step: %d to %d, %d in all\n", min_cg, max_cg, total_cg);
    std::printf("result cg_total %d\n", total_cg);
    std::printf("result mass %.10e\n", mass * h * h);
    std::printf("loop: %d iterations, %.6f s, %.6e s per iteration\n", steps, slowest, slowest / steps);
  }
  MPI_Finalize();
  return 0;
}
