// A relaxation code that monitors itself the way production codes do: the
// rows of a 2-D field lie in equal blocks over the ranks. Each step:
//   - the halo rows are swapped around a ring with MPI_Sendrecv_replace (a
//     periodic domain: the first rank's upper neighbour is the last rank);
//   - the block is relaxed (a weighted Jacobi sweep);
//   - one MPI_Allreduce of a derived datatype (MPI_Type_create_struct: the
//     residual's sum of squares, its largest entry and the global row that
//     holds it, the number of cells above a threshold) with a user-defined
//     reduction (MPI_Op_create), so that the monitor needs one message;
//   - every 20th step a diagnostic without MPI: each rank's block is
//     smoothed several times over into a scratch copy and its moments are
//     taken, a few times the work of a step, its result folded into the
//     next step's reduction.
//
// Usage: struct_reduce [rows [steps [width]]]   (default 1024 300 256)
// Prints "result ..." lines and "loop: <k> iterations, <t> s, <t/k> s per iteration".
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

// What the monitor reduces every step.
struct Monitor {
  double sum_sq;     // residual's sum of squares
  double largest;    // its largest magnitude
  long where;        // the global row holding it
  long above;        // cells whose residual exceeds the threshold
  double diagnostic; // the last diagnostic's moment (summed)
};

MPI_Datatype monitor_type() {
  int lengths[3] = {2, 2, 1};
  MPI_Aint displacements[3] = {offsetof(Monitor, sum_sq), offsetof(Monitor, where), offsetof(Monitor, diagnostic)};
  MPI_Datatype types[3] = {MPI_DOUBLE, MPI_LONG, MPI_DOUBLE};
  MPI_Datatype packed, resized;
  MPI_Type_create_struct(3, lengths, displacements, types, &packed);
  MPI_Type_create_resized(packed, 0, sizeof(Monitor), &resized);
  MPI_Type_free(&packed);
  MPI_Type_commit(&resized);
  return resized;
}

// Sums and counts add; the largest entry keeps its row (the lower row on a
// tie, so that the reduction does not depend on the order of the ranks).
void combine(void* in, void* inout, int* count, MPI_Datatype*) {
  const Monitor* a = static_cast<const Monitor*>(in);
  Monitor* b = static_cast<Monitor*>(inout);
  for (int k = 0; k < *count; ++k) {
    b[k].sum_sq += a[k].sum_sq;
    b[k].above += a[k].above;
    b[k].diagnostic += a[k].diagnostic;
    if (a[k].largest > b[k].largest || (a[k].largest == b[k].largest && a[k].where < b[k].where)) {
      b[k].largest = a[k].largest;
      b[k].where = a[k].where;
    }
  }
}

