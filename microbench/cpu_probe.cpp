#include "microbench/cpu_probe.hpp"

#include <cmath>

#include "microbench/reference_kernel.hpp"
#include "microbench/statistics.hpp"
#include "microbench/timing_batch.hpp"

namespace mheta::microbench {

namespace {

constexpr int kSweepsPerUnit = 10;  // about a millisecond on this machine

}  // namespace

CpuResult probe_cpu(const Options& options, Budget& budget, MPI_Comm comm) {
  int rank = 0;
  int size = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  StencilKernel kernel;
  Sample unit;
  volatile double sink = kernel.run(1);  // warm the caches
  CpuResult result;
  for (int round = 0;; ++round) {
    add_all(unit, time_batch([&] {
              const double t0 = MPI_Wtime();
              sink = sink + kernel.run(kSweepsPerUnit);
              // End the timed interval with an MPI call: an emulated slower CPU
              // (`mheta run --emulate`) stretches the compute between MPI calls when
              // the next call is made, so the stretch falls inside the interval.
              // MPI_Test of a null request is the cheapest call that is one.
              MPI_Request none = MPI_REQUEST_NULL;
              int flag = 0;
              MPI_Test(&none, &flag, MPI_STATUS_IGNORE);
              return MPI_Wtime() - t0;
            }));
    result.rounds = round + 1;
    if (!budget.another_round(unit.relative_ci95() > options.target_relative_ci95, result.rounds)) break;
  }
  const double mine[2] = {unit.median(), unit.relative_ci95()};
  std::vector<double> all(rank == 0 ? 2 * static_cast<std::size_t>(size) : 0);
  MPI_Gather(mine, 2, MPI_DOUBLE, all.data(), 2, MPI_DOUBLE, 0, comm);
  if (rank != 0) return result;
  int slowest = 0;
  for (int r = 1; r < size; ++r) {
    if (all[2 * static_cast<std::size_t>(r)] > all[2 * static_cast<std::size_t>(slowest)]) slowest = r;
  }
  const double slowest_s = all[2 * static_cast<std::size_t>(slowest)];
  const double slowest_rel = all[2 * static_cast<std::size_t>(slowest) + 1];
  for (int r = 0; r < size; ++r) {
    const double mean = all[2 * static_cast<std::size_t>(r)];
    const double rel = all[2 * static_cast<std::size_t>(r) + 1];
    const double power = slowest_s / mean;
    result.kernel_s.push_back(mean);
    result.power.push_back(power);
    // Ratio of two independent means: relative errors add in quadrature
    // (the slowest rank's own ratio is exactly 1 by definition).
    result.power_ci95.push_back(r == slowest ? 0 : power * std::hypot(rel, slowest_rel));
  }
  return result;
}

}  // namespace mheta::microbench
