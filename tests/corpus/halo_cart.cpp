// A 2-D nine-point smoother on a Cartesian process grid, written the C++
// way: the field is a class owning a std::vector with a halo, the
// exchange posts MPI_Irecv/MPI_Isend to the four neighbours (MPI_PROC_NULL
// at the edges; columns through a strided datatype) and overlaps the
// interior update with the messages before MPI_Waitall. No collective in
// the loop; the norm is reduced once at the end.
//
// Usage: halo_cart [n [steps]]   (default 768, 200)
// Prints "result norm <r>" and "loop: <k> iterations, <t> s, <t/k> s per iteration".
#include <mpi.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

class Field {
 public:
  Field(int nx, int ny) : nx_(nx), ny_(ny), data_(static_cast<std::size_t>(nx + 2) * (ny + 2), 0.0) {}
  double& operator()(int i, int j) { return data_[static_cast<std::size_t>(j) * (nx_ + 2) + i]; }
  double operator()(int i, int j) const { return data_[static_cast<std::size_t>(j) * (nx_ + 2) + i]; }
  int nx() const { return nx_; }
  int ny() const { return ny_; }

 private:
  int nx_, ny_;
  std::vector<double> data_;
};

class HaloExchange {
 public:
  HaloExchange(MPI_Comm grid, int nx, int ny) : grid_(grid) {
    MPI_Cart_shift(grid, 0, 1, &north_, &south_);
    MPI_Cart_shift(grid, 1, 1, &west_, &east_);
    MPI_Type_vector(ny, 1, nx + 2, MPI_DOUBLE, &column_);
    MPI_Type_commit(&column_);
  }
  ~HaloExchange() { MPI_Type_free(&column_); }
  HaloExchange(const HaloExchange&) = delete;
  HaloExchange& operator=(const HaloExchange&) = delete;

  void start(Field& f) {
    const int nx = f.nx(), ny = f.ny();
    MPI_Irecv(&f(1, 0), nx, MPI_DOUBLE, north_, 0, grid_, &requests_[0]);
    MPI_Irecv(&f(1, ny + 1), nx, MPI_DOUBLE, south_, 1, grid_, &requests_[1]);
    MPI_Irecv(&f(0, 1), 1, column_, west_, 2, grid_, &requests_[2]);
    MPI_Irecv(&f(nx + 1, 1), 1, column_, east_, 3, grid_, &requests_[3]);
    MPI_Isend(&f(1, ny), nx, MPI_DOUBLE, south_, 0, grid_, &requests_[4]);
    MPI_Isend(&f(1, 1), nx, MPI_DOUBLE, north_, 1, grid_, &requests_[5]);
    MPI_Isend(&f(nx, 1), 1, column_, east_, 2, grid_, &requests_[6]);
    MPI_Isend(&f(1, 1), 1, column_, west_, 3, grid_, &requests_[7]);
  }
  void finish() { MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE); }

 private:
  MPI_Comm grid_;
  int north_ = MPI_PROC_NULL, south_ = MPI_PROC_NULL, west_ = MPI_PROC_NULL, east_ = MPI_PROC_NULL;
  MPI_Datatype column_;
  std::array<MPI_Request, 8> requests_{};
};

void smooth_point(const Field& in, Field& out, int i, int j) {
  out(i, j) = 0.5 * in(i, j) + 0.1 * (in(i - 1, j) + in(i + 1, j) + in(i, j - 1) + in(i, j + 1)) +
              0.025 * (in(i - 1, j - 1) + in(i + 1, j - 1) + in(i - 1, j + 1) + in(i + 1, j + 1));
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int n = argc > 1 ? std::atoi(argv[1]) : 768;
  const int steps = argc > 2 ? std::atoi(argv[2]) : 200;
  std::array<int, 2> dims{0, 0}, periods{0, 0}, coords{0, 0};
  MPI_Dims_create(size, 2, dims.data());
  MPI_Comm grid = MPI_COMM_NULL;
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims.data(), periods.data(), 0, &grid);
  MPI_Cart_coords(grid, rank, 2, coords.data());
  const int ny = n / dims[0], nx = n / dims[1];
  const int j0 = coords[0] * ny, i0 = coords[1] * nx;
  Field u(nx, ny), v(nx, ny);
  for (int j = 1; j <= ny; ++j)
    for (int i = 1; i <= nx; ++i) u(i, j) = std::sin(0.01 * (i0 + i)) * std::cos(0.02 * (j0 + j)) + ((i0 + i + j0 + j) % 3);
  {
    HaloExchange halo(grid, nx, ny);
    MPI_Barrier(MPI_COMM_WORLD);
    const double start = MPI_Wtime();
    for (int step = 0; step < steps; ++step) {
      halo.start(u);
      for (int j = 2; j < ny; ++j)
        for (int i = 2; i < nx; ++i) smooth_point(u, v, i, j);
      halo.finish();
      for (int i = 1; i <= nx; ++i) {
        smooth_point(u, v, i, 1);
        smooth_point(u, v, i, ny);
      }
      for (int j = 2; j < ny; ++j) {
        smooth_point(u, v, 1, j);
        smooth_point(u, v, nx, j);
      }
      std::swap(u, v);
    }
    double elapsed = MPI_Wtime() - start, slowest = 0;
    double local = 0, norm = 0;
    for (int j = 1; j <= ny; ++j)
      for (int i = 1; i <= nx; ++i) local += u(i, j) * u(i, j);
    MPI_Reduce(&local, &norm, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Reduce(&elapsed, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank == 0) {
      std::printf("result norm %.12e\n", std::sqrt(norm) / n);
      std::printf("loop: %d iterations, %.6f s, %.6e s per iteration\n", steps, slowest, slowest / steps);
    }
  }
  MPI_Comm_free(&grid);
  MPI_Finalize();
  return 0;
}
