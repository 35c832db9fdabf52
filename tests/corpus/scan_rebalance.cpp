// A 1-D cell code with a load-balancing diagnosis: the cells (rows of
// `width` values) lie in equal blocks over the ranks; each cell holds a
// density row that diffuses between neighbouring cells, and a cell's work
// (the number of particle sub-steps pushed in it) follows its density, so
// the ranks' loads differ. Each step:
//   - the halo rows are posted with MPI_Irecv/MPI_Isend, the interior cells
//     are updated meanwhile, and an MPI_Waitsome loop updates each boundary
//     cell as soon as its halo arrives;
//   - the particles of each cell are pushed (work proportional to density);
//   - MPI_Exscan and MPI_Scan of the per-rank work give every rank the
//     prefix sums a load balancer would cut the cell sequence at: where its
//     first and last cells would go in a balanced distribution;
//   - every 5th step MPI_Allgather of the per-rank work lets rank 0 log the
//     imbalance; the cells are not actually moved, so the steps repeat.
//
// Usage: scan_rebalance [cells [steps [width]]]   (default 2048 400 128)
// Prints "result ..." lines and "loop: <k> iterations, <t> s, <t/k> s per iteration".
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

struct Block {
  int first = 0, count = 0, width = 0;
  std::vector<double> rho, rho_new, part_x, part_v;  // rho: (count + 2) rows; particles: per cell, `width` slots
};

// diffusion of one cell row from its neighbours' rows
void diffuse_row(const Block& b, int i, double nu) {
  const double* up = &b.rho[(i - 1) * b.width];
  const double* mid = &b.rho[i * b.width];
  const double* dn = &b.rho[(i + 1) * b.width];
  double* out = const_cast<double*>(&b.rho_new[i * b.width]);
  const int w = b.width;
  for (int j = 0; j < w; ++j) {
    const double left = mid[j == 0 ? w - 1 : j - 1], right = mid[j == w - 1 ? 0 : j + 1];
    out[j] = mid[j] + nu * (up[j] + dn[j] + left + right - 4.0 * mid[j]);
  }
}