// The diagnostic: `passes` smoothings of the block into `scratch`, then the
// fourth moment of the result.
double diagnostic(const std::vector<double>& u, std::vector<double>& scratch, int rows, int width, int passes) {
  std::copy(u.begin(), u.end(), scratch.begin());
  std::vector<double> next(scratch.size());
  for (int p = 0; p < passes; ++p) {
    for (int i = 1; i <= rows; ++i) {
      for (int j = 1; j < width - 1; ++j) {
        const double* row = &scratch[i * width];
        next[i * width + j] = 0.5 * row[j] + 0.125 * (row[j - 1] + row[j + 1] + row[j - width] + row[j + width]);
      }
    }
    std::swap(scratch, next);
  }
  double moment = 0.0;
  for (int i = 1; i <= rows; ++i)
    for (int j = 0; j < width; ++j) moment += std::pow(scratch[i * width + j], 4.0);
  return moment;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int global_rows = argc > 1 ? std::atoi(argv[1]) : 1024;
  const int steps = argc > 2 ? std::atoi(argv[2]) : 300;
  const int width = argc > 3 ? std::atoi(argv[3]) : 256;
  const int base = global_rows / size, extra = global_rows % size;
  const int rows = base + (rank < extra);
  const long first = static_cast<long>(rank) * base + std::min(rank, extra);

  // rows 0 and rows + 1 are the halos
  std::vector<double> u((rows + 2) * width), unew((rows + 2) * width), scratch((rows + 2) * width);
  for (int i = 1; i <= rows; ++i)
    for (int j = 0; j < width; ++j)
      u[i * width + j] = std::sin(0.013 * (first + i) * (j + 1)) + 0.5 * std::cos(0.07 * j);
  const int up = (rank + size - 1) % size, down = (rank + 1) % size;
  const MPI_Datatype monitor = monitor_type();
  MPI_Op op;
  MPI_Op_create(combine, 1, &op);
  const double omega = 0.8, threshold = 1e-3;
  double pending = 0.0, diagnostics = 0.0;
  Monitor global{};

  MPI_Barrier(MPI_COMM_WORLD);
  const double t0 = MPI_Wtime();
  for (int step = 1; step <= steps; ++step) {
    // the ring: my first row goes up and the lower neighbour's first row
    // comes back into my lower halo; then the same downwards
    std::copy(&u[width], &u[2 * width], &u[(rows + 1) * width]);
    MPI_Sendrecv_replace(&u[(rows + 1) * width], width, MPI_DOUBLE, up, 31, down, 31, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE);
    std::copy(&u[rows * width], &u[(rows + 1) * width], &u[0]);
    MPI_Sendrecv_replace(&u[0], width, MPI_DOUBLE, down, 32, up, 32, MPI_COMM_WORLD, MPI_STATUS_IGNORE);

    Monitor mine{0.0, 0.0, first + 1, 0, pending};
    for (int i = 1; i <= rows; ++i) {
      for (int j = 1; j < width - 1; ++j) {
        const double* row = &u[i * width];
        const double target = 0.25 * (row[j - 1] + row[j + 1] + row[j - width] + row[j + width]);
        const double residual = target - row[j];
        unew[i * width + j] = row[j] + omega * residual;
        mine.sum_sq += residual * residual;
        if (std::fabs(residual) > mine.largest) {
          mine.largest = std::fabs(residual);
          mine.where = first + i;
        }
        mine.above += std::fabs(residual) > threshold;
      }
      unew[i * width] = u[i * width];
      unew[i * width + width - 1] = u[i * width + width - 1];
    }
    for (int i = 1; i <= rows; ++i) std::copy(&unew[i * width], &unew[(i + 1) * width], &u[i * width]);
    MPI_Allreduce(&mine, &global, 1, monitor, op, MPI_COMM_WORLD);
    diagnostics += global.diagnostic;
    pending = 0.0;
    if (step % 20 == 0) pending = diagnostic(u, scratch, rows, width, 6);
  }
  const double elapsed = MPI_Wtime() - t0;
  double seconds = 0.0;
  MPI_Reduce(&elapsed, &seconds, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);

  // the checksum: per-rank partials gathered and summed in rank order
  double checksum = 0.0;
  for (int i = 1; i <= rows; ++i)
    for (int j = 0; j < width; ++j) checksum += u[i * width + j] * (1.0 + 1e-3 * j);
  std::vector<double> partials(rank == 0 ? size : 0);
  MPI_Gather(&checksum, 1, MPI_DOUBLE, partials.data(), 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    double total = 0.0;
    for (double p : partials) total += p;
    std::printf("result residual %.10e\n", std::sqrt(global.sum_sq));
    std::printf("result largest %.10e at row %ld\n", global.largest, global.where);
    std::printf("result above %ld\n", global.above);
    std::printf("result diagnostics %.10e\n", diagnostics);
    std::printf("result checksum %.10e\n", total);
    std::printf("loop: %d iterations, %.6f s, %.9f s per iteration\n", steps, seconds, seconds / steps);
  }
  MPI_Op_free(&op);
  MPI_Datatype doomed = monitor;
  MPI_Type_free(&doomed);
  MPI_Finalize();
  return 0;
}
