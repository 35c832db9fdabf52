// A C++ program that times a loop of compute and barriers with std::chrono's
// clocks as well as MPI_Wtime (vclock_check.py's `clocks`): rank 0 prints
// wtime_s, steady_s, system_s, high_resolution_s and cpu_s (its CPU time in
// the loop). Under the virtual clock every clock tells virtual time.
//   program_clocks_cxx MS ITERATIONS
#include <mpi.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "tests/common/cpu_work.h"

namespace {

template <typename Clock>
double seconds_since(typename Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (argc != 3) {
    if (rank == 0) std::fprintf(stderr, "usage: program_clocks_cxx MS ITERATIONS\n");
    MPI_Finalize();
    return 2;
  }
  const double ms = std::atof(argv[1]);
  const int iterations = std::atoi(argv[2]);
  double cpu = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  const double wtime = MPI_Wtime();
  const auto steady = std::chrono::steady_clock::now();
  const auto system = std::chrono::system_clock::now();
  const auto high_resolution = std::chrono::high_resolution_clock::now();
  for (int it = 0; it < iterations; ++it) {
    cpu += compute_for(ms * 1e-3);
    MPI_Barrier(MPI_COMM_WORLD);
  }
  const double wtime_s = MPI_Wtime() - wtime;
  const double steady_s = seconds_since<std::chrono::steady_clock>(steady);
  const double system_s = seconds_since<std::chrono::system_clock>(system);
  const double high_resolution_s = seconds_since<std::chrono::high_resolution_clock>(high_resolution);
  if (rank == 0) {
    std::printf("wtime_s=%.9f steady_s=%.9f system_s=%.9f high_resolution_s=%.9f cpu_s=%.9f\n", wtime_s, steady_s,
                system_s, high_resolution_s, cpu);
  }
  MPI_Finalize();
  return 0;
}