// the cell's work: particle sub-steps in proportion to its density
long push_particles(Block& b, int i, double dt) {
  const double* r = &b.rho[i * b.width];
  double mean = 0.0;
  for (int j = 0; j < b.width; ++j) mean += r[j];
  mean /= b.width;
  const int substeps = 1 + static_cast<int>(3.0 * mean);
  double* x = &b.part_x[(i - 1) * b.width];
  double* v = &b.part_v[(i - 1) * b.width];
  for (int s = 0; s < substeps; ++s)
    for (int j = 0; j < b.width; ++j) {
      const double a = -std::sin(6.283185307179586 * x[j]) * r[j];
      v[j] += dt * a;
      x[j] += dt * v[j];
      x[j] -= std::floor(x[j]);
    }
  return substeps;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int cells = argc > 1 ? std::atoi(argv[1]) : 2048;
  const int steps = argc > 2 ? std::atoi(argv[2]) : 400;
  const int width = argc > 3 ? std::atoi(argv[3]) : 128;

  Block b;
  const int base = cells / size, extra = cells % size;
  b.count = base + (rank < extra);
  b.first = rank * base + std::min(rank, extra);
  b.width = width;
  b.rho.assign((b.count + 2) * width, 0.0);
  b.rho_new.assign((b.count + 2) * width, 0.0);
  b.part_x.resize(b.count * width);
  b.part_v.assign(b.count * width, 0.0);
  for (int i = 1; i <= b.count; ++i) {
    const double c = (b.first + i - 1 + 0.5) / cells;
    for (int j = 0; j < width; ++j) {
      const double y = (j + 0.5) / width;
      b.rho[i * width + j] = 0.2 + 1.6 * std::exp(-60.0 * (c - 0.3) * (c - 0.3)) * (1.0 + 0.3 * std::cos(6.283185307179586 * y));
      b.part_x[(i - 1) * width + j] = std::fmod(0.618033988749895 * (b.first + i) + 0.37 * j / width, 1.0);
    }
  }
  const int up = rank > 0 ? rank - 1 : MPI_PROC_NULL;
  const int down = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;
  const double nu = 0.2, dt = 0.01;
  std::vector<long> work_all(size);
  long total_work = 0;
  double imbalance = 0.0;
  long cut_first = 0, cut_last = 0;

  MPI_Barrier(MPI_COMM_WORLD);
  const double t0 = MPI_Wtime();
  for (int step = 1; step <= steps; ++step) {
    // halos: rows 0 and count+1; a missing neighbour leaves the zero-flux copy
    MPI_Request req[4];
    MPI_Irecv(&b.rho[0], width, MPI_DOUBLE, up, 21, MPI_COMM_WORLD, &req[0]);
    MPI_Irecv(&b.rho[(b.count + 1) * width], width, MPI_DOUBLE, down, 22, MPI_COMM_WORLD, &req[1]);
    MPI_Isend(&b.rho[1 * width], width, MPI_DOUBLE, up, 22, MPI_COMM_WORLD, &req[2]);
    MPI_Isend(&b.rho[b.count * width], width, MPI_DOUBLE, down, 21, MPI_COMM_WORLD, &req[3]);
    if (up == MPI_PROC_NULL) std::copy(&b.rho[width], &b.rho[2 * width], &b.rho[0]);
    if (down == MPI_PROC_NULL)
      std::copy(&b.rho[b.count * width], &b.rho[(b.count + 1) * width], &b.rho[(b.count + 1) * width]);
    for (int i = 2; i < b.count; ++i) diffuse_row(b, i, nu);
    int outstanding = 4;
    while (outstanding > 0) {
      int done, idx[4];
      MPI_Waitsome(4, req, &done, idx, MPI_STATUSES_IGNORE);
      if (done == MPI_UNDEFINED) break;
      outstanding -= done;
      for (int k = 0; k < done; ++k) {
        if (idx[k] == 0) diffuse_row(b, 1, nu);
        if (idx[k] == 1 && b.count > 1) diffuse_row(b, b.count, nu);
      }
    }
    // the sends are complete, so the old rows may be overwritten
    for (int i = 1; i <= b.count; ++i)
      std::copy(&b.rho_new[i * width], &b.rho_new[(i + 1) * width], &b.rho[i * width]);

    long work = 0;
    for (int i = 1; i <= b.count; ++i) work += push_particles(b, i, dt);

    // prefix sums of the work: this rank's cells span [before, through)
    long before = 0, through = 0;
    MPI_Exscan(&work, &before, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) before = 0;  // MPI_Exscan leaves rank 0's result undefined
    MPI_Scan(&work, &through, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (step % 5 == 0) {
      MPI_Allgather(&work, 1, MPI_LONG, work_all.data(), 1, MPI_LONG, MPI_COMM_WORLD);
      total_work = 0;
      long most = 0;
      for (int r = 0; r < size; ++r) { total_work += work_all[r]; most = std::max(most, work_all[r]); }
      imbalance = static_cast<double>(most) * size / static_cast<double>(total_work);
      if (rank == 0 && step % 50 == 0) std::printf("step %5d  work %ld  imbalance %.4f\n", step, total_work, imbalance);
    }
    if (total_work > 0) {
      // the ranks that would own this block's first and last cells if balanced
      cut_first = before * size / total_work;
      cut_last = std::max(before, through - 1) * size / total_work;
    }
  }
  double t = MPI_Wtime() - t0, tmax;
  MPI_Reduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);

  // checksums, per-rank partials gathered and summed in rank order
  double part[3] = {0.0, 0.0, static_cast<double>(cut_last - cut_first)};
  for (int i = 1; i <= b.count; ++i)
    for (int j = 0; j < width; ++j) {
      part[0] += b.rho[i * width + j];
      part[1] += b.part_x[(i - 1) * width + j] * b.part_v[(i - 1) * width + j];
    }
  std::vector<double> all(rank == 0 ? 3 * size : 0);
  MPI_Gather(part, 3, MPI_DOUBLE, all.data(), 3, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    double mass = 0.0, xv = 0.0;
    for (int r = 0; r < size; ++r) { mass += all[3 * r]; xv += all[3 * r + 1]; }
    std::printf("result mass %.10e\n", mass / (static_cast<double>(cells) * width));
    std::printf("result xv %.8e\n", xv / (static_cast<double>(cells) * width));
    std::printf("result work %ld\n", total_work);
    std::printf("loop: %d iterations, %.6f s, %.6e s per iteration\n", steps, tmax, tmax / steps);
  }
  MPI_Finalize();
  return 0;
}
